"""A stand-in for Gumroad's license API on 127.0.0.1, for the Gumroad license tests. It follows
the API reference (https://gumroad.com/api, "Licenses": POST /v2/licenses/verify with
product_id, license_key, increment_uses_count; no access token), the help article "License
keys" (https://help.gumroad.com/article/76-license-keys: product_id, not product_permalink, for
products made since 9 January 2023; refunded/chargebacked; subscription_ended_at /
subscription_cancelled_at / subscription_failed_at) and the answers of Gumroad's own licenses
controller (github.com/antiwork/gumroad, Api::V2::LicensesController#verify): 404 with
{"success": false, "message": ...} for a key the product does not have, a disabled key and a
purchase whose access was revoked, with no use counted; 200 with {"success": true, "uses",
"purchase"} (or "imported_customer" for an imported key) otherwise, a use counted unless
increment_uses_count is "false".

It CHECKS every request: one that is not a POST to /v2/licenses/verify with an
application/x-www-form-urlencoded body of exactly product_id, license_key and
increment_uses_count ("true" or "false"), or that carries product_permalink, an access token
or an Authorization header, is answered 418 and logged as a violation, which the tests fail on.

CONTROL (a JSON file, read on every request) scripts it:
  {"licenses": {"KEY": {"product_id": "P1", "uses": 0, "revision": 0,
                        "disabled": false, "access_revoked": false, "refunded": false,
                        "chargebacked": false, "disputed": false, "dispute_won": false,
                        "subscription": false, "subscription_ended_at": null,
                        "subscription_cancelled_at": null, "subscription_failed_at": null,
                        "imported": false}},
   "script": [{"status": 429, "headers": {"Retry-After": "2"}}, {"status": 200, "raw": "not json"}]}
A license is copied into the server's state when first seen, and again when its "revision"
grows (to refund or disable it); "uses" then counts on the server. The "script" entries answer
the next requests, in order, before the contract does. Every request is appended to LOG as a
JSON line with the uses the license had after it.
Usage: gumroad_server.py CONTROL LOG PORTFILE"""
import json, sys, threading, urllib.parse

import stand_in

control_path, log_path, port_path = sys.argv[1:4]
licenses = {}    # key -> its state
consumed = {}    # "verify" -> script entries used
lock = threading.Lock()
STAMP = "2021-01-05T19:38:56Z"
FIELDS = {"product_id", "license_key", "increment_uses_count"}
UNKNOWN = "That license does not exist for the provided product."
DISABLED = "This license key has been disabled."
REVOKED = "Access to the purchase associated with this license has expired."


stand_in.stop_with_parent()


def purchase_json(key, state):
    purchase = {
        "seller_id": "kL0psVL2admJSYRNs-OCMg==", "product_id": state["product_id"],
        "product_name": state.get("product_name", "Lumen Pro"), "permalink": "lumen",
        "product_permalink": "https://lumen.gumroad.com/l/lumen", "short_product_id": "lumen",
        "email": "ada@example.com", "price": 4900, "gumroad_fee": 490, "currency": "usd", "quantity": 1,
        "discover_fee_charged": False, "can_contact": True, "referrer": "direct",
        "card": {"visual": None, "type": None, "bin": None, "expiry_month": None, "expiry_year": None},
        "order_number": 524459935, "sale_id": "FO8TXN-dbxYaBdahG97Y-Q==", "sale_timestamp": STAMP,
        "purchaser_id": "5550321502811", "variants": "", "license_key": key, "ip_country": "United States",
        "is_gift_receiver_purchase": False, "refunded": state.get("refunded", False),
        "disputed": state.get("disputed", False), "dispute_won": state.get("dispute_won", False),
        "id": "FO8TXN-dvaYbBbahG97a-Q==", "created_at": STAMP, "custom_fields": [],
    }
    if state.get("subscription"):
        # A membership's answer has the subscription's dates, not "chargebacked".
        purchase.update({"subscription_id": "GDzW4_aBdQc-o7Gbjng7lw==", "is_multiseat_license": False,
                         "recurrence": "monthly"})
        for name in ("subscription_ended_at", "subscription_cancelled_at", "subscription_failed_at"):
            purchase[name] = state.get(name)
    else:
        purchase["chargebacked"] = state.get("chargebacked", False)
    return purchase


