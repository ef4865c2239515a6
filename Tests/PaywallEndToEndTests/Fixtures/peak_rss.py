"""Runs COMMAND and writes its peak resident set size in KiB (the kernel's high-water mark,
VmHWM, as wait4's ru_maxrss reports it for that one child) and its exit status to OUT as JSON.
The command's stdin, stdout and stderr are this script's.
Usage: peak_rss.py OUT COMMAND [ARGUMENT...]"""
import json, os, sys

out, command = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    try:
        os.execv(command[0], command)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
with open(out, "w") as f:
    json.dump({"peak_kib": usage.ru_maxrss, "status": os.waitstatus_to_exitcode(status)}, f)
