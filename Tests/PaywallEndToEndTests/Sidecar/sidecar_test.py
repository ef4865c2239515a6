#!/usr/bin/python3
"""Drives `paywall serve` through the Python client (clients/python), as an app in Python would.

Run by SidecarTests (Debian's /usr/bin/python3): --scenario protocol | parent | shutdown.
Prints "sidecar_test SCENARIO: ok" when every check passed; exits 1 with the failed check.
"""

import argparse
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "clients", "python", "src"))
from paywall_client import PaywallClient, PaywallError  # noqa: E402

WAIT = 30  # seconds any one expected message may take


def check(condition, what):
    if not condition:
        raise AssertionError(what)


class Harness:
    """A sidecar plus queues of what it sent, for scenarios to wait on."""

    def __init__(self, paywall, work):
        self.work = work
        self.events = []
        self.infos = queue.Queue()
        self.strays = queue.Queue()
        self.purchases = queue.Queue()
        self.cancelled = queue.Queue()
        self.lock = threading.Lock()
        self.answer = "purchased"
        env = dict(os.environ, G_DEBUG="fatal-criticals", XDG_DATA_HOME=os.path.join(work, "xdg"))
        self.stderr = open(os.path.join(work, "serve-stderr.txt"), "wb")
        self.client = PaywallClient([paywall, "serve"], env=env, deliver="thread", stderr=self.stderr)
        self.client.on_event = self._event
        self.client.on_customer_info = self.infos.put
        self.client.on_stray_response = self.strays.put
        self.client.on_purchase = self._purchase
        self.client.on_purchase_cancelled = self.cancelled.put

    def _event(self, event):
        with self.lock:
            self.events.append(event)

    def _purchase(self, request):
        self.purchases.put(request)
        if self.answer == "purchased":
            # The app's checkout charged: the app owns the status, then answers.
            self.client.request("setSubscriptionStatus", {"status": "active", "entitlements": ["pro"]})
            request.respond("purchased")
        elif self.answer == "cancelled":
            request.respond("cancelled")
        # "never": the request is left unanswered.

    def names(self):
        with self.lock:
            return [e["name"] for e in self.events]

    def wait_event(self, name, after=0, **params):
        deadline = time.time() + WAIT
        while time.time() < deadline:
            with self.lock:
                for event in self.events[after:]:
                    if event["name"] == name and all(event["params"].get(k) == v for k, v in params.items()):
                        return event
            time.sleep(0.02)
        raise AssertionError("no %s event %s; events: %s" % (name, params, self.names()[after:]))

    def mark(self):
        with self.lock:
            return len(self.events)

    def still_answers(self, after):
        info = self.client.call("getCustomerInfo", timeout=WAIT)
        check("subscription_status" in info, "getCustomerInfo after %s: %r" % (after, info))

    def stray(self):
        return self.strays.get(timeout=WAIT)

    def bad_line(self, line, code, what, field=None, answered_id=None):
        self.client.send_line(line)
        message = self.stray()
        error = message.get("error") or {}
        check(error.get("code") == code, "%s: expected error %s, got %r" % (what, code, message))
        check(message.get("id") == answered_id, "%s: expected id %r, got %r" % (what, answered_id, message))
        check(isinstance(error.get("message"), str) and len(error["message"]) > 10, "%s: no message: %r" % (what, message))
        if field is not None:
            check((error.get("data") or {}).get("field") == field, "%s: expected data.field %s, got %r" % (what, field, message))
        self.still_answers(what)


def bundle(work, name, script=""):
    folder = os.path.join(work, name)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "index.html"), "w") as f:
        f.write('<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{background:#2a6;color:#fff;'
                'font:32px sans-serif}</style></head><body><h1>%s</h1><script>%s</script></body></html>' % (name, script))
    return folder


def buying_bundle(work):
    # Buys as soon as it is loaded: what a user's tap on Buy would send.
    return bundle(work, "buying", "window.addEventListener('load', () => Paywall.purchase('lumen.pro.yearly'))")


