// Types for paywall-client, the Node and Electron client of `paywall serve` (the paywall
// runtime's JSON-RPC sidecar). Self-contained: no @types/node needed.

/** A JSON object as the sidecar sends it. */
export type JSONObject = { [key: string]: unknown };

/** The sidecar protocol's version this client speaks (`initialize` answers the sidecar's). */
export declare const PROTOCOL_VERSION: number;
/** The error code of an `initialize` refused because the sidecar speaks a newer protocol. */
export declare const NEWER_PROTOCOL: number;

/** An error response: `code` (JSON-RPC's), `rpcMessage`, `data` (for -32602, `data.field`). */
export declare class PaywallError extends Error {
  readonly code: number;
  readonly rpcMessage: string;
  readonly data?: unknown;
}

/** A request from the sidecar to the app (`purchase`, `restorePurchases`). */
export declare class AppRequest {
  readonly id: string | number;
  readonly method: "purchase" | "restorePurchases";
  readonly params: JSONObject;
  /** True once the paywall closed while the request was unanswered (`purchaseCancelled`). */
  readonly cancelled: boolean;
  readonly answered: boolean;
  /** For `purchase`: the product (`id`, `price`, `currency`, `period`, ...). */
  readonly product: JSONObject | undefined;
  /** For `purchase`: the paywall the purchase started from. */
  readonly paywallId: string | undefined;
  /** Answers: "purchased", "cancelled", "pending", "failed" (purchase); "restored", "failed" (restore). Only the first answer counts. */
  respond(result: "purchased" | "cancelled" | "pending" | "failed" | "restored", message?: string): void;
}

/** What a client listens to: the sidecar's notifications and requests, and its exit. */
export interface PaywallClientEvents {
  /** An `event` notification: `{name, params, timestamp}`, as in the event log. */
  event: (event: { name: string; params: JSONObject; timestamp: string }) => void;
  /** A `customerInfoChanged` notification: what `getCustomerInfo` returns. */
  customerInfoChanged: (info: JSONObject) => void;
  /** With `controller: "app"`: buy `request.product`, then `request.respond(...)`. No listener: answered "failed". */
  purchase: (request: AppRequest) => void;
  /** With `controller: "app"`: restore, then `request.respond("restored" | "failed")`. */
  restorePurchases: (request: AppRequest) => void;
  /** The paywall closed while `request` was unanswered: end the checkout. */
  purchaseCancelled: (request: AppRequest) => void;
  /** The sidecar ended (its exit status; null when it could not start). */
  exit: (code: number | null) => void;
  /** A response to no request of this client's (`id: null`: a line the sidecar could not read). */
  strayResponse: (message: JSONObject) => void;
}

export interface PaywallClientOptions {
  /** The sidecar's command line; default `["paywall", "serve"]` (`paywall` on PATH). */
  command?: string[];
  /** Its environment; default this process's. */
  env?: { [name: string]: string | undefined };
  /** Where its stderr goes: "inherit" (default), "ignore", "pipe", or a file descriptor. */
  stderr?: "inherit" | "ignore" | "pipe" | number;
}

/** Spawns `paywall serve` and talks to it. */
export declare class PaywallClient {
  constructor(options?: PaywallClientOptions);
  /** Sends a request; resolves with its result, or rejects with a PaywallError. */
  call(method: string, params?: JSONObject): Promise<any>;
  /** Sends a notification (no answer). */
  notify(method: string, params?: JSONObject): void;
  /** Writes raw text plus a newline (tests of bad input). */
  sendLine(text: string): void;
  /** Closes the sidecar's stdin (a clean shutdown); resolves with its exit status. */
  close(): Promise<number | null>;
  on<E extends keyof PaywallClientEvents>(event: E, listener: PaywallClientEvents[E]): this;
  once<E extends keyof PaywallClientEvents>(event: E, listener: PaywallClientEvents[E]): this;
  off<E extends keyof PaywallClientEvents>(event: E, listener: PaywallClientEvents[E]): this;
  listenerCount(event: keyof PaywallClientEvents): number;
}

/**
 * The sidecar's `parent` for an Electron window, from `BrowserWindow.getNativeWindowHandle()`:
 * `"x11:0x..."` on X11 and XWayland; undefined when the handle is no X11 window id.
 */
export declare function parentFromElectronHandle(handle: Uint8Array): string | undefined;

declare const client: {
  PaywallClient: typeof PaywallClient;
  PaywallError: typeof PaywallError;
  AppRequest: typeof AppRequest;
  PROTOCOL_VERSION: number;
  NEWER_PROTOCOL: number;
  parentFromElectronHandle: typeof parentFromElectronHandle;
};
export default client;
