"use strict";
// The Node client against the real `paywall serve` (PAYWALL: the executable; default `paywall`
// on PATH), under a display: the app's own purchase controller end to end, the protocol check,
// finding paywall on PATH, and the Electron parent helper. Run: node --test clients/node/test/
const assert = require("node:assert/strict");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const test = require("node:test");

const { PaywallClient, PaywallError, NEWER_PROTOCOL, PROTOCOL_VERSION, parentFromElectronHandle } = require("..");

const paywall = process.env.PAYWALL || "paywall";
const checkout = path.resolve(__dirname, "..", "..", "..");
const catalog = path.join(checkout, "templates", "classic", "store.json");

function workDir() {
  return fs.mkdtempSync(path.join(os.tmpdir(), "paywall-node-"));
}

// A bundle that buys as soon as it is loaded: what a user's tap on Buy would send.
function buyingBundle(work) {
  const folder = path.join(work, "buying");
  fs.mkdirSync(folder);
  fs.writeFileSync(
    path.join(folder, "index.html"),
    '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><h1>buying</h1>' +
      "<script>window.addEventListener('load', () => Paywall.purchase('lumen.pro.yearly'))</script></body></html>",
  );
  return folder;
}

function once(emitter, name, accept = () => true) {
  return new Promise((resolve) => {
    const listener = (value) => {
      if (!accept(value)) return;
      emitter.off(name, listener);
      resolve(value);
    };
    emitter.on(name, listener);
  });
}

test("a purchase through the app's own purchase controller", async () => {
  const work = workDir();
  const client = new PaywallClient({
    command: [paywall, "serve"],
    env: { ...process.env, XDG_DATA_HOME: path.join(work, "xdg"), G_DEBUG: "fatal-criticals" },
  });
  const events = [];
  client.on("event", (event) => events.push(event.name));
  const requests = [];
  client.on("purchase", async (request) => {
    requests.push(request);
    // The app's checkout charged: the app owns the status, then answers.
    await client.call("setSubscriptionStatus", { status: "active", entitlements: ["pro"] });
    request.respond("purchased");
  });

  const info = await client.call("initialize", { data_dir: path.join(work, "data"), catalog, controller: "app" });
  assert.equal(info.protocol_version, PROTOCOL_VERSION);
  assert.match(info.runtime_version, /^\d+\.\d+\.\d+/);
  assert.equal(info.user_id, "$anonymous");

  const active = once(client, "customerInfoChanged", (changed) => changed.subscription_status === "active");
  const result = await client.call("present", { paywall: buyingBundle(work) });
  assert.deepEqual(result, { result: "purchased", product_id: "lumen.pro.yearly" });
  assert.equal(requests.length, 1);
  assert.equal(requests[0].product.id, "lumen.pro.yearly");
  assert.equal(requests[0].paywallId, "buying");
  assert.deepEqual((await active).active_entitlements, ["pro"]);
  assert.ok(events.includes("transaction_complete"), `events: ${events}`);
  assert.deepEqual((await client.call("getCustomerInfo")).active_entitlements, ["pro"]);

  await assert.rejects(client.call("present", { paywall: "no-such-paywall" }), (error) => {
    assert.ok(error instanceof PaywallError);
    assert.equal(error.code, -32000);
    return true;
  });
  assert.equal(await client.close(), 0);
  await assert.rejects(client.call("getCustomerInfo"), /not running/);
});

test("a purchase with no listener is answered failed, and the paywall says so", async () => {
  const work = workDir();
  const client = new PaywallClient({ command: [paywall, "serve"], env: { ...process.env, XDG_DATA_HOME: work } });
  await client.call("initialize", { data_dir: path.join(work, "data"), catalog, controller: "app" });
  const failed = once(client, "event", (event) => event.name === "transaction_fail");
  const shown = client.call("present", { paywall: buyingBundle(work) });
  assert.match((await failed).params.message, /no handler for purchase/);
  await client.call("dismiss");
  assert.deepEqual(await shown, { result: "declined" });
  assert.equal(await client.close(), 0);
});

test("a sidecar speaking a newer protocol is refused", async () => {
  const client = new PaywallClient({ command: [process.execPath, path.join(__dirname, "..", "fixtures", "newer-sidecar.js")] });
  await assert.rejects(client.call("initialize", {}), (error) => {
    assert.equal(error.code, NEWER_PROTOCOL);
    assert.match(error.message, /speaks protocol 2 \(runtime 9\.0\.0\); this paywall-client speaks 1: upgrade/);
    return true;
  });
  assert.equal(await client.close(), 0);
});

test("without a command, paywall is found on PATH", async () => {
  const work = workDir();
  const bin = path.join(work, "bin");
  fs.mkdirSync(bin);
  fs.symlinkSync(fs.realpathSync(require("node:child_process").execFileSync("sh", ["-c", `command -v "${paywall}"`]).toString().trim()), path.join(bin, "paywall"));
  const found = new PaywallClient({ env: { ...process.env, PATH: `${bin}:/usr/bin:/bin`, XDG_DATA_HOME: work } });
  assert.equal((await found.call("initialize", { data_dir: path.join(work, "data") })).protocol_version, PROTOCOL_VERSION);
  assert.equal(await found.close(), 0);

  const missing = new PaywallClient({ env: { ...process.env, PATH: path.join(work, "empty") } });
  await assert.rejects(missing.call("initialize", {}), /paywall not found on PATH: install paywall or pass command/);
});

test("an Electron window handle becomes the sidecar's x11 parent", () => {
  const handle = Buffer.alloc(8);
  handle.writeBigUInt64LE(0x2400005n);
  assert.equal(parentFromElectronHandle(handle), "x11:0x2400005");
  const narrow = Buffer.alloc(4);
  narrow.writeUInt32LE(0x1a00003);
  assert.equal(parentFromElectronHandle(narrow), "x11:0x1a00003");
  assert.equal(parentFromElectronHandle(Buffer.alloc(8)), undefined, "no window");
  const pointer = Buffer.alloc(8);
  pointer.writeBigUInt64LE(0x7f12_3456_7890n);
  assert.equal(parentFromElectronHandle(pointer), undefined, "a Wayland surface pointer is no X11 id");
  assert.throws(() => parentFromElectronHandle("0x1"), TypeError);
});
