// The ESM entry exports the same client as the CommonJS one.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import test from "node:test";

import client, { PaywallClient, parentFromElectronHandle, PROTOCOL_VERSION } from "../index.mjs";

test("the ESM entry is the CommonJS client", () => {
  const common = createRequire(import.meta.url)("..");
  assert.equal(PaywallClient, common.PaywallClient);
  assert.equal(parentFromElectronHandle, common.parentFromElectronHandle);
  assert.equal(PROTOCOL_VERSION, 1);
  assert.equal(client, common);
});
