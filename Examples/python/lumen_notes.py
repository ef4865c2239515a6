#!/usr/bin/python3
"""Lumen Notes for GTK 4: a small notes app that sells "Pro" through `paywall serve`.

A GTK 4 process cannot load the runtime's GTK 3 host, so the app runs the runtime as a helper
process and talks to it with the `paywall_client` package (`clients/python`):

- "Go Pro" registers the gated placement `go_pro` (`register`); the paywall is parented to
  the app's window (on X11: `parent: "x11:0x..."`, the window's id from
  `GdkX11.X11Surface.get_xid`; elsewhere it is shown unparented);
- the app is its own purchase controller (`controller: "app"`): a tap on Buy opens the app's
  pretend checkout dialog (card form, Pay / Cancel), and the answer goes back when the dialog
  closes. Pay charges nothing: the pretend bank accepts any well-formed card that passes the
  Luhn check, except the decline test card 4000 0000 0000 0002;
- the status label follows `customerInfoChanged` notifications;
- "Manage subscription" opens the customer center (`presentCustomerCenter`) over the window.

Run from a checkout, after `swift build` and `scripts/venv` (which makes `.build/venv`, seeing
Debian's `python3-gi` and `gir1.2-gtk-4.0`, with `paywall_client` pip-installed into it):

    .build/venv/bin/python Examples/python/lumen_notes.py

Options: `--paywall PATH` (the `paywall` executable; default `$PAYWALL`, else `paywall` on
PATH, else this checkout's `.build/debug/paywall`), `--data-dir DIR` (its notes and the
runtime's databases; default `$XDG_DATA_HOME/lumen-notes-gtk4`), `URL` (a redeem link, as the
`.desktop` file hands it over: sent to `redeem`, the answer printed as `redeem: ...`),
`--print-widgets` (prints the centre of each button and field, in its window's coordinates,
for tests that drive the app with real input).

It prints what happens on stdout, one line each: `service: pid N` (the `paywall serve`
process), `window: x11:0x...`, `status: TEXT`, `ready` (the config's paywalls are cached: the buttons take clicks),
`event: NAME PARAMS` (each runtime event), `checkout: open PRODUCT_ID`,
`checkout: purchased|cancelled|failed`, `go_pro: run|not_run`. Ctrl+Q quits.
"""

import argparse
import datetime
import json
import os
import shutil
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

try:
    gi.require_version("GdkX11", "4.0")
    from gi.repository import GdkX11  # noqa: E402
except (ImportError, ValueError):
    GdkX11 = None  # GTK without its X11 backend: the paywall is shown unparented

from paywall_client import PaywallClient, PaywallError  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT_ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CONFIG = os.path.join(HERE, "lumen_notes_paywalls.json")
CATALOG = os.path.join(CHECKOUT_ROOT, "templates", "classic", "store.json")
DECLINED_CARD = "4000000000000002"


def say(line):
    """One line of the app's log on stdout (tests read it)."""
    print(line, flush=True)