def expect_error(future, code, what, field=None):
    try:
        result = future.result(WAIT)
    except PaywallError as error:
        check(error.code == code, "%s: expected %s, got %s %s" % (what, code, error.code, error.message))
        if field is not None:
            check((error.data or {}).get("field") == field, "%s: expected field %s, got %r" % (what, field, error.data))
        return error
    raise AssertionError("%s: expected error %s, got result %r" % (what, code, result))


def scenario_protocol(args):
    h = Harness(args.paywall, args.work)
    c = h.client
    expect_error(c.request("getCustomerInfo"), -32001, "before initialize")
    expect_error(c.request("initialize", {"catalog": args.catalog, "controller": "shop"}), -32602, "bad controller", "controller")
    expect_error(c.request("initialize", {"data_dir": 3}), -32602, "bad data_dir", "data_dir")
    info = c.call("initialize", {"data_dir": os.path.join(args.work, "data"), "catalog": args.catalog, "controller": "app",
                                 "purchase_timeout_s": 2, "app_version": "1.0"}, timeout=WAIT)
    check(info["subscription_status"] in ("unknown", "inactive") and info["user_id"] == "$anonymous", "initialize: %r" % info)
    # Beside the customer info, what a client checks it can speak to: the runtime's version
    # (as `paywall --version` prints it) and the protocol's.
    version = subprocess.run([args.paywall, "--version"], capture_output=True, text=True, check=True).stdout
    check(version == "paywall %s\n" % info["runtime_version"], "runtime_version %r, --version %r" % (info, version))
    check(info["protocol_version"] == 1, "protocol_version: %r" % info)
    expect_error(c.request("initialize", {}), -32000, "second initialize")

    # Preload, then present from memory.
    plain = bundle(args.work, "plain")
    check(c.call("preload", {"paywall": plain}, timeout=WAIT) == {"paywall": plain, "preloaded": True}, "preload")
    check("paywallPreload_complete" in h.names(), "preload reported: %s" % h.names())
    mark = h.mark()
    shown = c.request("present", {"paywall": plain})
    h.wait_event("paywall_open", after=mark)
    check(c.call("dismiss", timeout=WAIT) == {"dismissed": 1}, "dismiss")
    check(shown.result(WAIT) == {"result": "declined"}, "present after dismiss: %r" % shown.result(0))
    check(c.call("dismiss", timeout=WAIT) == {"dismissed": 0}, "dismiss with nothing on screen")
    expect_error(c.request("present", {"paywall": "no-such-paywall"}), -32000, "unknown paywall")

    # A slot whose product the catalog lacks: the fallback paywall is shown and the result says why.
    missing = bundle(args.work, "missing")
    with open(os.path.join(missing, "manifest.json"), "w") as f:
        json.dump({"products": {"primary": "lumen.pro.yearly", "secondary": "no.such.product"}}, f)
    mark = h.mark()
    shown = c.request("present", {"paywall": missing})
    h.wait_event("paywall_open", after=mark)
    c.call("dismiss", timeout=WAIT)
    check(shown.result(WAIT) == {"result": "declined", "problem": {"kind": "missing_products", "slots": [
        {"slot": "secondary", "product_id": "no.such.product", "reason": "not_in_catalog"}]}},
        "present with a missing product: %r" % shown.result(0))
    # The app drops that slot (null, as in a config entry's products): the page itself, no problem.
    mark = h.mark()
    shown = c.request("present", {"paywall": missing, "products": {"secondary": None}})
    h.wait_event("paywall_open", after=mark)
    check("paywall_fallback" not in h.names()[mark:], "a dropped slot showed the fallback: %s" % h.names()[mark:])
    c.call("dismiss", timeout=WAIT)
    check(shown.result(WAIT) == {"result": "declined"}, "present with the slot dropped: %r" % shown.result(0))
    expect_error(c.request("present", {"paywall": missing, "products": {"secondary": 3}}), -32602, "products of numbers",
                 field="products")

    # A preload that ends before its page is ready is answered too: replaced by a preload of
    # the same name, or presented meanwhile.
    replaced = c.request("preload", {"paywall": plain})
    again = c.request("preload", {"paywall": plain})
    check("replaced" in expect_error(replaced, -32000, "a replaced preload").message, "replaced preload's message")
    check(again.result(WAIT) == {"paywall": plain, "preloaded": True}, "the preload that replaced it: %r" % again.result(0))
    early = c.request("preload", {"paywall": bundle(args.work, "early")})
    mark = h.mark()
    shown = c.request("present", {"paywall": os.path.join(args.work, "early")})
    check("presented before" in expect_error(early, -32000, "a preload presented before it loaded").message, "early message")
    h.wait_event("paywall_open", after=mark)
    c.call("dismiss", timeout=WAIT)
    check(shown.result(WAIT) == {"result": "declined"}, "present of a preload still loading: %r" % shown.result(0))
    h.still_answers("preloads ended early")

    # The app's checkout cancels: the paywall stays open.
    buying = buying_bundle(args.work)
    h.answer = "cancelled"
    mark = h.mark()
    shown = c.request("present", {"paywall": buying})
    request = h.purchases.get(timeout=WAIT)
    check(request.product["id"] == "lumen.pro.yearly" and request.product["price"] == "39.99", "product: %r" % request.product)
    check(request.paywall_id == "buying", "paywall_id: %r" % request.paywall_id)
    h.wait_event("transaction_abandon", after=mark)
    c.call("dismiss", timeout=WAIT)
    check(shown.result(WAIT) == {"result": "declined"}, "present after a cancelled purchase: %r" % shown.result(0))

    # Never answered: the timeout fails it.
    h.answer = "never"
    mark = h.mark()
    shown = c.request("present", {"paywall": buying})
    late = h.purchases.get(timeout=WAIT)
    fail = h.wait_event("transaction_fail", after=mark)
    check("purchase_timeout_s" in fail["params"].get("message", ""), "timeout message: %r" % fail)
    late.respond("purchased")  # too late: ignored, and the sidecar still answers
    h.still_answers("a late answer")
    check(c.call("getCustomerInfo", timeout=WAIT)["subscription_status"] != "active", "a late answer bought nothing")
    c.call("dismiss", timeout=WAIT)
    check(shown.result(WAIT) == {"result": "declined"}, "present after a timeout: %r" % shown.result(0))

    # Never answered, and the paywall closed meanwhile: purchaseCancelled.
    mark = h.mark()
    shown = c.request("present", {"paywall": buying})
    pending = h.purchases.get(timeout=WAIT)
    h.wait_event("transaction_start", after=mark)
    c.call("dismiss", timeout=WAIT)
    cancelled = h.cancelled.get(timeout=WAIT)
    check(cancelled is pending and pending.cancelled, "purchaseCancelled names the request")
    h.wait_event("transaction_abandon", after=mark)
    check(shown.result(WAIT) == {"result": "declined"}, "present closed during a purchase: %r" % shown.result(0))

    # Purchased: the customer info follows.
    h.answer = "purchased"
    mark = h.mark()
    shown = c.request("present", {"paywall": buying})
    result = shown.result(WAIT)
    check(result == {"result": "purchased", "product_id": "lumen.pro.yearly"}, "purchased: %r" % result)
    h.wait_event("transaction_complete", after=mark)
    deadline = time.time() + WAIT
    info = None
    while time.time() < deadline:
        info = h.infos.get(timeout=WAIT)
        if info["subscription_status"] == "active":
            break
    check(info["active_entitlements"] == ["pro"], "customerInfoChanged: %r" % info)
    check(c.call("getCustomerInfo", timeout=WAIT)["active_entitlements"] == ["pro"], "getCustomerInfo after the purchase")
    skipped = c.call("present", {"paywall": plain}, timeout=WAIT)
    check(skipped == {"result": "skipped", "reason": "subscribed"}, "a subscriber is not shown it: %r" % skipped)

    # Other methods.
    check(c.call("setUserAttributes", {"attributes": {"name": "Ada"}}, timeout=WAIT) == {}, "setUserAttributes")
    expect_error(c.request("setUserAttributes", {"attributes": [1]}), -32602, "attributes not an object", "attributes")
    expect_error(c.request("setSubscriptionStatus", {"status": "active"}), -32602, "active without entitlements", "entitlements")
    check(c.call("identify", {"user_id": "ada"}, timeout=WAIT)["user_id"] == "ada", "identify")
    check(c.call("reset", timeout=WAIT)["user_id"] == "$anonymous", "reset")
    placement = c.call("register", {"placement": "export"}, timeout=WAIT)
    check(placement["feature"] == "not_run" and placement["reason"] == "placementNotFound" and placement["presentation"] is None,
          "register without a config: %r" % placement)

    # Bad input: each answered, and the sidecar keeps serving.
    h.bad_line("{", -32700, "not JSON")
    h.bad_line(b"\xff\xfe", -32700, "not UTF-8")
    h.bad_line("[]", -32600, "a batch")
    h.bad_line('"request"', -32600, "not an object")
    h.bad_line('{"id":"a1","method":"getCustomerInfo"}', -32600, "no jsonrpc", answered_id="a1")
    h.bad_line('{"jsonrpc":"2.0","id":"a2"}', -32600, "no method", answered_id="a2")
    h.bad_line('{"jsonrpc":"2.0","id":true,"method":"getCustomerInfo"}', -32600, "a boolean id")
    h.bad_line('{"jsonrpc":"2.0","id":"a3","method":"exportEverything"}', -32601, "unknown method", answered_id="a3")
    h.bad_line('{"jsonrpc":"2.0","id":"a4","method":"identify","params":{"user_id":3}}', -32602, "bad param", "user_id", "a4")
    h.bad_line('{"jsonrpc":"2.0","id":"a5","method":"identify","params":{"user":"x"}}', -32602, "unknown param", "user", "a5")
    h.bad_line('{"jsonrpc":"2.0","id":"a6","method":"present","params":{"paywall":"x","parent":"x11:zz"}}', -32602,
               "bad parent", "parent", "a6")
    h.bad_line('{"jsonrpc":"2.0","id":"a7","method":"identify","params":[1]}', -32602, "positional params", "params", "a7")
    h.bad_line(b'{"jsonrpc":"2.0","id":"big","method":"identify","params":{"user_id":"' + b"x" * (3 << 20) + b'"}}',
               -32600, "a line over 1 MiB")
    # An id reused while its request is pending.
    c.call("setSubscriptionStatus", {"status": "inactive"}, timeout=WAIT)
    mark = h.mark()
    c.send_line('{"jsonrpc":"2.0","id":"dup","method":"present","params":{"paywall":"%s"}}' % plain)
    h.wait_event("paywall_open", after=mark)
    h.bad_line('{"jsonrpc":"2.0","id":"dup","method":"getCustomerInfo"}', -32600, "an id reused while pending", answered_id="dup")
    c.call("dismiss", timeout=WAIT)
    closed = h.stray()
    check(closed.get("id") == "dup" and closed.get("result") == {"result": "declined"}, "the first dup answered: %r" % closed)
    # An answer to no request of the sidecar's.
    c.send_line('{"jsonrpc":"2.0","id":"paywall-999","result":{"result":"purchased"}}')
    h.still_answers("an answer to nothing")
    # A notification gets no answer but runs.
    c.notify("setUserAttributes", {"attributes": {"plan": "pro"}})
    h.still_answers("a notification")
    check(h.strays.empty(), "nothing answered a notification: %r" % (None if h.strays.empty() else h.strays.get()))

    check(c.call("shutdown", timeout=WAIT) == {}, "shutdown")
    code = c.process.wait(WAIT)
    check(code == 0, "exit status after shutdown: %s" % code)