class Handler(stand_in.JSONHandler):
    def do_GET(self):
        self.check_and_answer("GET", None)

    def do_PUT(self):
        self.check_and_answer("PUT", None)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.check_and_answer("POST", self.rfile.read(length).decode("utf-8", "replace"))

    def check_and_answer(self, method, text):
        path = self.path.split("?")[0]
        form = {}
        problems = []
        if method != "POST":
            problems.append("method %s, not POST" % method)
        if path != "/v2/licenses/verify":
            problems.append("unknown path %s" % path)
        if "?" in self.path:
            problems.append("a query string; the fields go in the form body")
        if self.headers.get("Authorization"):
            problems.append("an Authorization header; verifying a license needs no token")
        if not (self.headers.get("Content-Type") or "").startswith("application/x-www-form-urlencoded"):
            problems.append("Content-Type is %r, not application/x-www-form-urlencoded" % self.headers.get("Content-Type"))
        if isinstance(text, str):
            try:
                pairs = urllib.parse.parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text))
                form = dict(pairs)
                if len(form) != len(pairs):
                    problems.append("a field is repeated")
            except ValueError as error:
                problems.append("the body is not form-encoded: %s" % error)
        if "product_permalink" in form:
            problems.append("product_permalink is sent; products since 2023 need product_id")
        problems += stand_in.field_problems(form, FIELDS, set())
        if form.get("increment_uses_count", "false") not in ("true", "false"):
            problems.append("increment_uses_count is %r, not true or false" % form["increment_uses_count"])
        for name in ("product_id", "license_key"):
            if name in form and not form[name]:
                problems.append("%s is empty" % name)
        with lock:
            entry = {"path": path, "method": method, "form": form, "violations": problems}
            if problems:
                self.log(entry)
                return self.answer(418, {"success": False, "message": "; ".join(problems)})
            control = stand_in.read_control(control_path)
            stand_in.refresh(licenses, control.get("licenses", {}))
            scripted = stand_in.next_scripted(control.get("script", []), consumed, "verify")
            if scripted is not None:
                self.log(entry)
                return self.answer(scripted.get("status", 200), scripted.get("json", {}), scripted.get("headers"),
                                   scripted.get("raw"))
            self.contract(form, entry)

    def log(self, entry):
        with open(log_path, "a") as log:
            log.write(json.dumps(entry) + "\n")

    def contract(self, form, entry):
        key = form["license_key"]
        state = licenses.get(key)
        if state is None or state["product_id"] != form["product_id"]:
            self.log(entry)
            return self.answer(404, {"success": False, "message": UNKNOWN})
        if state.get("access_revoked"):
            self.log(entry)
            return self.answer(404, {"success": False, "message": REVOKED})
        if state.get("disabled"):
            self.log(entry)
            return self.answer(404, {"success": False, "message": DISABLED})
        if form["increment_uses_count"] != "false":
            state["uses"] = state.get("uses", 0) + 1
        entry["uses"] = state.get("uses", 0)
        self.log(entry)
        body = {"success": True, "uses": state.get("uses", 0)}
        if state.get("imported"):
            body["imported_customer"] = {"email": "ada@example.com", "created_at": STAMP, "timestamp": "3 days ago",
                                         "link_name": "Lumen Pro", "product_name": "Lumen Pro", "price": None,
                                         "is_imported_customer": True, "purchase_email": "ada@example.com",
                                         "id": "bW9kZWwtaWQ=", "can_update": None}
        else:
            body["purchase"] = purchase_json(key, state)
        return self.answer(200, body)


stand_in.serve(Handler, port_path)
