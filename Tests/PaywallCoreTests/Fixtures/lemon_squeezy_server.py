"""A stand-in for Lemon Squeezy's License API on 127.0.0.1, for the license-key tests. It
implements the documented contract (POST /v1/licenses/activate, /validate, /deactivate;
form-encoded bodies; JSON answers; 400/404/422 with an "error" field) and CHECKS every request:
a request that is not a POST with "Accept: application/json" and an
application/x-www-form-urlencoded body carrying the documented fields is answered 418 and
logged as a violation, which the tests fail on.

CONTROL (a JSON file, read on every request) scripts it:
  {"keys": {"KEY": {"id": 1, "status": "active", "activation_limit": 2, "activation_usage": 0,
                     "expires_at": null, "product_id": 10, "variant_id": 11, "revision": 0}},
   "script": {"/v1/licenses/validate": [{"status": 429, "headers": {"Retry-After": "2"}},
                                       {"status": 200, "raw": "not json"}]}}
A key may also carry "store_id" (1 unless given), "valid" (what validate answers, else whether
it is active) and "activation_product_id" (the product an activation's answer names).
A key is copied into the server's state when first seen, and again when its "revision" grows
(to expire or disable it). Each path's "script" entries answer its next requests, in order,
before the contract does. Every request is appended to LOG as a JSON line.
Usage: lemon_squeezy_server.py CONTROL LOG PORTFILE"""
import json, sys, threading, urllib.parse, uuid

import stand_in

control_path, log_path, port_path = sys.argv[1:4]
keys = {}        # key -> its state, with "instances": [{id, name, created_at}]
consumed = {}    # path -> script entries used
lock = threading.Lock()
STAMP = "2024-01-24T14:15:07.000000Z"


stand_in.stop_with_parent()

REQUIRED = {
    "/v1/licenses/activate": ({"license_key", "instance_name"}, set()),
    "/v1/licenses/validate": ({"license_key"}, {"instance_id"}),
    "/v1/licenses/deactivate": ({"license_key", "instance_id"}, set()),
}


def key_json(key, state):
    return {"id": state["id"], "status": state["status"], "key": key,
            "activation_limit": state.get("activation_limit"), "activation_usage": state["activation_usage"],
            "created_at": STAMP, "expires_at": state.get("expires_at")}


def meta_json(state, activation=False):
    product = state.get("activation_product_id", state.get("product_id", 10)) if activation else state.get("product_id", 10)
    return {"store_id": state.get("store_id", 1), "order_id": 2, "order_item_id": 3, "product_id": product,
            "product_name": state.get("product_name", "Lumen Pro"), "variant_id": state.get("variant_id", 11),
            "variant_name": state.get("variant_name", "Default"), "customer_id": 4,
            "customer_name": "Ada Lovelace", "customer_email": "ada@example.com"}


class Handler(stand_in.JSONHandler):
    def do_GET(self):
        self.check_and_answer("GET", {})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        text = self.rfile.read(length).decode("utf-8", "replace")
        self.check_and_answer("POST", text)

    def check_and_answer(self, method, text):
        path = self.path.split("?")[0]
        form = {}
        problems = []
        if method != "POST":
            problems.append("method %s, not POST" % method)
        if self.headers.get("Accept") != "application/json":
            problems.append("Accept is %r, not application/json" % self.headers.get("Accept"))
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
        if path not in REQUIRED:
            problems.append("unknown path %s" % path)
        else:
            required, optional = REQUIRED[path]
            problems += stand_in.field_problems(form, required, optional)
        with lock:
            with open(log_path, "a") as log:
                log.write(json.dumps({"path": path, "method": method, "form": form, "violations": problems}) + "\n")
            if problems:
                return self.answer(418, {"error": "; ".join(problems)})
            control = stand_in.read_control(control_path)
            stand_in.refresh(keys, control.get("keys", {}), carried="instances")
            entry = stand_in.next_scripted(control.get("script", {}).get(path, []), consumed, path)
            if entry is not None:
                return self.answer(entry.get("status", 200), entry.get("json", {}), entry.get("headers"), entry.get("raw"))
            self.contract(path, form)

    def contract(self, path, form):
        key = form["license_key"]
        state = keys.get(key)
        action = path.rsplit("/", 1)[1]
        flag = {"activate": "activated", "validate": "valid", "deactivate": "deactivated"}[action]
        if state is None:
            return self.answer(404, {flag: False, "error": "license_key not found.", "license_key": None, "meta": None})
        instance = None
        if "instance_id" in form:
            instance = next((i for i in state["instances"] if i["id"] == form["instance_id"]), None)
            if instance is None:
                return self.answer(404, {flag: False, "error": "license_key instance not found.",
                                         "license_key": key_json(key, state), "meta": meta_json(state)})
        if action == "activate":
            if state["status"] in ("expired", "disabled"):
                return self.answer(400, {flag: False, "error": "This license key is %s." % state["status"],
                                         "license_key": key_json(key, state), "meta": meta_json(state)})
            limit = state.get("activation_limit")
            if limit is not None and state["activation_usage"] >= limit:
                return self.answer(400, {flag: False, "error": "This license key has reached the activation limit.",
                                         "license_key": key_json(key, state), "meta": meta_json(state)})
            instance = {"id": str(uuid.uuid4()), "name": form["instance_name"], "created_at": STAMP}
            state["instances"].append(instance)
            state["activation_usage"] += 1
            state["status"] = "active"
            return self.answer(200, {flag: True, "error": None, "license_key": key_json(key, state),
                                     "instance": instance, "meta": meta_json(state, activation=True)})
        if action == "deactivate":
            state["instances"].remove(instance)
            state["activation_usage"] -= 1
            return self.answer(200, {flag: True, "error": None, "license_key": key_json(key, state), "meta": meta_json(state)})
        return self.answer(200, {flag: state.get("valid", state["status"] == "active"), "error": None, "license_key": key_json(key, state),
                                 "instance": instance, "meta": meta_json(state)})


stand_in.serve(Handler, port_path)