def x11_window(title, at=None):
    """A real GTK 3 window of this process, mapped (at `at`, a top-left corner, when given);
    returns (window, its X11 id)."""
    import gi
    gi.require_version("Gtk", "3.0")
    gi.require_version("GdkX11", "3.0")
    from gi.repository import GdkX11, Gtk  # noqa: F401

    window = Gtk.Window(title=title)
    window.set_default_size(640, 480)
    if at:
        window.move(*at)
    window.add(Gtk.Label(label="the app's window"))
    window.show_all()
    pump(0.3)
    return window, window.get_window().get_xid()


def pump(seconds):
    from gi.repository import GLib
    context = GLib.MainContext.default()
    deadline = time.time() + seconds
    while time.time() < deadline:
        while context.pending():
            context.iteration(False)
        time.sleep(0.01)


def sidecar_windows(pid):
    out = subprocess.run(["xdotool", "search", "--all", "--onlyvisible", "--pid", str(pid), "--name", ".*"],
                         capture_output=True, text=True).stdout
    return [int(w) for w in out.split()]


def transient_for(window):
    out = subprocess.run(["xprop", "-id", str(window), "WM_TRANSIENT_FOR"], capture_output=True, text=True).stdout
    # WM_TRANSIENT_FOR(WINDOW): window id # 0x1a00003
    return int(out.split("#")[1].strip(), 16) if "#" in out else None


