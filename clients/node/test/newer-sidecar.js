"use strict";
// A stand-in for a future `paywall serve` whose protocol is newer than the client's: it answers
// `initialize` with protocol_version 2 and exits when its stdin closes.
const readline = require("node:readline");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const request = JSON.parse(line);
  const result = { subscription_status: "unknown", runtime_version: "9.0.0", protocol_version: 2 };
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: request.id, result })}\n`);
});
