// The runtime's page script, injected at document start into every paywall page's top frame.
//
// It speaks the wire protocol (PROTOCOL.md) so bundles need no copy of it:
//   page -> host: window.webkit.messageHandlers.paywallMessageHandler.postMessage(JSON text)
//   host -> page: window.paywall.accept64(base64 of a JSON array of events)
// and offers designers a small API on top: window.Paywall (the Designing Bundles article, "Page API") and
// declarative data-paywall-* attributes that work without any JavaScript.
(() => {
  "use strict";
  if (window.Paywall) return;

  // <html lang dir> from the user's resolved locale, set as soon as the root element exists,
  // so the page is laid out in its direction from its first frame.
  const documentLanguage = window.__PAYWALL_DOCUMENT__;
  if (documentLanguage) {
    const apply = root => {
      root.lang = documentLanguage.lang;
      root.dir = documentLanguage.dir;
    };
    if (document.documentElement) {
      apply(document.documentElement);
    } else {
      new MutationObserver((_, observer) => {
        if (!document.documentElement) return;
        observer.disconnect();
        apply(document.documentElement);
      }).observe(document, { childList: true });
    }
  }

  const VERSION = "paywall-runtime/0.1";
  const listeners = new Map(); // event name ("*" for all) -> Set of functions
  // products: slot -> id (host's "products" event); variables/prefix: for {{ }} templates.
  const state = { products: {}, pinged: false, variables: null, prefix: null };

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

  // Where a link may lead: the web, mail, and the bundle's own files. Anything else
  // (javascript:, data:, file:) is refused and reported to the host as navigation_blocked.
  function isAllowedURL(value) {
    let url;
    try { url = new URL(value, document.baseURI); } catch (error) { return false; }
    if (["http:", "https:", "mailto:"].includes(url.protocol)) return true;
    return url.protocol === location.protocol && url.host === location.host;
  }

  function blocked(url, reason) {
    send("navigation_blocked", { url: String(url).slice(0, 2048), reason });
  }

  function dispatch(event) {
    const name = event && event.event_name;
    if (name === "products" && Array.isArray(event.products)) {
      const given = new Set();
      for (const p of event.products) {
        if (p && p.product) {
          state.products[p.product] = p.productId;
          given.add(p.product);
        }
      }
      Slots.show(given);
    }
    if (name === "template_variables") {
      state.variables = event.variables || {};
      Templates.render();
    }
    if (name === "template_substitutions_prefix") {
      state.prefix = event.prefix || null;
      Templates.render();
    }
    for (const key of [name, "*"]) {
      for (const fn of listeners.get(key) || []) {
        try { fn(event); } catch (error) { console.error("[paywall] listener failed", error); }
      }
    }
    document.dispatchEvent(new CustomEvent("paywall:" + name, { detail: event }));
  }

  // data-product-slot="NAME" marks what sells slot NAME. A slot the host sent no product for
  // (dropped with secondary=, or not in the manifest) sells nothing, so its elements are hidden;
  // a later products event that has it shows them again (only those hidden here).
  const Slots = (() => {
    const hiddenHere = new Set();
    let given = null;
    function apply() {
      if (!given || !document.body) return;
      for (const element of document.querySelectorAll("[data-product-slot]")) {
        const sells = given.has(element.getAttribute("data-product-slot"));
        if (!sells && !hiddenHere.has(element)) {
          hiddenHere.add(element);
          element.hidden = true;
          element.style.setProperty("display", "none", "important");
        } else if (sells && hiddenHere.has(element)) {
          hiddenHere.delete(element);
          element.hidden = false;
          element.style.removeProperty("display");
        }
      }
    }
    document.addEventListener("DOMContentLoaded", apply);
    return { show(slots) { given = slots; apply(); } };
  })();

  const utf8 = new TextDecoder();
  function decode64(base64) {
    const binary = atob(base64);
    // ASCII text (most events) is its own UTF-8: no byte array to build and decode.
    if (!/[\x80-\xff]/.test(binary)) return JSON.parse(binary);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return JSON.parse(utf8.decode(bytes));
  }

  // The default receiver. A page that brings its own Superwall page script replaces
  // window.paywall; the host always calls whatever is there.
  const defaultReceiver = {
    accept64(base64) { for (const event of decode64(base64)) dispatch(event); },
    accept(events) { for (const event of events) dispatch(event); },
  };
  window.paywall = defaultReceiver;

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
    /** The host's template variables ({user, device, params, products, primary, ...}), once sent. */
    get variables() { return state.variables; },
    /** The substitution prefix ("freeTrial" or null). */
    get prefix() { return state.prefix; },
    /** The product id in each slot, as the host sent it. */
    get products() { return Object.assign({}, state.products); },
  });
  Object.defineProperty(window, "Paywall", { value: Paywall, enumerable: true });

  // Plain HTML templating: text and attributes containing {{ products.primary.price }},
  // {{ primary.trialPeriodText }}, {{ device.interfaceStyle }}, ... are filled from the host's
  // template variables. {{ t.KEY }} is the bundle's own text for KEY in the user's language
  // (its string tables, locales/<locale>.json); {{ t.KEY count=VARIABLE }} picks KEY's plural
  // form for that number. With a substitution prefix (e.g. "freeTrial"), an element carrying
  // data-paywall-free-trial="..." shows that template instead of its own text. An unknown
  // variable stays visible and is reported to the host once.
  //
  // Values are data: they are set as text nodes' values and attributes' values, never parsed
  // as markup, and a value holding {{ }} is never filled in turn. A filled-in URL attribute
  // (href, src, action, ...) that is not an http, https, mailto or bundle URL is left out.
  const Templates = (() => {
    const pattern = /\{\{\s*([\w.$-]+)(?:\s+count=([\w.$-]+))?\s*\}\}/g;
    const texts = new Map();      // text node -> its original template
    const attributes = new Map(); // element -> {attribute: original template}
    const reported = new Set();
    const originals = new Map();  // element with a prefix alternative -> its own child nodes
    const urlAttributes = new Set(["href", "src", "action", "formaction", "xlink:href", "poster", "data", "ping"]);

    function lookup(path) {
      let value = state.variables;
      for (const key of path.split(".")) {
        if (value == null) return undefined;
        if (Array.isArray(value)) {
          // variables.products is [{primary: {...}}, ...]: find the item holding the key.
          const item = value.find(entry => entry && Object.prototype.hasOwnProperty.call(entry, key));
          value = item ? item[key] : undefined;
        } else {
          value = value[key];
        }
      }
      return value;
    }

    // A bundle text: keys hold dots ("plan.yearly.note"), so the rest of the path is one key.
    function bundleText(key, countPath) {
      const table = state.variables && state.variables.t;
      if (!table || typeof table !== "object") return undefined;
      const own = name => Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined;
      if (countPath === undefined) return own(key);
      // A number, or a string of one (product attributes are strings); null, "" or true are not counts.
      const raw = lookup(countPath);
      const count = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
      if (!Number.isFinite(count)) return undefined;
      // The page's lang is the language the bundle's tables resolved to (the runtime sets it).
      const lang = document.documentElement.lang || "en";
      const form = own(key + "." + new Intl.PluralRules(lang).select(count)) ?? own(key + ".other");
      return typeof form === "string" ? form.replace(/\{count\}/g, new Intl.NumberFormat(lang).format(count)) : undefined;
    }

    // A bundle text may hold {{ variables }} of its own (a price, a period), filled in turn.
    function fill(template, insideText) {
      return template.replace(pattern, (whole, path, countPath) => {
        const isText = path.startsWith("t.") && !insideText;
        let value = isText ? bundleText(path.slice(2), countPath) : countPath === undefined ? lookup(path) : undefined;
        if (isText && typeof value === "string") value = fill(value, true);
        if (value === undefined || value === null || typeof value === "object") {
          if (!reported.has(path)) {
            reported.add(path);
            send("template_variable_unknown", { name: path });
          }
          return whole;
        }
        return String(value);
      });
    }

    function prefixAttribute() {
      return state.prefix ? "data-paywall-" + state.prefix.replace(/[A-Z]/g, c => "-" + c.toLowerCase()) : null;
    }

    function collect(root) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
      for (let node = walker.currentNode; node; node = walker.nextNode()) {
        if (node.nodeType === Node.TEXT_NODE) {
          const parent = node.parentElement;
          if (!texts.has(node) && node.nodeValue.includes("{{") && parent && !/^(SCRIPT|STYLE)$/.test(parent.tagName)) {
            texts.set(node, node.nodeValue);
          }
        } else if (node.attributes) {
          for (const attribute of Array.from(node.attributes)) {
            if (attribute.value.includes("{{") && !attribute.name.startsWith("data-paywall-")) {
              const saved = attributes.get(node) || {};
              if (!(attribute.name in saved)) saved[attribute.name] = attribute.value;
              attributes.set(node, saved);
            }
          }
        }
      }
    }

    function render() {
      if (!state.variables || !document.body) return;
      collect(document.body);
      collect(document.head);
      for (const [node, template] of texts) node.nodeValue = fill(template);
      for (const [element, saved] of attributes) {
        for (const [name, template] of Object.entries(saved)) {
          const value = fill(template);
          if (urlAttributes.has(name.toLowerCase()) && !isAllowedURL(value)) {
            if (element.hasAttribute(name)) {
              element.removeAttribute(name);
              blocked(value, "a filled-in " + name + " may only be an http, https, mailto or bundle URL");
            }
          } else {
            element.setAttribute(name, value);
          }
        }
      }
      // A prefix alternative replaces its element's content; its own nodes are kept (already
      // filled above) and put back to switch back, so nothing is parsed again.
      const attribute = prefixAttribute();
      if (attribute) {
        for (const element of document.querySelectorAll("[" + attribute + "]")) {
          if (!originals.has(element)) originals.set(element, Array.from(element.childNodes));
        }
      }
      for (const [element, nodes] of originals) {
        const alternative = attribute ? element.getAttribute(attribute) : null;
        if (alternative !== null) {
          element.textContent = fill(alternative);
        } else if (element.childNodes.length !== nodes.length || nodes.some((node, i) => element.childNodes[i] !== node)) {
          element.replaceChildren(...nodes);
        }
      }
    }

    return { render };
  })();

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
  // A javascript: link does not run, whoever wrote it (WebKit runs such URLs without asking
  // the host's navigation policy, so it is stopped here, before anything else sees the click).
  // An SVG link's href is an object and may be xlink:href, so the attribute's text is read.
  const XLINK = "http://www.w3.org/1999/xlink";
  const runsScript = raw => {
    if (raw === null) return false;
    try { return new URL(raw, document.baseURI).protocol === "javascript:"; } catch (error) { return false; }
  };
  const stopLink = event => {
    const link = event.target instanceof Element ? event.target.closest("a[href], area[href], a[*|href]") : null;
    if (!link) return;
    const raw = link.getAttribute("href") ?? link.getAttributeNS(XLINK, "href");
    if (runsScript(raw)) {
      event.preventDefault();
      event.stopImmediatePropagation();
      blocked(raw, "javascript: URLs do not run in a paywall");
    }
  };
  document.addEventListener("click", stopLink, true);
  document.addEventListener("auxclick", stopLink, true);
  // A form whose action (or its button's formaction) is a javascript: URL is not submitted.
  document.addEventListener("submit", event => {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    const raw = (event.submitter && event.submitter.getAttribute("formaction")) ?? (form && form.getAttribute("action"));
    if (runsScript(raw)) {
      event.preventDefault();
      blocked(raw, "javascript: URLs do not run in a paywall");
    }
  }, true);
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

  // The page is ready once its DOM is, unless it says it will call Paywall.ready() itself, or
  // it replaced window.paywall with its own page script (Superwall's), which sends its own ping.
  const autoReady = () => {
    if (document.documentElement.hasAttribute("data-paywall-manual-ready")) return;
    if (window.paywall !== defaultReceiver) return;
    Paywall.ready();
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", autoReady, { once: true });
  } else {
    autoReady();
  }
})();
