"use strict";
// A client for `paywall serve`, the paywall runtime's JSON-RPC sidecar (one JSON object per
// line on its stdin and stdout). No dependencies: Node's child_process, events and readline.
// The protocol (methods, params, results, notifications, error codes) is in the "From Any
// Language" article of the runtime's docs (FromAnyLanguage.md); index.d.ts documents this API.

const { spawn } = require("node:child_process");
const { EventEmitter } = require("node:events");
const readline = require("node:readline");

/** The sidecar protocol's version this client speaks (`initialize` answers the sidecar's). */
const PROTOCOL_VERSION = 1;
/** The error code of an `initialize` refused because the sidecar speaks a newer protocol. */
const NEWER_PROTOCOL = -32099;

/** An error response: `code` (JSON-RPC's), `message`, `data` (for -32602, `data.field`). */
class PaywallError extends Error {
  constructor(code, message, data) {
    super(`${message} (${code})`);
    this.name = "PaywallError";
    this.code = code;
    this.rpcMessage = message;
    this.data = data;
  }
}

/** A request from the sidecar to the app: `purchase` or `restorePurchases`. */
class AppRequest {
  constructor(client, id, method, params) {
    this._client = client;
    this.id = id;
    this.method = method;
    this.params = params || {};
    this.cancelled = false;
    this.answered = false;
  }

  /** For `purchase`: the product object (`id`, `price`, `currency`, `period`, ...). */
  get product() {
    return this.params.product;
  }

  /** For `purchase`: the paywall the purchase started from (undefined when none did). */
  get paywallId() {
    return this.params.paywall_id;
  }

  /** Answers the request ("purchased", "cancelled", "pending", "failed"; "restored"); only the first answer counts. */
  respond(result, message) {
    if (this.answered) return;
    this.answered = true;
    this._client._appRequests.delete(this.id);
    const answer = { result };
    if (message !== undefined) answer.message = message;
    this._client._write({ jsonrpc: "2.0", id: this.id, result: answer });
  }
}

/**
 * Spawns `paywall serve` and talks to it. Events: "event", "customerInfoChanged",
 * "purchase", "restorePurchases", "purchaseCancelled", "exit", "strayResponse".
 */
class PaywallClient extends EventEmitter {
  constructor(options = {}) {
    super();
    const command = options.command || ["paywall", "serve"];
    if (!Array.isArray(command) || command.length === 0 || command.some((part) => typeof part !== "string")) {
      throw new TypeError("command must be a non-empty array of strings, e.g. [\"/usr/bin/paywall\", \"serve\"]");
    }
    this._nextId = 1;
    this._pending = new Map();
    this._appRequests = new Map();
    this._exitCode = undefined;
    this._exited = new Promise((resolve) => {
      this._resolveExit = resolve;
    });
    this.process = spawn(command[0], command.slice(1), {
      env: options.env || process.env,
      stdio: ["pipe", "pipe", options.stderr || "inherit"],
    });
    this.process.stdin.on("error", () => {}); // a write after exit: the pending calls fail on exit
    this.process.on("error", (error) => {
      const why =
        error.code === "ENOENT"
          ? `${command[0]} not found${command[0].includes("/") ? "" : " on PATH"}: install paywall or pass command: [path, "serve"]`
          : `${command[0]} could not start: ${error.message}`;
      this._finish(null, why);
    });
    const lines = readline.createInterface({ input: this.process.stdout, crlfDelay: Infinity });
    lines.on("line", (line) => this._line(line));
    this.process.on("close", (code, signal) => this._finish(code === null ? 128 + signalNumber(signal) : code));
  }

  /** Sends a request; resolves with the response's `result`, or rejects with a PaywallError. */
  call(method, params) {
    const id = this._nextId++;
    const message = { jsonrpc: "2.0", id, method };
    if (params !== undefined) message.params = params;
    return new Promise((resolve, reject) => {
      if (this._exitCode !== undefined) {
        reject(new PaywallError(-32603, `the sidecar is not running (it exited with status ${this._exitCode})`));
        return;
      }
      this._pending.set(id, { method, resolve, reject });
      this._write(message);
    });
  }

  /** Sends a notification (no answer). */
  notify(method, params) {
    const message = { jsonrpc: "2.0", method };
    if (params !== undefined) message.params = params;
    this._write(message);
  }

