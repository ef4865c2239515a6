#!/usr/bin/python3
"""A stand-in for xdg-desktop-portal's OpenURI on the session bus, for PortalTests.

    openuri_portal.py RECORD -- COMMAND [ARG ...]

Owns org.freedesktop.portal.Desktop, serves org.freedesktop.portal.OpenURI.OpenURI (as the
portal documents it: parent_window s, uri s, options a{sv} -> handle o) on
/org/freedesktop/portal/desktop, writes each call as a JSON line to RECORD, and runs COMMAND
once the name is owned (its process id in RECORD.pid); exits with COMMAND's status. Run it under `dbus-run-session`.
"""

import json
import os
import subprocess
import sys

from gi.repository import Gio, GLib

INTERFACE = """
<node>
  <interface name="org.freedesktop.portal.OpenURI">
    <method name="OpenURI">
      <arg type="s" name="parent_window" direction="in"/>
      <arg type="s" name="uri" direction="in"/>
      <arg type="a{sv}" name="options" direction="in"/>
      <arg type="o" name="handle" direction="out"/>
    </method>
    <property name="version" type="u" access="read"/>
  </interface>
</node>
"""


def main():
    separator = sys.argv.index("--")
    record, command = sys.argv[1], sys.argv[separator + 1:]
    loop = GLib.MainLoop()
    calls = [0]
    status = [1]

    def method_call(connection, sender, path, interface, method, parameters, invocation):
        parent, uri, options = parameters.unpack()
        with open(record, "a") as out:
            out.write(json.dumps({"parent_window": parent, "uri": uri, "options": options}) + "\n")
        calls[0] += 1
        handle = "/org/freedesktop/portal/desktop/request/%s/%d" % (sender[1:].replace(".", "_"), calls[0])
        invocation.return_value(GLib.Variant("(o)", (handle,)))

    def get_property(connection, sender, path, interface, name):
        return GLib.Variant("u", 4)

    def child_exited(pid, code):
        exit_code = os.waitstatus_to_exitcode(code)
        status[0] = exit_code if exit_code >= 0 else 128 - exit_code
        loop.quit()

    def acquired(connection, name):
        process = subprocess.Popen(command)
        with open(record + ".pid", "w") as out:
            out.write("%d\n" % process.pid)
        GLib.child_watch_add(GLib.PRIORITY_DEFAULT, process.pid, child_exited)

    def bus_acquired(connection, name):
        node = Gio.DBusNodeInfo.new_for_xml(INTERFACE)
        connection.register_object("/org/freedesktop/portal/desktop", node.interfaces[0], method_call, get_property, None)

    def lost(connection, name):
        sys.stderr.write("openuri_portal: could not own %s\n" % name)
        loop.quit()

    Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.portal.Desktop", Gio.BusNameOwnerFlags.NONE,
                     bus_acquired, acquired, lost)
    loop.run()
    sys.exit(status[0])


main()
