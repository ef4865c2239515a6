"""A client for `paywall serve`, the paywall runtime's JSON-RPC sidecar.

Standard library only (Python 3.9 or newer); `pip install ./clients/python` installs it. The
protocol (every method, its params and result, the notifications and error codes) is in the
"From Any Language" article of the runtime's docs (Sources/PaywallHost/Documentation.docc/FromAnyLanguage.md).

    from paywall_client import PaywallClient

    client = PaywallClient(["paywall", "serve"])   # or PaywallClient(): `paywall` on PATH
    client.on_purchase = lambda request: request.respond("purchased")   # your checkout
    client.call("initialize", {"data_dir": "/tmp/demo", "catalog": "store.json", "controller": "app"})
    client.call("preload", {"paywall": "templates/classic"})
    print(client.call("present", {"paywall": "templates/classic"}))    # {'result': 'purchased', ...}
    client.close()

Threads and callbacks
---------------------
A reader thread reads the sidecar's stdout. Responses complete `concurrent.futures.Future`s
at once (on the reader thread), so `call()` works from any thread, the GLib main thread too.
Everything else the sidecar sends is handed to the app's callbacks, delivered where
`deliver` says:

- "glib": on the GLib main loop, through `GLib.idle_add` (PyGObject); the app runs the loop
  (a GTK app always does);
- "thread": on the reader thread, as it arrives;
- "auto" (the default): "glib" when the app imported `gi.repository.GLib` before making the
  client, else "thread".

The callbacks (attributes; set them before `initialize`):

- `on_event(event)`: an `event` notification: `{"name", "params", "timestamp"}`, as in the
  event log;
- `on_customer_info(info)`: a `customerInfoChanged` notification: the object `getCustomerInfo`
  returns (`paywall status --json`);
- `on_purchase(request)`: with `controller: "app"`, the sidecar asks the app to buy
  `request.product` (the object `paywall store products --json` prints) for
  `request.paywall_id`. Answer with `request.respond(result, message=None)`, now or whenever
  the app's checkout finishes (minutes later is fine): `result` is "purchased", "cancelled",
  "pending" or "failed". Unanswered within `purchase_timeout_s`, the sidecar ends the purchase
  as failed; a late answer is then ignored;
- `on_restore(request)`: the same for `restorePurchases`: "restored" or "failed";
- `on_purchase_cancelled(request)`: the paywall closed while `request` was unanswered
  (`purchaseCancelled`); `request.cancelled` is then True. The app should end its checkout;
- `on_exit(returncode)`: the sidecar process ended;
- `on_stray_response(message)`: a response to no request of this client's (an error about a
  line that could not be read has `"id": null`), as the whole message.

An app-side request without a callback is answered "failed" at once.

Calls
-----
- `request(method, params=None, callback=None) -> Future`: sends a request; the future's
  result is the response's `result`, or it raises `PaywallError` (`.code`, `.message`,
  `.data`). `callback(result, error)` is also delivered as above when given. `present`,
  `register` and `presentCustomerCenter` answer when the window closes: use `request`
  with a callback (or a future) for those in a GUI app.
- `call(method, params=None, timeout=None)`: `request(...).result(timeout)`.
  `initialize` is refused with `PaywallError` (code -32099) when the sidecar's
  `protocol_version` is higher than `PROTOCOL_VERSION`, the one this client speaks: upgrade
  the client then (the sidecar was shut down).
- `notify(method, params=None)`: a notification (no answer).
- `send_line(text)`: writes raw text plus a newline (tests of bad input).
- `close(timeout=30) -> int`: closes the sidecar's stdin, which shuts it down cleanly (a
  purchase in progress settles first), and waits for it to exit; returns its exit status.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import json
import subprocess
import sys
import threading
from typing import IO, Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

__all__ = ["PaywallClient", "PaywallError", "AppRequest", "PROTOCOL_VERSION"]

#: The sidecar protocol's version this client speaks (`initialize` answers the sidecar's).
PROTOCOL_VERSION = 1

#: The error code of an `initialize` refused because the sidecar speaks a newer protocol.
NEWER_PROTOCOL = -32099

JSONObject = Dict[str, Any]
Callback = Callable[[Any, Optional["PaywallError"]], None]


class PaywallError(Exception):
    """An error response: `code` (JSON-RPC's), `message`, and `data` (for -32602, `data["field"]`)."""

    def __init__(self, code: Optional[int], message: Optional[str], data: Any = None) -> None:
        super().__init__("%s (%s)" % (message, code))
        self.code = code
        self.message = message
        self.data = data


class AppRequest:
    """A request from the sidecar to the app (`purchase`, `restorePurchases`)."""

    def __init__(self, client: PaywallClient, request_id: Any, method: str, params: Optional[JSONObject]) -> None:
        self._client = client
        self.id = request_id
        self.method = method
        self.params = params or {}
        self.cancelled = False
        self.answered = False

    @property
    def product(self) -> Optional[JSONObject]:
        """For `purchase`: the product object (`id`, `price`, `currency`, `period`, ...)."""
        return self.params.get("product")

    @property
    def paywall_id(self) -> Optional[str]:
        """For `purchase`: the paywall the purchase started from (None when none did)."""
        return self.params.get("paywall_id")

    def respond(self, result: str, message: Optional[str] = None) -> None:
        """Answers the request; only the first answer counts. Safe from any thread."""
        if self.answered:
            return
        self.answered = True
        with self._client._lock:
            self._client._app_requests.pop(self.id, None)
        answer: JSONObject = {"result": result}
        if message is not None:
            answer["message"] = message
        self._client._write({"jsonrpc": "2.0", "id": self.id, "result": answer})


class PaywallClient:
    """Spawns `paywall serve` (`command`, default `["paywall", "serve"]`: `paywall` on PATH) and talks to it."""

    def __init__(
        self,
        command: Optional[List[str]] = None,
        env: Optional[Mapping[str, str]] = None,
        deliver: str = "auto",
        stderr: Union[None, int, IO[Any]] = None,
    ) -> None:
        if deliver == "auto":
            deliver = "glib" if "gi.repository.GLib" in sys.modules else "thread"
        if deliver not in ("glib", "thread"):
            raise ValueError("deliver must be 'auto', 'glib' or 'thread'; got %r" % (deliver,))
        self.deliver = deliver
        self.on_event: Optional[Callable[[JSONObject], None]] = None
        self.on_customer_info: Optional[Callable[[JSONObject], None]] = None
        self.on_purchase: Optional[Callable[[AppRequest], None]] = None
        self.on_restore: Optional[Callable[[AppRequest], None]] = None
        self.on_purchase_cancelled: Optional[Callable[[AppRequest], None]] = None
        self.on_exit: Optional[Callable[[int], None]] = None
        self.on_stray_response: Optional[Callable[[JSONObject], None]] = None
        self._ids = itertools.count(1)
        self._pending: Dict[int, Tuple[str, "concurrent.futures.Future[Any]", Optional[Callback]]] = {}
        self._app_requests: Dict[Any, AppRequest] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self.process = subprocess.Popen(
            command or ["paywall", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=stderr, env=env, bufsize=0)
        self._reader = threading.Thread(target=self._read, name="paywall-client-reader", daemon=True)
        self._reader.start()

    # Sending

    def request(
        self, method: str, params: Optional[JSONObject] = None, callback: Optional[Callback] = None
    ) -> "concurrent.futures.Future[Any]":
        future: "concurrent.futures.Future[Any]" = concurrent.futures.Future()
        request_id = next(self._ids)
        with self._lock:
            self._pending[request_id] = (method, future, callback)
        message: JSONObject = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        try:
            self._write(message)
        except OSError as error:
            with self._lock:
                self._pending.pop(request_id, None)
            future.set_exception(PaywallError(-32603, "the sidecar is not running: %s" % error))
        return future

    def call(self, method: str, params: Optional[JSONObject] = None, timeout: Optional[float] = None) -> Any:
        return self.request(method, params).result(timeout)

    def notify(self, method: str, params: Optional[JSONObject] = None) -> None:
        message: JSONObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._write(message)

    def send_line(self, text: Union[str, bytes]) -> None:
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        assert self.process.stdin is not None
        with self._write_lock:
            self.process.stdin.write(data + b"\n")

    def _write(self, message: JSONObject) -> None:
        self.send_line(json.dumps(message, separators=(",", ":")))

    def close(self, timeout: Optional[float] = 30) -> int:
        try:
            assert self.process.stdin is not None
            self.process.stdin.close()
        except OSError:
            pass
        try:
            return self.process.wait(timeout)
        finally:
            self._reader.join(5)

    # Receiving

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            try:
                message = json.loads(raw.decode("utf-8"))
            except ValueError:
                sys.stderr.write("paywall_client: not JSON from the sidecar: %r\n" % raw[:200])
                continue
            if not isinstance(message, dict):
                continue
            if "method" in message:
                self._incoming(message)
            else:
                self._response(message)
        returncode = self.process.wait()
        with self._lock:
            pending, self._pending = self._pending, {}
        for _, future, callback in pending.values():
            error = PaywallError(-32603, "the sidecar exited (status %s) before answering" % returncode)
            future.set_exception(error)
            if callback:
                self._deliver(callback, None, error)
        if self.on_exit:
            self._deliver(self.on_exit, returncode)

    def _response(self, message: JSONObject) -> None:
        with self._lock:
            entry = self._pending.pop(message.get("id"), None)  # type: ignore[arg-type]
        if entry is None:
            if self.on_stray_response:
                self._deliver(self.on_stray_response, message)
            return
        method, future, callback = entry
        error = message.get("error")
        if error is None and method == "initialize":
            error = self._protocol_check(message.get("result"))
        if error is not None:
            failure = PaywallError(error.get("code"), error.get("message"), error.get("data"))
            future.set_exception(failure)
            if callback:
                self._deliver(callback, None, failure)
        else:
            future.set_result(message.get("result"))
            if callback:
                self._deliver(callback, message.get("result"), None)

    def _protocol_check(self, result: Any) -> Optional[JSONObject]:
        """An error when the sidecar speaks a newer protocol than this client (it is then shut down)."""
        version = result.get("protocol_version") if isinstance(result, dict) else None
        if not isinstance(version, int) or version <= PROTOCOL_VERSION:
            return None
        threading.Thread(target=self.close, daemon=True).start()
        return {
            "code": NEWER_PROTOCOL,
            "message": "paywall serve speaks protocol %d (runtime %s); this paywall_client speaks %d: "
            "upgrade paywall_client to the runtime's version" % (version, result.get("runtime_version"), PROTOCOL_VERSION),
            "data": {"protocol_version": version, "client_protocol_version": PROTOCOL_VERSION},
        }

    def _incoming(self, message: JSONObject) -> None:
        method = message["method"]
        params = message.get("params") or {}
        if "id" not in message:
            if method == "event" and self.on_event:
                self._deliver(self.on_event, params)
            elif method == "customerInfoChanged" and self.on_customer_info:
                self._deliver(self.on_customer_info, params)
            elif method == "purchaseCancelled":
                with self._lock:
                    request = self._app_requests.pop(params.get("id"), None)
                if request is not None:
                    request.cancelled = True
                    if self.on_purchase_cancelled:
                        self._deliver(self.on_purchase_cancelled, request)
            return
        request = AppRequest(self, message["id"], method, params)
        handlers = {"purchase": self.on_purchase, "restorePurchases": self.on_restore}
        handler = handlers.get(method)
        if handler is None:
            if method in ("purchase", "restorePurchases"):
                request.respond("failed", "the app has no handler for %s" % method)
            else:
                self._write({"jsonrpc": "2.0", "id": message["id"],
                             "error": {"code": -32601, "message": "the app has no method %s" % method}})
            return
        with self._lock:
            self._app_requests[request.id] = request
        self._deliver(handler, request)

    def _deliver(self, function: Callable[..., None], *arguments: Any) -> None:
        if self.deliver == "glib":
            from gi.repository import GLib

            def once() -> bool:
                function(*arguments)
                return False

            GLib.idle_add(once)
        else:
            function(*arguments)
