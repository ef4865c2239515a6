"""An HTTP server on 127.0.0.1 for the bundle cache's tests: serves ROOT, except the paths
that ROUTES (a JSON file, read on every request) makes misbehave. Writes its port to PORTFILE.

A route is an object: {"status": 304} answers that status with no body; {"forever": true}
streams zeros without a Content-Length; {"declare": N} sends Content-Length N and streams
zeros; {"trickle": S} sends a byte every S seconds. Every stream stops after "bytes" bytes
(64 MB unless given) so a test that fails still ends. {"echo": true} answers the request's
method, Content-Type and body as JSON; {"redirect": URL} answers 302 to URL; {"short": N}
declares N bytes and closes after half of them. Routes answer POST and DELETE as GET does. {"last_modified": "...", "date": "..."}
serves the file at the path with that Last-Modified and Date (the same unless given), and
answers 304 to If-Modified-Since.
Usage: test_http_server.py ROOT ROUTES PORTFILE"""
import http.server, json, os, sys, time

import stand_in

root, routes_path, port_path = sys.argv[1:4]


stand_in.stop_with_parent()


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=root, **kwargs)

    def log_message(self, *args):
        pass

    def do_GET(self):
        try:
            with open(routes_path) as f:
                route = json.load(f).get(self.path.split("?")[0])
        except (OSError, ValueError):
            route = None
        if route is None:
            return super().do_GET()
        try:
            self.misbehave(route)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_POST(self):
        self.received = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.do_GET()

    do_DELETE = do_POST

    def misbehave(self, route):
        total = route.get("bytes", 64 * 1000 * 1000)
        if "echo" in route:
            body = json.dumps({"method": self.command, "content_type": self.headers.get("Content-Type"),
                               "body": getattr(self, "received", b"").decode()}).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if "redirect" in route:
            self.send_response(302)
            self.send_header("Location", route["redirect"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if "short" in route:
            self.send_response(200)
            self.send_header("Content-Length", str(route["short"]))
            self.end_headers()
            self.wfile.write(b"x" * (route["short"] // 2))
            self.close_connection = True
            return
        if "status" in route:
            self.send_response(route["status"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if "last_modified" in route:
            stamp = route["last_modified"]
            date = route.get("date", stamp)
            self.date_time_string = lambda *args: date
            if self.headers.get("If-Modified-Since"):
                self.send_response(304)
                self.end_headers()
                return
            with open(os.path.join(root, self.path.lstrip("/")), "rb") as f:
                body = f.read()
            self.send_response(200)
            self.send_header("Last-Modified", stamp)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200)
        if "declare" in route:
            self.send_header("Content-Length", str(route["declare"]))
        elif "trickle" in route:
            self.send_header("Content-Length", str(total))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if "trickle" in route:
            for _ in range(total):
                self.wfile.write(b"x")
                self.wfile.flush()
                time.sleep(route["trickle"])
            return
        chunk = b"\0" * 65536
        sent = 0
        while sent < total:
            self.wfile.write(chunk[: total - sent])
            sent += min(len(chunk), total - sent)


stand_in.serve(Handler, port_path)
