// The runtime's page script, injected at document start into every paywall page's top frame.
//
// It speaks the wire protocol (PROTOCOL.md) so bundles need no copy of it:
//   page -> host: window.webkit.messageHandlers.paywallMessageHandler.postMessage(JSON text)
//   host -> page: window.paywall.accept64(base64 of a JSON array of events)
// and offers designers a small API on top: window.Paywall (see README, "Page API") and
// declarative data-paywall-* attributes that work without any JavaScript.
(() => {
  "use strict";
  if (window.Paywall) return;

  const VERSION = "paywall-runtime/0.1";
  const listeners = new Map(); // event name ("*" for all) -> Set of functions
  const state = { products: {}, pinged: false }; // products: slot -> id, from the host's "products" event

  function post(events) {
    const handler = window.webkit && window.webkit.messageHandlers &&
      window.webkit.messageHandlers.paywallMessageHandler;
    if (!handler) {
      console.warn("[paywall] not running inside the paywall runtime; dropped", events);
      return;
    }
    handler.postMessage(JSON.stringify({ version: 1, payload: { events } }));
  }

  function send(name, fields) {
    post([Object.assign({ event_name: name }, fields || {})]);
  }

  function dispatch(event) {
    const name = event && event.event_name;
    if (name === "products" && Array.isArray(event.products)) {
      for (const p of event.products) if (p && p.product) state.products[p.product] = p.productId;
    }
    for (const key of [name, "*"]) {
      for (const fn of listeners.get(key) || []) {
        try { fn(event); } catch (error) { console.error("[paywall] listener failed", error); }
      }
    }
    document.dispatchEvent(new CustomEvent("paywall:" + name, { detail: event }));
  }

  function decode64(base64) {
    const bytes = Uint8Array.from(atob(base64), c => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  }

  // The default receiver. A page that brings its own Superwall page script replaces
  // window.paywall; the host always calls whatever is there.
  window.paywall = {
    accept64(base64) { for (const event of decode64(base64)) dispatch(event); },
    accept(events) { for (const event of events) dispatch(event); },
  };

  const Paywall = Object.freeze({
    version: VERSION,
    /** Buys a product: a slot name ("primary", "secondary", "tertiary") or a product id. */
    purchase(slotOrProductId, options) {
      const slot = Object.prototype.hasOwnProperty.call(state.products, slotOrProductId) ||
        ["primary", "secondary", "tertiary"].includes(slotOrProductId) ? slotOrProductId : undefined;
      send("purchase", {
        product_identifier: (slot && state.products[slot]) || slotOrProductId,
        product: slot,
        should_dismiss: !(options && options.shouldDismiss === false),
      });
    },
    /** Restores earlier purchases. */
    restore() { send("restore"); },
    /** Closes (declines) the paywall. */
    close() { send("close"); },
    /** Opens a URL in an in-app browser. */
    openURL(url) { send("open_url", { url: String(url) }); },
    /** Opens a URL in the system browser. */
    openURLExternal(url) { send("open_url_external", { url: String(url) }); },
    /** Hands a deep link to the app. */
    openDeepLink(link) { send("open_deep_link", { link: String(link) }); },
    /** Sends a string to the app (an event named "custom" with params.data). */
    custom(data) { send("custom", { data: typeof data === "string" ? data : JSON.stringify(data) }); },
    /** Registers a custom placement with parameters. */
    customPlacement(name, params) { send("custom_placement", { name: String(name), params: params || {} }); },
    /** Sets user attributes from an object of key/value pairs. */
    setUserAttributes(attributes) {
      send("user_attribute_updated", {
        attributes: Object.entries(attributes || {}).map(([key, value]) => ({ key, value })),
      });
    },
    /** Sends a raw protocol event, e.g. Paywall.send("page_view", {...}). */
    send,
    /** Calls fn(event) for each host event named `name` ("*" for every event). Returns an unsubscribe function. */
    on(name, fn) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name).add(fn);
      return () => listeners.get(name).delete(fn);
    },
    /** Tells the host the page is ready (its `ping`). Pages marked <html data-paywall-manual-ready>
     *  call this once they have rendered; other pages are ready when their DOM is. */
    ready() { if (!state.pinged) { state.pinged = true; send("ping", { version: VERSION }); } },
    /** The product id in each slot, as the host sent it. */
    get products() { return Object.assign({}, state.products); },
  });
  Object.defineProperty(window, "Paywall", { value: Paywall, enumerable: true });

  // Declarative actions: data-paywall-close, data-paywall-restore, data-paywall-purchase="SLOT|ID",
  // data-paywall-open-url="URL" (in-app), data-paywall-open-url-external="URL",
  // data-paywall-deep-link="LINK", data-paywall-custom="DATA".
  const actions = [
    ["paywallClose", () => Paywall.close()],
    ["paywallRestore", () => Paywall.restore()],
    ["paywallPurchase", v => Paywall.purchase(v || "primary")],
    ["paywallOpenUrl", v => Paywall.openURL(v)],
    ["paywallOpenUrlExternal", v => Paywall.openURLExternal(v)],
    ["paywallDeepLink", v => Paywall.openDeepLink(v)],
    ["paywallCustom", v => Paywall.custom(v)],
  ];
  document.addEventListener("click", event => {
    const target = event.target instanceof Element ? event.target : null;
    for (const [key, run] of actions) {
      const attribute = "data-" + key.replace(/[A-Z]/g, c => "-" + c.toLowerCase());
      const element = target && target.closest("[" + attribute + "]");
      if (element && !element.disabled) {
        event.preventDefault();
        run(element.dataset[key]);
        return;
      }
    }
  }, true);

  // The page is ready once its DOM is, unless it says it will call Paywall.ready() itself.
  // A page with its own Superwall script pings too; the host treats repeated pings as one.
  const autoReady = () => {
    if (!document.documentElement.hasAttribute("data-paywall-manual-ready")) Paywall.ready();
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", autoReady, { once: true });
  } else {
    autoReady();
  }
})();
