"""A stand-in for Polar's customer-portal license-key API on 127.0.0.1, for the license-key
tests. It follows Polar's API reference (https://polar.sh/docs/api-reference, the
customer-portal license-keys endpoints "Validate License Key", "Activate License Key" and
"Deactivate License Key") and its License Keys benefit guide
(https://polar.sh/docs/features/benefits/license-keys):

  POST /v1/customer-portal/license-keys/validate   {key, organization_id, activation_id?,
       benefit_id?, customer_id?, increment_usage?, conditions?} -> 200 ValidatedLicenseKey
  POST /v1/customer-portal/license-keys/activate   {key, organization_id, label, conditions?,
       meta?} -> 200 LicenseKeyActivationRead; 403 NotPermitted at the activation limit, or for
       a key whose benefit has no limit (it takes no activations)
  POST /v1/customer-portal/license-keys/deactivate {key, organization_id, activation_id}
       -> 204, no body
  404 ResourceNotFound {"error": "ResourceNotFound", "detail": ...} for an unknown key (or one of
  another organization) or activation; 422 HTTPValidationError {"detail": [{loc, msg, type}]}
  for a field of the wrong type. No token: these endpoints take none.

It CHECKS every request: one that is not a POST with "Accept: application/json", a JSON object
body ("Content-Type: application/json") carrying the documented fields only, or that carries an
Authorization header, is answered 418 and logged as a violation, which the tests fail on.

CONTROL (a JSON file, read on every request) scripts it:
  {"keys": {"KEY": {"id": "lk_1", "status": "granted", "limit_activations": 2,
                     "expires_at": null, "benefit_id": "ben_pro", "organization_id": "org_1",
                     "revision": 0}},
   "script": {"/v1/customer-portal/license-keys/validate": [{"status": 429, "headers": {"Retry-After": "2"}},
                                                            {"status": 200, "raw": "not json"}]}}
A key is copied into the server's state when first seen, and again when its "revision" grows
(to expire or revoke it), keeping its activations. Each path's "script" entries answer its next
requests, in order, before the contract does. Every request is appended to LOG as a JSON line.
Usage: polar_server.py CONTROL LOG PORTFILE"""
import json, sys, threading, uuid

import stand_in

control_path, log_path, port_path = sys.argv[1:4]
keys = {}        # key -> its state, with "activations": [{id, label, meta, created_at}]
consumed = {}    # path -> script entries used
lock = threading.Lock()
STAMP = "2025-01-24T14:15:07.123456Z"
PREFIX = "/v1/customer-portal/license-keys/"

FIELDS = {  # path -> (required, optional)
    PREFIX + "validate": ({"key", "organization_id"},
                          {"activation_id", "benefit_id", "customer_id", "increment_usage", "conditions"}),
    PREFIX + "activate": ({"key", "organization_id", "label"}, {"conditions", "meta"}),
    PREFIX + "deactivate": ({"key", "organization_id", "activation_id"}, set()),
}
TEXT_FIELDS = {"key", "organization_id", "activation_id", "benefit_id", "customer_id", "label"}


stand_in.stop_with_parent()


def key_json(key, state):
    """The fields a ValidatedLicenseKey and a LicenseKeyRead share."""
    return {"id": state["id"], "created_at": STAMP, "modified_at": None,
            "organization_id": state.get("organization_id", "org_1"), "customer_id": "cus_1",
            "customer": {"id": "cus_1", "created_at": STAMP, "modified_at": None, "metadata": {},
                         "email": "ada@example.com", "email_verified": True, "name": "Ada Lovelace",
                         "billing_address": None, "tax_id": None, "organization_id": state.get("organization_id", "org_1"),
                         "deleted_at": None, "avatar_url": None},
            "benefit_id": state.get("benefit_id", "ben_pro"), "key": key, "display_key": "****" + key[-6:],
            "status": state["status"], "limit_activations": state.get("limit_activations"), "usage": 0,
            "limit_usage": None, "validations": state.get("validations", 0), "last_validated_at": None,
            "expires_at": state.get("expires_at")}


def activation_json(state, activation):
    return {"id": activation["id"], "license_key_id": state["id"], "label": activation["label"],
            "meta": activation["meta"], "created_at": STAMP, "modified_at": None}


def not_found(what):
    return 404, {"error": "ResourceNotFound", "detail": what}


class Handler(stand_in.JSONHandler):
    def do_GET(self):
        self.check_and_answer("GET", None)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        self.check_and_answer("POST", self.rfile.read(length).decode("utf-8", "replace"))

    def check_and_answer(self, method, text):
        path = self.path.split("?")[0]
        body = {}
        problems = []
        if method != "POST":
            problems.append("method %s, not POST" % method)
        if self.headers.get("Accept") != "application/json":
            problems.append("Accept is %r, not application/json" % self.headers.get("Accept"))
        if self.headers.get("Content-Type") != "application/json":
            problems.append("Content-Type is %r, not application/json" % self.headers.get("Content-Type"))
        if self.headers.get("Authorization") is not None:
            problems.append("an Authorization header was sent; these endpoints take no token")
        if text is not None:
            try:
                body = json.loads(text)
            except ValueError as error:
                problems.append("the body is not JSON: %s" % error)
            if not isinstance(body, dict):
                problems.append("the body is not a JSON object")
                body = {}
        if path not in FIELDS:
            problems.append("unknown path %s" % path)
        else:
            required, optional = FIELDS[path]
            problems += stand_in.field_problems(body, required, optional)
        with lock:
            with open(log_path, "a") as log:
                log.write(json.dumps({"path": path, "method": method, "body": body, "violations": problems}) + "\n")
            if problems:
                return self.answer(418, {"detail": "; ".join(problems)})
            control = stand_in.read_control(control_path)
            stand_in.refresh(keys, control.get("keys", {}), carried="activations")
            entry = stand_in.next_scripted(control.get("script", {}).get(path, []), consumed, path)
            if entry is not None:
                return self.answer(entry.get("status", 200), entry.get("json", {}), entry.get("headers"), entry.get("raw"))
            status, answer = self.contract(path.rsplit("/", 1)[1], body)
            self.answer(status, answer)

    def contract(self, action, body):
        wrong = [name for name in sorted(TEXT_FIELDS & set(body)) if not isinstance(body[name], str)]
        if wrong:
            return 422, {"detail": [{"loc": ["body", name], "msg": "Input should be a valid string",
                                     "type": "string_type"} for name in wrong]}
        state = keys.get(body["key"])
        if state is None or state.get("organization_id", "org_1") != body["organization_id"]:
            return not_found("License key not found.")
        activation = None
        if "activation_id" in body:
            activation = next((a for a in state["activations"] if a["id"] == body["activation_id"]), None)
            if activation is None:
                return not_found("License key activation not found.")
        if action == "activate":
            limit = state.get("limit_activations")
            if limit is None:
                return 403, {"error": "NotPermitted", "detail": "This license key does not support activations."}
            if len(state["activations"]) >= limit:
                return 403, {"error": "NotPermitted", "detail": "License key only supports %d activations." % limit}
            activation = {"id": str(uuid.uuid4()), "label": body["label"], "meta": body.get("meta", {})}
            state["activations"].append(activation)
            answer = activation_json(state, activation)
            answer["license_key"] = key_json(body["key"], state)
            return 200, answer
        if action == "deactivate":
            state["activations"].remove(activation)
            return 204, None
        state["validations"] = state.get("validations", 0) + 1
        answer = key_json(body["key"], state)
        answer["activation"] = activation_json(state, activation) if activation else None
        return 200, answer


stand_in.serve(Handler, port_path)
