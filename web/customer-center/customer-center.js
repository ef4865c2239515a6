// Draws the customer center's screen model and reports taps. See index.html.
(() => {
  "use strict";

  const $ = id => document.getElementById(id);

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  // Data inside a right-to-left page (a product name, a price, a user id, an email) keeps its own
  // direction in a <bdi>: "$anonymous", "100 AI Credits" and "US$" stay as written.
  function isolated(tag, className, text) {
    const node = element(tag, className);
    node.append(element("bdi", "", text));
    return node;
  }

  // Rows the user can act on are buttons, so keyboard and screen readers reach them too.
  function row(item) {
    const actionable = ["purchase", "path", "option", "plan"].includes(item.kind);
    const node = element(actionable ? "button" : "div", "row " + item.kind);
    if (actionable) node.type = "button";
    if (item.disabled) node.disabled = true;
    if (item.destructive) node.classList.add("destructive");
    if (item.active === false) node.classList.add("inactive");
    for (const [key, attribute] of [["path_id", "pathId"], ["product_id", "productId"],
      ["entitlement_id", "entitlementId"], ["purchase_key", "purchaseKey"], ["option_id", "optionId"],
      ["license_key", "licenseKey"]]) {
      if (item[key] != null) node.dataset[attribute] = item[key];
    }
    const text = element("span", "text");
    const heading = isolated("span", "title", item.title);
    if (item.badge) heading.append(" ", element("span", "badge", item.badge));
    text.append(heading);
    if (item.subtitle) text.append(element("span", "subtitle", item.subtitle));
    // A license's key (masked) and activations, a line each.
    for (const line of item.lines || []) text.append(isolated("span", "subtitle line", line));
    node.append(text);
    if (item.detail) {
      const detail = isolated("span", "detail", item.detail);
      if (item.selectable) detail.classList.add("selectable");
      node.append(detail);
    }
    if (item.kind === "purchase" || item.kind === "option" || (item.kind === "path" && item.url)) {
      node.append(element("span", item.url ? "icon external" : "icon chevron"));
    }
    return node;
  }

  function button(action, label, className) {
    const node = element("button", className || "", label);
    node.type = "button";
    node.dataset.action = action;
    return node;
  }

  function render(model) {
    const root = document.documentElement;
    root.dataset.theme = model.dark ? "dark" : "light";
    root.dataset.screen = model.screen;
    root.lang = model.lang || "en";
    root.dir = model.rtl ? "rtl" : "ltr";
    if (model.accent) {
      root.style.setProperty("--accent-light", model.accent.light);
      root.style.setProperty("--accent-dark", model.accent.dark);
    } else {
      root.style.removeProperty("--accent-light");
      root.style.removeProperty("--accent-dark");
    }
    document.title = model.title;
    $("title").replaceChildren(element("bdi", "", model.title));
    $("start").replaceChildren(...(model.back ? [button("back", model.back, "back")] : []));
    $("end").replaceChildren(...(model.close ? [button("close", model.close, "suggested")] : []));

    const content = [];
    for (const banner of model.banners || []) {
      content.push(element("div", "banner " + banner.kind, banner.text));
    }
    if (model.badge && model.screen === "detail") content.push(element("span", "badge large", model.badge));
    if (model.subtitle) content.push(element("p", "subtitle", model.subtitle));
    for (const section of model.sections || []) {
      const group = element("section", "group");
      if (section.title) group.append(element("h2", "", section.title));
      const list = element("div", "boxed-list");
      list.append(...section.rows.map(row));
      group.append(list);
      content.push(group);
    }
    if (model.message) content.push(element("p", "message", model.message));
    $("content").replaceChildren(...content);

    const overlay = [];
    if (model.busy) {
      const busy = element("div", "busy");
      busy.append(element("span", "spinner"), element("span", "", model.busy));
      overlay.push(busy);
    }
    if (model.dialog) {
      const dialog = element("div", "dialog");
      dialog.setAttribute("role", "alertdialog");
      dialog.append(element("h2", "", model.dialog.title), element("p", "", model.dialog.message));
      if (model.dialog.copy) dialog.append(isolated("div", "copyable selectable", model.dialog.copy));
      const buttons = element("div", "buttons");
      for (const b of model.dialog.buttons) {
        buttons.append(button(b.action, b.label, (b.primary ? "primary " : "") + (b.destructive ? "destructive" : "")));
      }
      dialog.append(buttons);
      overlay.push(dialog);
    }
    $("overlay").replaceChildren(...overlay);
    $("overlay").className = overlay.length ? "shown" + (model.dialog ? " modal" : "") : "";
    const focus = document.querySelector("#overlay .primary") || null;
    if (focus) focus.focus();
  }

  let current = null;
  const waiters = new Set();

  Paywall.on("customer_center_screen", event => {
    current = event.model;
    render(current);
    Paywall.send("customer_center_rendered", { revision: event.revision });
    for (const waiter of Array.from(waiters)) waiter();
  });

  // For testers' scripts (`paywall customer-center --eval`): the model on screen, a wait for a
  // screen that matches, and a tap on an element by CSS selector.
  Object.defineProperty(window, "CustomerCenter", { enumerable: true, value: Object.freeze({
    get model() { return current; },
    waitFor(predicate, timeoutMs = 10000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!current || !predicate(current)) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(current);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error("no matching customer-center screen within " + timeoutMs + " ms; on screen: " +
            JSON.stringify(current)));
        }, timeoutMs);
        if (!check()) waiters.add(check);
      });
    },
    tap(selector) {
      const node = document.querySelector(selector);
      if (!node) throw new Error("nothing on screen matches " + selector);
      node.click();
    },
  }) });

  document.addEventListener("click", event => {
    const target = event.target instanceof Element ? event.target : null;
    const node = target && target.closest("[data-action], [data-option-id], [data-path-id]");
    if (!node || node.disabled) return;
    event.preventDefault();
    if (node.dataset.action) {
      Paywall.send("customer_center_action", { action: node.dataset.action });
    } else if (node.dataset.optionId) {
      Paywall.send("customer_center_option", { option_id: node.dataset.optionId });
    } else {
      Paywall.send("customer_center_path", {
        path_id: node.dataset.pathId,
        product_id: node.dataset.productId || null,
        entitlement_id: node.dataset.entitlementId || null,
        purchase_key: node.dataset.purchaseKey || null,
      });
    }
  });

  // Escape leaves a dialog, then a pushed screen.
  document.addEventListener("keydown", event => {
    if (event.key !== "Escape") return;
    const leave = document.querySelector('#overlay [data-action="dismiss"], #overlay [data-action="ok"], [data-action="back"]');
    if (leave) Paywall.send("customer_center_action", { action: leave.dataset.action });
  });
})();