def find_paywall(given):
    for candidate in (given, os.environ.get("PAYWALL"), shutil.which("paywall"),
                      os.path.join(CHECKOUT_ROOT, ".build", "debug", "paywall")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    sys.exit("lumen_notes: no paywall executable found: build it (swift build) or pass --paywall PATH")


def price_text(product):
    periods = {"P1W": " a week", "P1M": " a month", "P1Y": " a year"}
    text = "%s %s%s" % (product.get("currency", ""), product.get("price", ""), periods.get(product.get("period"), ""))
    if free_trial(product):
        trial = {"P1W": "1 week free", "P2W": "2 weeks free", "P1M": "1 month free"}
        return "%s, then %s" % (trial.get(product["intro_offer"].get("period"), "Free trial"), text)
    return text


def free_trial(product):
    return (product.get("intro_offer") or {}).get("mode") == "free_trial"


def luhn_ok(digits):
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def card_problem(number, expiry, cvc):
    """What is wrong with the card form, in words; None when the pretend bank takes it."""
    digits = number.replace(" ", "")
    if not digits.isdigit() or not 13 <= len(digits) <= 19 or not luhn_ok(digits):
        return "Check the card number."
    month, _, year = expiry.partition("/")
    if not (month.strip().isdigit() and year.strip().isdigit() and 1 <= int(month) <= 12):
        return "Give the expiry date as MM/YY."
    today = datetime.date.today()
    if (2000 + int(year), int(month)) < (today.year, today.month):
        return "This card has expired."
    if not (cvc.isdigit() and len(cvc) in (3, 4)):
        return "The security code is the 3 or 4 digits on the back."
    return None


def widget_centre(widget, window):
    x, y = widget.translate_coordinates(window, 0, 0)
    offset_x, offset_y = window.get_surface_transform()
    return int(offset_x + x + widget.get_width() / 2), int(offset_y + y + widget.get_height() / 2)


class CheckoutDialog(Gtk.Window):
    """The app's own checkout: the purchase controller's answer to one `purchase` request."""

    def __init__(self, app, request):
        super().__init__(title="Checkout", transient_for=app.window, modal=True, resizable=False)
        self.app = app
        self.request = request
        product = request.product or {}
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin_top=18, margin_bottom=18,
                      margin_start=18, margin_end=18)
        title = Gtk.Label(xalign=0)
        title.set_markup("<b>%s</b>" % GLib.markup_escape_text(product.get("display_name", product.get("id", ""))))
        box.append(title)
        box.append(Gtk.Label(label=price_text(product), xalign=0))
        grid = Gtk.Grid(row_spacing=8, column_spacing=12)
        self.card = Gtk.Entry(placeholder_text="1234 5678 9012 3456", input_purpose=Gtk.InputPurpose.DIGITS,
                              max_length=23, width_chars=22, activates_default=True)
        self.expiry = Gtk.Entry(placeholder_text="MM/YY", max_length=5, width_chars=6, activates_default=True)
        self.cvc = Gtk.Entry(placeholder_text="123", input_purpose=Gtk.InputPurpose.PIN, max_length=4, width_chars=5,
                             visibility=False, activates_default=True)
        for row, (label, entry) in enumerate((("Card number", self.card), ("Expiry", self.expiry), ("Security code", self.cvc))):
            grid.attach(Gtk.Label(label=label, xalign=0), 0, row, 1, 1)
            grid.attach(entry, 1, row, 1, 1)
        box.append(grid)
        self.problem = Gtk.Label(xalign=0, wrap=True)
        self.problem.add_css_class("error")
        box.append(self.problem)
        buttons = Gtk.Box(spacing=8, halign=Gtk.Align.END)
        self.cancel = Gtk.Button(label="Cancel")
        self.pay = Gtk.Button(label="Start free trial" if free_trial(product)
                              else "Pay %s %s" % (product.get("currency", ""), product.get("price", "")))
        self.pay.add_css_class("suggested-action")
        buttons.append(self.cancel)
        buttons.append(self.pay)
        box.append(buttons)
        self.set_child(box)
        self.set_default_widget(self.pay)
        self.cancel.connect("clicked", lambda _: self.finish("cancelled"))
        self.pay.connect("clicked", lambda _: self.charge())
        self.connect("close-request", self.on_close_request)
        self.connect("map", lambda _: GLib.idle_add(self.print_widgets) if app.print_widgets else None)

    def print_widgets(self):
        for name, widget in (("card", self.card), ("expiry", self.expiry), ("cvc", self.cvc), ("pay", self.pay),
                             ("cancel", self.cancel)):
            say("widget checkout.%s %d %d" % ((name,) + widget_centre(widget, self)))
        return False

    def on_close_request(self, _window):
        self.finish("cancelled", close=False)
        return False

    def charge(self):
        problem = card_problem(self.card.get_text(), self.expiry.get_text(), self.cvc.get_text().strip())
        if problem:
            self.problem.set_text(problem)
            return
        if self.card.get_text().replace(" ", "") == DECLINED_CARD:
            self.finish("failed", "Your card was declined. Try another card.")
            return
        # Charged. The app owns the status (Superwall's contract): it says what was bought,
        # then answers, so the paywall closes on a status that already grants Pro.
        entitlements = (self.request.product or {}).get("entitlements") or []
        if not entitlements:
            self.finish("purchased")
            return
        self.pay.set_sensitive(False)

        def status_set(_result, error):
            if error is not None:
                sys.stderr.write("lumen_notes: setSubscriptionStatus: %s\n" % error)
            self.finish("purchased")  # charged either way: never reported as failed

        self.app.client.request("setSubscriptionStatus", {"status": "active", "entitlements": entitlements},
                                callback=status_set)

    def finish(self, result, message=None, close=True):
        if self.request.answered or self.request.cancelled:
            return
        self.request.respond(result, message)
        say("checkout: %s" % result)
        self.app.checkout = None
        if close:
            self.close()


