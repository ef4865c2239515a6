"""A stand-in for Keygen's API (keygen.sh) on 127.0.0.1, for the Keygen license tests, for the
account "lumen". It follows Keygen's documentation (keygen.sh/docs/api/licenses "Validate key",
keygen.sh/docs/api/machines "Activate/Retrieve/Deactivate a machine", keygen.sh/docs/api/
authentication "License authentication", keygen.sh/docs/api/errors) and the answers of Keygen's
open-source server (validation codes and details, MACHINE_LIMIT_EXCEEDED, FINGERPRINT_TAKEN,
LICENSE_INVALID, LICENSE_NOT_ALLOWED):
  POST   /v1/accounts/lumen/licenses/actions/validate-key  {"meta": {"key", "scope": {"fingerprint", "machine"?}}}, no token
  POST   /v1/accounts/lumen/machines       {"data": {"type": "machines", "attributes": {"fingerprint", "name"},
                                            "relationships": {"license": {"data": {"type": "licenses", "id"}}}}}
  GET    /v1/accounts/lumen/machines/{id or fingerprint}
  DELETE /v1/accounts/lumen/machines/{id}   (204)
The machine requests carry "Authorization: License KEY". Every request must send
"Accept: application/vnd.api+json" (and that Content-Type with a body); one off this contract is
answered 418 and logged as a violation, which the tests fail on.

CONTROL (a JSON file, read on every request) scripts it:
  {"keys": {"KEY": {"id": "uuid", "max_machines": 2, "floating": true, "product": "prod-1", "policy": "pol-1",
                     "suspended": false, "banned": false, "expired": false, "overdue": false, "auth": "LICENSE",
                     "expiration_strategy": "RESTRICT_ACCESS", "revision": 0}},
   "script": {"validate-key": [{"status": 429, "headers": {"Retry-After": "2"}}, {"status": 200, "raw": "x"}]}}
"auth" other than LICENSE or MIXED refuses license authentication (403 LICENSE_NOT_ALLOWED).
"expiration_strategy" is the policy's (keygen.sh/docs/api/policies): REVOKE_ACCESS checks an
expired license's expiry before its scopes; RESTRICT_ACCESS (the default), MAINTAIN_ACCESS and
ALLOW_ACCESS check the scopes first, and the last two then answer valid=true with the code EXPIRED.
A key is copied into the server's state when first seen, and again when its "revision" grows.
Another account's paths are answered 404, as Keygen answers an account it does not have.
Script entries are per action ("validate-key", "machines", "machine", "delete") and answer its
next requests, in order, before the contract does. Every request is appended to LOG as a JSON line.
Usage: keygen_server.py CONTROL LOG PORTFILE"""
import json, sys, threading, uuid

import stand_in

control_path, log_path, port_path = sys.argv[1:4]
PREFIX = "/v1/accounts/lumen/"
MEDIA = "application/vnd.api+json"
keys = {}        # key -> its state, with "machines": [{id, fingerprint, name}]
consumed = {}    # action -> script entries used
lock = threading.Lock()
STAMP = "2024-01-24T14:15:07.000Z"


stand_in.stop_with_parent()


def license_json(key, state):
    status = ("BANNED" if state.get("banned") else "SUSPENDED" if state.get("suspended")
              else "EXPIRED" if state.get("expired") else "ACTIVE")
    return {"id": state["id"], "type": "licenses",
            "attributes": {"name": "Lumen Pro", "key": key, "expiry": state.get("expiry"), "status": status,
                           "uses": 0, "suspended": bool(state.get("suspended")), "floating": state.get("floating", True),
                           "strict": True, "maxMachines": state.get("max_machines"), "created": STAMP, "updated": STAMP},
            "relationships": {"account": {"data": {"type": "accounts", "id": "acct-1"}},
                              "product": {"data": {"type": "products", "id": state.get("product", "prod-1")}},
                              "policy": {"data": {"type": "policies", "id": state.get("policy", "pol-1")}},
                              "owner": {"data": None},
                              "machines": {"links": {"related": "/v1/accounts/acct-1/licenses/%s/machines" % state["id"]},
                                           "meta": {"count": len(state["machines"]), "cores": 0}}}}


