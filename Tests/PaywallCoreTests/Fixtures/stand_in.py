"""What the tests' HTTP stand-ins share. All of them (test_http_server.py, posthog_server.py and
the merchants' license APIs) stop with the test process and serve on 127.0.0.1 with their port
written to a file. The license API stand-ins (lemon_squeezy_server.py, polar_server.py,
keygen_server.py, gumroad_server.py) also share the control file read on every request, keys
refreshed when their "revision" grows, scripted answers replayed in order, and the
documented-fields check."""
import http.server, json, os, sys, threading, time


def stop_with_parent():
    """A test process that crashes cannot stop the server: it stops itself."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        """A client that went away mid-request (a test killing it on purpose) is no error of the
        stand-in's: nothing is printed for it."""
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            super().handle_error(request, client_address)


def serve(handler, port_path, port=0):
    """Serves `handler` on 127.0.0.1:`port` (any free one for 0) until the process ends, once
    the port is written to `port_path` (whole: a reader never sees half of it)."""
    server = _Server(("127.0.0.1", port), handler)
    with open(port_path + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(port_path + ".tmp", port_path)
    server.serve_forever()


class JSONHandler(http.server.BaseHTTPRequestHandler):
    """A request handler that logs nothing and answers JSON of `media_type` (a 204 has no body)."""
    media_type = "application/json"

    def log_message(self, *args):
        pass

    def answer(self, status, body, headers=None, raw=None):
        """Answers `status` with `body` as JSON, or `raw` text as it is (a scripted malformed answer)."""
        data = b"" if status == 204 and raw is None else raw.encode() if raw is not None else json.dumps(body).encode()
        self.send_response(status)
        if status != 204:
            self.send_header("Content-Type", self.media_type)
            self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def read_control(path):
    """The control file's object; {} while it is missing or half written."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def refresh(state, given, carried=None):
    """Copies each of GIVEN's keys into STATE when first seen or when its "revision" grew,
    keeping the server's own list CARRIED (its activations, machines) of a known key."""
    for key, fresh in given.items():
        known = state.get(key)
        if known is None or fresh.get("revision", 0) > known.get("revision", 0):
            copy = dict(fresh)
            if carried:
                copy[carried] = known[carried] if known else []
            state[key] = copy


def next_scripted(script, consumed, name):
    """The next unused entry of SCRIPT for NAME (a path or action), else None."""
    used = consumed.get(name, 0)
    if used < len(script):
        consumed[name] = used + 1
        return script[used]
    return None


def field_problems(given, required, optional):
    """What is wrong with the fields GIVEN against the documented REQUIRED and OPTIONAL ones."""
    problems = []
    missing = required - set(given)
    extra = set(given) - required - optional
    if missing:
        problems.append("missing fields %s" % sorted(missing))
    if extra:
        problems.append("undocumented fields %s" % sorted(extra))
    return problems