class LumenNotes:
    def __init__(self, application, args):
        self.application = application
        self.args = args
        self.print_widgets = args.print_widgets
        self.checkout = None
        self.parent = None
        os.makedirs(args.data_dir, exist_ok=True)
        self.notes_path = os.path.join(args.data_dir, "notes.txt")

        self.window = Gtk.ApplicationWindow(application=application, title="Lumen Notes", default_width=480,
                                            default_height=360)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=12, margin_top=18, margin_bottom=18,
                      margin_start=18, margin_end=18)
        self.status = Gtk.Label(label="Starting…", xalign=0)
        self.status.add_css_class("title-4")
        box.append(self.status)
        self.notes = Gtk.TextView(wrap_mode=Gtk.WrapMode.WORD_CHAR, left_margin=8, right_margin=8, top_margin=8)
        self.notes.get_buffer().set_text(self.read_notes())
        scroller = Gtk.ScrolledWindow(vexpand=True, child=self.notes)
        scroller.add_css_class("frame")
        box.append(scroller)
        buttons = Gtk.Box(spacing=8)
        self.go_pro = Gtk.Button(label="Go Pro", sensitive=False)
        self.go_pro.add_css_class("suggested-action")
        self.manage = Gtk.Button(label="Manage subscription", sensitive=False)
        # Go Pro last: hidden once the user is Pro, it moves no other button.
        buttons.append(self.manage)
        buttons.append(self.go_pro)
        box.append(buttons)
        self.notice = Gtk.Label(xalign=0, wrap=True)
        box.append(self.notice)
        self.window.set_child(box)
        self.go_pro.connect("clicked", lambda _: self.register_go_pro())
        self.manage.connect("clicked", lambda _: self.manage_subscription())
        self.window.connect("close-request", self.on_close_request)
        self.window.connect("map", lambda _: GLib.idle_add(self.window_mapped))
        self.window.present()

        self.client = PaywallClient([args.paywall, "serve"], deliver="glib")
        self.client.on_event = lambda event: say("event: %s %s" % (event["name"], json.dumps(event["params"], sort_keys=True)))
        self.client.on_customer_info = self.show_status
        self.client.on_purchase = self.open_checkout
        self.client.on_purchase_cancelled = self.purchase_cancelled
        self.client.on_exit = self.sidecar_exited
        say("service: pid %d" % self.client.process.pid)
        self.start_runtime()

    def read_notes(self):
        try:
            with open(self.notes_path, encoding="utf-8") as file:
                return file.read()
        except FileNotFoundError:
            return "Ideas for the weekend\n\n- Buy tomatoes\n- Call Ada about the trip\n"

    def save_notes(self):
        buffer = self.notes.get_buffer()
        with open(self.notes_path, "w", encoding="utf-8") as file:
            file.write(buffer.get_text(buffer.get_start_iter(), buffer.get_end_iter(), False))

    def window_mapped(self):
        surface = self.window.get_surface()
        if GdkX11 is not None and isinstance(surface, GdkX11.X11Surface):
            self.parent = "x11:0x%x" % surface.get_xid()
        say("window: %s" % (self.parent or "unparented"))
        if self.print_widgets:
            for name, widget in (("go_pro", self.go_pro), ("manage", self.manage)):
                say("widget %s %d %d" % ((name,) + widget_centre(widget, self.window)))
        return False

    # The runtime

    def start_runtime(self):
        """Starts the runtime, then brings the config's paywalls into the bundle cache; a
        paywall not cached yet would show the runtime's fallback paywall."""
        self.client.request("initialize", {
            "data_dir": self.args.data_dir, "config": CONFIG, "catalog": CATALOG, "controller": "app",
            "app_version": "1.0",
        }, callback=self.initialized)

    def initialized(self, info, error):
        if error is not None:
            self.status.set_text("The paywall service did not start: %s" % error.message)
            return
        self.show_status(info)
        self.client.request("cacheConfiguredPaywalls", callback=self.paywalls_cached)
        if self.args.url:
            # A link the desktop handed over (the .desktop file's %u): a license-key redeem link.
            self.client.request("redeem", {"url": self.args.url}, callback=self.redeemed)

    def redeemed(self, result, error):
        say("redeem: %s" % (json.dumps(result, sort_keys=True) if error is None else error.message))

    def paywalls_cached(self, result, error):
        for paywall in (result or {}).get("paywalls", []):
            if not paywall["cached"]:
                sys.stderr.write("lumen_notes: paywall %s not cached: %s\n" % (paywall["id"], paywall["error"]))
        if error is not None:
            sys.stderr.write("lumen_notes: cacheConfiguredPaywalls: %s\n" % error.message)
        self.go_pro.set_sensitive(True)
        self.manage.set_sensitive(True)
        say("ready")

    def show_status(self, info):
        pro = "pro" in (info.get("active_entitlements") or [])
        text = "Lumen Notes Pro: thanks for your support" if pro else "Lumen Notes Free"
        self.status.set_text(text)
        self.go_pro.set_visible(not pro)
        say("status: %s" % text)

    def sidecar_exited(self, returncode):
        self.go_pro.set_sensitive(False)
        self.manage.set_sensitive(False)
        if returncode != 0:
            self.status.set_text("The paywall service stopped (exit status %s)." % returncode)

    # Go Pro, checkout, Manage subscription

    def open_over_window(self, button, method, params, on_result=None):
        """Sends `method` (a window of the runtime's, answered when it closes) with the app's
        window as its parent; `button` waits meanwhile: without a window manager keeping the
        modal window above the app's (or unparented, on Wayland), the app still takes clicks."""
        button.set_sensitive(False)
        if self.parent:
            params["parent"] = self.parent

        def done(result, error):
            button.set_sensitive(True)
            if error is not None:
                sys.stderr.write("lumen_notes: %s: %s\n" % (method, error))
                self.notice.set_text("%s: %s" % (button.get_label(), error.message))
                return
            if result.get("parent_error"):
                sys.stderr.write("lumen_notes: shown unparented: %s\n" % result["parent_error"])
            if on_result:
                on_result(result)

        self.client.request(method, params, callback=done)

    def register_go_pro(self):
        self.open_over_window(self.go_pro, "register", {"placement": "go_pro", "params": {"source": "button"}},
                              lambda result: say("go_pro: %s" % result["feature"]))

    def open_checkout(self, request):
        say("checkout: open %s" % (request.product or {}).get("id"))
        self.checkout = CheckoutDialog(self, request)
        self.checkout.present()

    def purchase_cancelled(self, request):
        # The paywall closed while the checkout was open: the purchase is over.
        if self.checkout is not None and self.checkout.request is request:
            self.checkout.close()
            self.checkout = None
            say("checkout: given up")

    def manage_subscription(self):
        self.open_over_window(self.manage, "presentCustomerCenter", {})

    def on_close_request(self, _window):
        self.save_notes()
        if self.checkout is not None:
            self.checkout.finish("cancelled")
        self.window.set_visible(False)
        # Closing stdin shuts the runtime down cleanly: a purchase in progress settles first.
        self.client.close()
        return False