def machine_json(machine, state):
    return {"id": machine["id"], "type": "machines",
            "attributes": {"fingerprint": machine["fingerprint"], "name": machine["name"], "created": STAMP, "updated": STAMP},
            "relationships": {"license": {"data": {"type": "licenses", "id": state["id"]}}}}


def error(title, detail, code=None, pointer=None):
    entry = {"title": title, "detail": detail}
    if code:
        entry["code"] = code
    if pointer:
        entry["source"] = {"pointer": pointer}
    return {"meta": {"id": str(uuid.uuid4())}, "errors": [entry]}


def validation(state, scope):
    if state.get("banned"):
        return False, "is banned", "BANNED"
    if state.get("suspended"):
        return False, "is suspended", "SUSPENDED"
    strategy = state.get("expiration_strategy", "RESTRICT_ACCESS")
    if state.get("expired") and strategy == "REVOKE_ACCESS":
        return False, "is expired", "EXPIRED"
    if state.get("overdue"):
        return False, "is overdue for check in", "OVERDUE"
    floating = state.get("floating", True)
    machines = state["machines"]
    if not machines:
        return (False, "fingerprint is not activated (has no associated machines)", "NO_MACHINES") if floating else \
            (False, "fingerprint is not activated (has no associated machine)", "NO_MACHINE")
    if "machine" in scope and not any(m["id"] == scope["machine"] for m in machines):
        return False, "machine is not activated (does not match any associated machines)", "MACHINE_SCOPE_MISMATCH"
    if not any(m["fingerprint"] == scope["fingerprint"] for m in machines):
        return False, "fingerprint is not activated (does not match any associated machines)", "FINGERPRINT_SCOPE_MISMATCH"
    if state.get("expired"):
        return strategy in ("MAINTAIN_ACCESS", "ALLOW_ACCESS"), "is expired", "EXPIRED"
    return True, "is valid", "VALID"


