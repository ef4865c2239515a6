"""A stand-in for PostHog's capture batch endpoint (https://posthog.com/docs/api/capture) on
127.0.0.1, for the analytics tests. Writes its port to PORTFILE and appends every request to
LOG as one JSON line: {"path", "content_type", "body" (parsed JSON or null), "answered",
"violations"} where violations lists what breaks the documented contract (POST /batch/ of
application/json with "api_key" and "batch": [{event, distinct_id, properties, timestamp, uuid}]).

CONTROL (a JSON file, read on every request) says how to answer: {"script": [S, ...]} answers
the first statuses in turn (consumed, kept in CONTROL.state), then {"default": S} (200 unless
given). A status S is a number, or {"status": N, "retry_after": "5"}, or "hang" (read the
request, answer nothing for 60 s). Usage: posthog_server.py CONTROL LOG PORTFILE"""
import http.server, json, os, sys, threading, time

import stand_in

control_path, log_path, port_path = sys.argv[1:4]
lock = threading.Lock()


stand_in.stop_with_parent()


def next_answer():
    with lock:
        with open(control_path) as f:
            control = json.load(f)
        state_path = control_path + ".state"
        used = 0
        if os.path.exists(state_path):
            with open(state_path) as f:
                used = json.load(f)
        script = control.get("script", [])
        if used < len(script):
            with open(state_path, "w") as f:
                json.dump(used + 1, f)
            return script[used]
        return control.get("default", 200)


def violations(path, content_type, body):
    found = []
    if path != "/batch/":
        found.append("path is %s, not /batch/" % path)
    if content_type != "application/json":
        found.append("Content-Type is %r" % content_type)
    if not isinstance(body, dict):
        return found + ["body is not a JSON object"]
    if not isinstance(body.get("api_key"), str) or not body["api_key"]:
        found.append("no api_key")
    batch = body.get("batch")
    if not isinstance(batch, list) or not batch:
        return found + ["batch is not a non-empty list"]
    for index, item in enumerate(batch):
        for key, kind in [("event", str), ("distinct_id", str), ("properties", dict), ("timestamp", str), ("uuid", str)]:
            if not isinstance(item.get(key), kind):
                found.append("batch[%d].%s missing or not %s" % (index, key, kind.__name__))
    return found


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        answer = next_answer()
        content_type = self.headers.get("Content-Type")
        entry = {"path": self.path, "content_type": content_type, "body": body, "answered": answer,
                 "headers": {k.lower(): v for k, v in self.headers.items()},
                 "violations": violations(self.path, content_type, body)}
        with lock:
            with open(log_path, "a") as f:
                f.write(json.dumps(entry) + "\n")
        if answer == "hang":
            time.sleep(60)
            return
        status = answer["status"] if isinstance(answer, dict) else answer
        reply = b'{"status": 1}'
        self.send_response(status)
        if isinstance(answer, dict) and "retry_after" in answer:
            self.send_header("Retry-After", answer["retry_after"])
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)


stand_in.serve(Handler, port_path, int(os.environ.get("POSTHOG_PORT", "0")))