def geometry(window):
    """(x, y, width, height) of an X11 window on the screen, from xwininfo."""
    out = subprocess.run(["xwininfo", "-id", str(window)], capture_output=True, text=True).stdout
    value = lambda label: int(out.split(label)[1].split()[0])  # noqa: E731
    return (value("Absolute upper-left X:"), value("Absolute upper-left Y:"), value("Width:"), value("Height:"))


def check_centred(window, parent_xid, what):
    """The window sits centred on its parent (on its top edge when taller), not on the screen."""
    x, y, width, height = geometry(window)
    px, py, pwidth, pheight = geometry(parent_xid)
    check(abs((x + width // 2) - (px + pwidth // 2)) <= 1 and y == py + max(0, (pheight - height) // 2),
          "%s: the window at %r is not centred on its parent at %r" % (what, (x, y, width, height), (px, py, pwidth, pheight)))


def wm_state(window):
    return subprocess.run(["xprop", "-id", str(window), "_NET_WM_STATE"], capture_output=True, text=True).stdout


def shown_window(h, pid, mark):
    h.wait_event("paywall_open", after=mark)
    deadline = time.time() + WAIT
    while time.time() < deadline:
        windows = sidecar_windows(pid)
        if windows:
            return windows[0]
        time.sleep(0.05)
    raise AssertionError("no visible window of the sidecar")


def screenshot(path):
    subprocess.run(["import", "-window", "root", path], check=True)


def scenario_parent(args):
    # Away from the screen's centre, so a sheet centred on the screen is not also centred on it.
    parent, xid = x11_window("The App", at=(40, 60))
    h = Harness(args.paywall, args.work)
    c = h.client
    c.call("initialize", {"data_dir": os.path.join(args.work, "data")}, timeout=WAIT)
    pid = c.process.pid
    plain = bundle(args.work, "plain")

    # A cold present and a preloaded one, each over the app's window.
    for preloaded in (False, True):
        if preloaded:
            c.call("preload", {"paywall": plain}, timeout=WAIT)
        mark = h.mark()
        shown = c.request("present", {"paywall": plain, "parent": "x11:0x%x" % xid})
        window = shown_window(h, pid, mark)
        pump(0.5)
        check(transient_for(window) == xid, "WM_TRANSIENT_FOR of %s is %r, not the parent 0x%x" % (window, transient_for(window), xid))
        check_centred(window, xid, "preloaded" if preloaded else "cold")
        if not preloaded:
            # A mapped window's state changes go through the window manager (Xvfb runs none):
            # only the cold window's state is written before it maps.
            check("_NET_WM_STATE_MODAL" in wm_state(window), "modal: %s" % wm_state(window))
        if args.screenshot and preloaded:
            screenshot(args.screenshot)
        c.call("dismiss", timeout=WAIT)
        result = shown.result(WAIT)
        check(result == {"result": "declined"}, "parented present: %r" % result)

    # The customer center over it too.
    mark = h.mark()
    center = c.request("presentCustomerCenter", {"parent": "x11:0x%x" % xid})
    h.wait_event("customerCenter_open", after=mark)
    deadline = time.time() + WAIT
    while time.time() < deadline and not sidecar_windows(pid):
        time.sleep(0.05)
    window = sidecar_windows(pid)[0]
    check(transient_for(window) == xid, "customer center's WM_TRANSIENT_FOR: %r" % transient_for(window))
    check_centred(window, xid, "customer center")
    c.call("dismiss", timeout=WAIT)
    check(center.result(WAIT) == {"result": "closed"}, "customer center: %r" % center.result(0))

    # A parent that vanished, one that never existed, one of another kind: shown unparented, said so.
    gone, gone_xid = x11_window("Gone")
    gone.destroy()
    pump(0.3)
    for text in ("x11:0x%x" % gone_xid, "x11:0x7ffffff0", "wayland:abc"):
        mark = h.mark()
        shown = c.request("present", {"paywall": plain, "parent": text})
        window = shown_window(h, pid, mark)
        check(transient_for(window) is None, "%s: WM_TRANSIENT_FOR set: %r" % (text, transient_for(window)))
        c.call("dismiss", timeout=WAIT)
        result = shown.result(WAIT)
        check(result["result"] == "declined" and "parent" in result.get("parent_error", ""), "%s: %r" % (text, result))
    expect_error(c.request("present", {"paywall": plain, "parent": "mir:1"}), -32602, "unknown parent kind", "parent")
    check(c.close() == 0, "exit status")
    parent.destroy()


def scenario_shutdown(args):
    data = os.path.join(args.work, "data")
    env = dict(os.environ, G_DEBUG="fatal-criticals")
    # The fake store takes 3 s to charge: stdin closes while it works.
    subprocess.run([args.paywall, "store", "set-outcome", "success", "--delay", "3", "--store", args.catalog,
                    "--data-dir", data], check=True, env=env, capture_output=True)
    h = Harness(args.paywall, args.work)
    c = h.client
    c.call("initialize", {"data_dir": data, "catalog": args.catalog}, timeout=WAIT)
    mark = h.mark()
    c.request("present", {"paywall": buying_bundle(args.work)})
    h.wait_event("transaction_start", after=mark)
    code = c.close(timeout=WAIT)
    check(code == 0, "exit status when stdin closed: %s" % code)
    check("transaction_complete" in h.names(), "the purchase settled before the exit: %s" % h.names())
    status = json.loads(subprocess.run([args.paywall, "status", "--json", "--data-dir", data], check=True, env=env,
                                       capture_output=True, text=True).stdout)
    check(status["subscription_status"] == "active" and "pro" in status["active_entitlements"],
          "the committed purchase in paywall status: %r" % status)


def wayland_window(title):
    """A GTK 4 window of this process on Wayland, its surface exported through xdg-foreign (as a
    GTK 4 app hands its window to `paywall serve`); returns (window, the exported handle)."""
    import gi
    gi.require_version("Gtk", "4.0")
    gi.require_version("GdkWayland", "4.0")
    from gi.repository import GdkWayland, Gtk  # noqa: F401

    check(Gtk.init_check(), "GTK 4 cannot open the Wayland display")
    window = Gtk.Window(title=title)
    window.set_default_size(640, 480)
    window.present()
    pump(0.5)
    handles = []
    check(window.get_surface().export_handle(lambda _toplevel, handle, *_: handles.append(handle)),
          "the compositor did not take the export (no xdg-foreign)")
    deadline = time.time() + WAIT
    while not handles and time.time() < deadline:
        pump(0.05)
    check(handles, "no exported handle")
    return window, handles[0]


def sway_views():
    """{name: floating?} of every window Sway shows (swaymsg -t get_tree)."""
    tree = json.loads(subprocess.run(["swaymsg", "-t", "get_tree"], capture_output=True, text=True, check=True).stdout)
    views = {}

    def walk(node, floating):
        if node.get("type") in ("con", "floating_con") and node.get("name"):
            views[node["name"]] = floating
        for child in node.get("nodes", []):
            walk(child, floating)
        for child in node.get("floating_nodes", []):
            walk(child, True)
    walk(tree, False)
    return views


def scenario_wayland(args):
    """Under Sway: the paywall is parented on a GTK 4 window exported through xdg-foreign. The
    compositor's own protocol log (--compositor-log) shows it import the handle and set the
    parent without refusing it, and Sway floats the window above its parent (a window with a
    parent floats; one without is tiled beside the app's)."""
    parent, handle = wayland_window("The App")
    h = Harness(args.paywall, args.work)
    c = h.client
    c.call("initialize", {"data_dir": os.path.join(args.work, "data")}, timeout=WAIT)
    plain = bundle(args.work, "plain")
    for preloaded in (False, True):
        if preloaded:
            c.call("preload", {"paywall": plain}, timeout=WAIT)
        mark = h.mark()
        shown = c.request("present", {"paywall": plain, "parent": "wayland:" + handle})
        h.wait_event("paywall_open", after=mark)
        pump(0.5)
        views = sway_views()
        check(views.get("plain") is True and views.get("The App") is False, "the paywall floats over its parent: %r" % views)
        c.call("dismiss", timeout=WAIT)
        check(shown.result(WAIT) == {"result": "declined"}, "parented present: %r" % shown.result(0))
    with open(args.compositor_log) as log:
        protocol = log.read()
    # Each present imports the handle: "zxdg_importer_v1@14.import(new id zxdg_imported_v1@37, "HANDLE")",
    # then "zxdg_imported_v1@37.set_parent_of(wl_surface@34)"; a refusal would be "-> zxdg_imported_v1@37.destroyed()".
    imports = re.findall(r'\.import\(new id zxdg_imported_v1@(\d+), "%s"\)' % handle, protocol)
    check(len(imports) == 2, "the handle imported once per present: %r" % imports)
    for imported in imports:
        after = protocol.split('zxdg_imported_v1@%s, "%s")' % (imported, handle), 1)[1]
        until_destroy = after.split("zxdg_imported_v1@%s.destroy()" % imported, 1)[0]
        check("zxdg_imported_v1@%s.set_parent_of(wl_surface@" % imported in until_destroy, "the parent was not set")
        check("zxdg_imported_v1@%s.destroyed()" % imported not in until_destroy, "the compositor refused the handle")

    # A handle the compositor does not know: shown unparented, tiled beside the app's window.
    # (GTK 3 hears the compositor's refusal only after it answered: no parent_error here.)
    mark = h.mark()
    shown = c.request("present", {"paywall": plain, "parent": "wayland:0123456789abcdef"})
    h.wait_event("paywall_open", after=mark)
    pump(0.5)
    check(sway_views().get("plain") is False, "an unknown handle's paywall is tiled: %r" % sway_views())
    c.call("dismiss", timeout=WAIT)
    shown.result(WAIT)

    # An X11 id on Wayland: shown unparented, said so.
    mark = h.mark()
    shown = c.request("present", {"paywall": plain, "parent": "x11:0x1234"})
    h.wait_event("paywall_open", after=mark)
    c.call("dismiss", timeout=WAIT)
    result = shown.result(WAIT)
    check("not X11" in result.get("parent_error", ""), "an X11 parent on Wayland: %r" % result)
    check(c.close() == 0, "exit status")
    parent.destroy()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--paywall", required=True)
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--scenario", required=True, choices=["protocol", "parent", "shutdown", "wayland"])
    parser.add_argument("--screenshot")
    parser.add_argument("--compositor-log")
    args = parser.parse_args()
    {"protocol": scenario_protocol, "parent": scenario_parent, "shutdown": scenario_shutdown,
     "wayland": scenario_wayland}[args.scenario](args)
    print("sidecar_test %s: ok" % args.scenario)


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print("sidecar_test failed: %s" % failure)
        sys.exit(1)