class Handler(stand_in.JSONHandler):
    media_type = MEDIA

    def do_GET(self):
        self.handle_request("GET")

    def do_DELETE(self):
        self.handle_request("DELETE")

    def do_POST(self):
        self.handle_request("POST")

    def handle_request(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        text = self.rfile.read(length).decode("utf-8", "replace") if length else None
        path = self.path.split("?")[0]
        problems = []
        body = None
        if self.headers.get("Accept") != MEDIA:
            problems.append("Accept is %r, not %s" % (self.headers.get("Accept"), MEDIA))
        if text is not None:
            if self.headers.get("Content-Type") != MEDIA:
                problems.append("Content-Type is %r, not %s" % (self.headers.get("Content-Type"), MEDIA))
            try:
                body = json.loads(text)
            except ValueError as problem:
                problems.append("the body is not JSON: %s" % problem)
        rest = path[len(PREFIX):] if path.startswith(PREFIX) else None
        auth = self.headers.get("Authorization")
        if rest == "licenses/actions/validate-key" and method == "POST":
            action = "validate-key"
            meta = body.get("meta") if isinstance(body, dict) else None
            if not isinstance(meta, dict) or set(body) != {"meta"}:
                problems.append("the body must be {\"meta\": {...}}")
            elif not isinstance(meta.get("key"), str) or not isinstance(meta.get("scope"), dict) \
                    or set(meta) != {"key", "scope"}:
                problems.append("meta must have exactly \"key\" and \"scope\"")
            elif not isinstance(meta["scope"].get("fingerprint"), str) or not set(meta["scope"]) <= {"fingerprint", "machine"}:
                problems.append("meta.scope must have \"fingerprint\" (and \"machine\") only")
            if auth is not None:
                problems.append("validate-key needs no token, got Authorization")
        elif rest == "machines" and method == "POST":
            action = "machines"
            data = body.get("data") if isinstance(body, dict) else None
            try:
                assert data["type"] == "machines" and set(data) == {"type", "attributes", "relationships"}
                assert set(data["attributes"]) == {"fingerprint", "name"}
                assert all(isinstance(v, str) for v in data["attributes"].values())
                license = data["relationships"]["license"]["data"]
                assert set(data["relationships"]) == {"license"} and license["type"] == "licenses"
                assert isinstance(license["id"], str)
            except (AssertionError, KeyError, TypeError):
                problems.append("the body is not a machine with a fingerprint, a name and a license: %s" % text)
        elif rest is not None and rest.startswith("machines/") and method in ("GET", "DELETE") and text is None:
            action = "machine" if method == "GET" else "delete"
        elif path.startswith("/v1/accounts/") and rest is None:
            action = "other-account"
        else:
            action = None
            problems.append("unknown request %s %s" % (method, path))
        if action in ("machines", "machine", "delete") and not (auth or "").startswith("License "):
            problems.append("Authorization is %r, not License KEY" % auth)
        with lock:
            with open(log_path, "a") as log:
                log.write(json.dumps({"path": path, "method": method, "action": action, "body": body,
                                      "authorization": auth, "violations": problems}) + "\n")
            if problems:
                return self.answer(418, error("Off contract", "; ".join(problems)))
            control = stand_in.read_control(control_path)
            stand_in.refresh(keys, control.get("keys", {}), carried="machines")
            entry = stand_in.next_scripted(control.get("script", {}).get(action, []), consumed, action)
            if entry is not None:
                return self.answer(entry.get("status", 200), entry.get("json", {}), entry.get("headers"), entry.get("raw"))
            self.contract(action, rest, body, auth)

    def contract(self, action, rest, body, auth):
        if action == "other-account":
            return self.answer(404, error("Not found", "The requested account was not found", "NOT_FOUND"))
        if action == "validate-key":
            key = body["meta"]["key"]
            state = keys.get(key)
            if state is None:
                return self.answer(200, {"data": None, "meta": {"ts": STAMP, "valid": False, "detail": "does not exist",
                                                               "code": "NOT_FOUND", "scope": body["meta"]["scope"]}})
            valid, detail, code = validation(state, body["meta"]["scope"])
            return self.answer(200, {"data": license_json(key, state),
                                     "meta": {"ts": STAMP, "valid": valid, "detail": detail, "code": code,
                                              "scope": body["meta"]["scope"]}})
        key = auth[len("License "):]
        state = keys.get(key)
        if state is None:
            return self.answer(401, error("Unauthorized", "must be a valid license key", "LICENSE_INVALID"))
        if state.get("auth", "LICENSE") not in ("LICENSE", "MIXED"):
            return self.answer(403, error("Access denied", "License key authentication is not allowed by policy",
                                          "LICENSE_NOT_ALLOWED"))
        if action == "machines":
            data = body["data"]
            if data["relationships"]["license"]["data"]["id"] != state["id"]:
                return self.answer(403, error("Access denied", "You do not have permission to complete the request"))
            fingerprint = data["attributes"]["fingerprint"]
            if any(m["fingerprint"] == fingerprint for m in state["machines"]):
                return self.answer(422, error("Unprocessable resource", "has already been taken", "FINGERPRINT_TAKEN",
                                              "/data/attributes/fingerprint"))
            limit = state.get("max_machines")
            if limit is not None and len(state["machines"]) >= limit:
                return self.answer(422, error("Unprocessable resource",
                                              "machine count has exceeded maximum allowed for license (%d)" % limit,
                                              "MACHINE_LIMIT_EXCEEDED", "/data"))
            machine = {"id": str(uuid.uuid4()), "fingerprint": fingerprint, "name": data["attributes"]["name"]}
            state["machines"].append(machine)
            return self.answer(201, {"data": machine_json(machine, state)})
        wanted = rest[len("machines/"):]
        machine = next((m for m in state["machines"] if wanted in (m["id"], m["fingerprint"])), None)
        if machine is None:
            return self.answer(404, error("Not found", "The requested machine '%s' was not found" % wanted, "NOT_FOUND"))
        if action == "machine":
            return self.answer(200, {"data": machine_json(machine, state)})
        state["machines"].remove(machine)
        return self.answer(204, None)


stand_in.serve(Handler, port_path)
