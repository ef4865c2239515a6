#!/usr/bin/python3
"""`paywall serve`'s `redeem` against a local License API server (the license tests' checking
stand-in): a redeem link sent before `initialize` is kept and redeemed once it is; keys from
the app's own field; refusals with their reason; bad params; the key never whole in a
notification. Run by SidecarRedeemTests: sidecar_redeem_test.py --paywall P --work DIR.
Prints "sidecar_redeem_test: ok" when every check passed."""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from sidecar_test import WAIT, Harness, check, expect_error  # noqa: E402

KEY = "38b1460a-5104-4067-a91d-77b872934d51"
SERVER = os.path.join(HERE, "..", "..", "PaywallCoreTests", "Fixtures", "lemon_squeezy_server.py")


def start_server(work):
    folder = os.path.join(work, "server")
    os.makedirs(folder, exist_ok=True)
    control = os.path.join(folder, "control.json")
    with open(control, "w") as f:
        json.dump({"keys": {KEY: {"id": 1, "status": "active", "activation_limit": 2, "activation_usage": 0,
                                  "product_id": 10, "variant_id": 11}}}, f)
    port_file = os.path.join(folder, "port")
    server = subprocess.Popen(["/usr/bin/python3", SERVER, control, os.path.join(folder, "requests.jsonl"), port_file])
    deadline = time.time() + WAIT
    while not os.path.exists(port_file) and time.time() < deadline:
        time.sleep(0.02)
    with open(port_file) as f:
        return server, "http://127.0.0.1:%s" % f.read().strip(), os.path.join(folder, "requests.jsonl")


def catalog(work, base):
    path = os.path.join(work, "license-catalog.json")
    with open(path, "w") as f:
        json.dump({"store": "lemon_squeezy", "license_api_base_url": base,
                   "products": [{"id": "pro.lifetime", "display_name": "Lumen Pro", "price": "49", "currency": "USD",
                                 "kind": "non_consumable", "entitlements": ["pro"],
                                 "checkout_url": "https://lumen.lemonsqueezy.com/buy/1",
                                 "lemon_squeezy": {"product_id": 10, "variant_id": 11}}]}, f)
    return path


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--paywall", required=True)
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    server, base, log = start_server(args.work)
    try:
        h = Harness(args.paywall, args.work)
        c = h.client
        link = "lumennotes://paywall/redeem?license_key=" + KEY

        # Bad params first: exactly one of url and license_key, and a url that is a redeem link.
        expect_error(c.request("redeem", {}), -32602, "neither url nor key", "url")
        expect_error(c.request("redeem", {"url": link, "license_key": KEY}), -32602, "both", "url")
        error = expect_error(c.request("redeem", {"url": "https://example.com/?license_key=" + KEY}), -32602, "not a link", "url")
        check(KEY not in error.message, "the refused url is not echoed: %s" % error.message)
        expect_error(c.request("redeem", {"license_key": KEY}), -32001, "a bare key before initialize")

        # A link before initialize is kept, then redeemed once the runtime is configured.
        check(c.call("redeem", {"url": link}, timeout=WAIT) == {"result": "queued"}, "queued before initialize")
        c.call("initialize", {"data_dir": os.path.join(args.work, "data"), "catalog": catalog(args.work, base)}, timeout=WAIT)
        h.wait_event("license_activate")
        info = h.infos.get(timeout=WAIT)
        while info["subscription_status"] != "active":
            info = h.infos.get(timeout=WAIT)
        check(info["active_entitlements"] == ["pro"], "customerInfoChanged after the kept link: %r" % info)
        info = c.call("getCustomerInfo", timeout=WAIT)
        licenses = info.get("licenses") or []
        check(len(licenses) == 1 and licenses[0]["license_key"] == "****4d51" and licenses[0]["state"] == "subscribed",
              "getCustomerInfo lists the license masked: %r" % info)

        # The app's own key field: the same key again validates, using up no other activation.
        result = c.call("redeem", {"license_key": "  " + KEY + "\n"}, timeout=WAIT)
        check(result["result"] == "redeemed" and result["license"]["license_key"] == "****4d51"
              and result["license"]["activation_usage"] == 1 and result["subscription_status"] == "active",
              "redeem of an activated key: %r" % result)

        # The link again, after initialize: redeemed at once, reported as a Swift app's handleDeepLink is.
        mark = h.mark()
        result = c.call("redeem", {"url": link}, timeout=WAIT)
        check(result["result"] == "redeemed", "redeem of a link after initialize: %r" % result)
        h.wait_event("deepLink_redeem", after=mark, queued=False)

        # An unknown key: refused with its reason, and the sidecar goes on.
        error = expect_error(c.request("redeem", {"license_key": "0000-unknown-key"}), -32000, "unknown key")
        check((error.data or {}).get("reason") == "not_found", "the reason of an unknown key: %r" % error.data)
        h.still_answers("an unknown key")

        with open(log) as f:
            requests = [json.loads(line) for line in f if line.strip()]
        check(not [r for r in requests if r.get("violations")], "requests keep the contract: %r" % requests)
        check(KEY not in json.dumps(h.events) and KEY not in json.dumps(list(h.infos.queue)),
              "the key is never whole in a notification")
        check(c.close(timeout=WAIT) == 0, "clean exit")
    finally:
        server.terminate()
        server.wait()
    print("sidecar_redeem_test: ok")


if __name__ == "__main__":
    main()