  /** Writes raw text plus a newline (tests of bad input). */
  sendLine(text) {
    if (this._exitCode === undefined) this.process.stdin.write(`${text}\n`);
  }

  /**
   * Closes the sidecar's stdin, which shuts it down cleanly (a purchase in progress settles
   * first); resolves with its exit status.
   */
  close() {
    if (this._exitCode === undefined) this.process.stdin.end();
    return this._exited;
  }

  _write(message) {
    this.sendLine(JSON.stringify(message));
  }

  _line(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      process.stderr.write(`paywall-client: not JSON from the sidecar: ${line.slice(0, 200)}\n`);
      return;
    }
    if (message === null || typeof message !== "object" || Array.isArray(message)) return;
    if ("method" in message) this._incoming(message);
    else this._response(message);
  }

  _response(message) {
    const entry = this._pending.get(message.id);
    if (entry === undefined) {
      this.emit("strayResponse", message);
      return;
    }
    this._pending.delete(message.id);
    let error = message.error;
    if (!error && entry.method === "initialize") error = this._protocolCheck(message.result);
    if (error) entry.reject(new PaywallError(error.code, error.message, error.data));
    else entry.resolve(message.result);
  }

  // An error when the sidecar speaks a newer protocol than this client (it is then shut down).
  _protocolCheck(result) {
    const version = result && result.protocol_version;
    if (!Number.isInteger(version) || version <= PROTOCOL_VERSION) return undefined;
    this.close();
    return {
      code: NEWER_PROTOCOL,
      message:
        `paywall serve speaks protocol ${version} (runtime ${result.runtime_version}); ` +
        `this paywall-client speaks ${PROTOCOL_VERSION}: upgrade paywall-client to the runtime's version`,
      data: { protocol_version: version, client_protocol_version: PROTOCOL_VERSION },
    };
  }

  _incoming(message) {
    const { method } = message;
    const params = message.params || {};
    if (!("id" in message)) {
      if (method === "purchaseCancelled") {
        const request = this._appRequests.get(params.id);
        if (request === undefined) return;
        this._appRequests.delete(params.id);
        request.cancelled = true;
        this.emit("purchaseCancelled", request);
      } else if (method === "event" || method === "customerInfoChanged") {
        this.emit(method, params);
      }
      return;
    }
    if (method !== "purchase" && method !== "restorePurchases") {
      this._write({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `the app has no method ${method}` } });
      return;
    }
    const request = new AppRequest(this, message.id, method, params);
    if (this.listenerCount(method) === 0) {
      request.respond("failed", `the app has no handler for ${method}`);
      return;
    }
    this._appRequests.set(request.id, request);
    this.emit(method, request);
  }

  _finish(code, why) {
    if (this._exitCode !== undefined) return;
    this._exitCode = code;
    const pending = [...this._pending.values()];
    this._pending.clear();
    for (const entry of pending) {
      entry.reject(new PaywallError(-32603, why || `the sidecar exited (status ${code}) before answering`));
    }
    this._resolveExit(code);
    this.emit("exit", code);
  }
}

function signalNumber(signal) {
  return require("node:os").constants.signals[signal] || 0;
}

/**
 * The sidecar's `parent` for an Electron window: `"x11:0x..."` from
 * `BrowserWindow.getNativeWindowHandle()` (on X11 and XWayland, the window's XID in the
 * machine's byte order). Returns undefined for a handle that is no X11 window id (Electron
 * under native Wayland): the paywall is then shown unparented.
 */
function parentFromElectronHandle(handle) {
  if (!(handle instanceof Uint8Array)) throw new TypeError("handle must be the Buffer getNativeWindowHandle() returns");
  const view = new DataView(handle.buffer, handle.byteOffset, handle.byteLength);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  let xid;
  if (handle.byteLength === 8) xid = view.getBigUint64(0, little);
  else if (handle.byteLength === 4) xid = BigInt(view.getUint32(0, little));
  else return undefined;
  // X11 window ids are 29 bits wide (the protocol's XID); anything else is no X11 window.
  if (xid === 0n || xid >= 1n << 32n) return undefined;
  return `x11:0x${xid.toString(16)}`;
}

module.exports = { PaywallClient, PaywallError, AppRequest, PROTOCOL_VERSION, NEWER_PROTOCOL, parentFromElectronHandle };