def main():
    parser = argparse.ArgumentParser(description="Lumen Notes: a GTK 4 app that sells Pro through paywall serve.")
    parser.add_argument("--paywall", help="the paywall executable (default: $PAYWALL, paywall on PATH, or the checkout's build)")
    parser.add_argument("--data-dir", help="notes and the runtime's databases (default: $XDG_DATA_HOME/lumen-notes-gtk4)")
    parser.add_argument("url", nargs="?",
                        help="a redeem link (lumennotes://paywall/redeem?license_key=KEY), as the desktop hands it over")
    parser.add_argument("--print-widgets", action="store_true",
                        help="print each button's and field's centre in its window (for tests driving it with real input)")
    args = parser.parse_args()
    args.paywall = find_paywall(args.paywall)
    data_home = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    args.data_dir = os.path.abspath(args.data_dir or os.path.join(data_home, "lumen-notes-gtk4"))

    application = Gtk.Application(application_id="com.example.LumenNotesGtk4", flags=Gio.ApplicationFlags.NON_UNIQUE)
    state = {}

    def activate(app):
        notes = state.setdefault("notes", LumenNotes(app, args))
        quit_action = Gio.SimpleAction(name="quit")
        quit_action.connect("activate", lambda *_: notes.window.close())
        app.add_action(quit_action)
        app.set_accels_for_action("app.quit", ["<Control>q"])

    application.connect("activate", activate)
    return application.run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
