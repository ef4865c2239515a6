// Builds one button per product slot from the host's template variables.
(() => {
  const list = document.getElementById("products");
  let oneTime = "One-time purchase";
  const render = variables => {
    list.textContent = "";
    for (const entry of (variables && variables.products) || []) {
      const [slot, product] = Object.entries(entry)[0] || [];
      if (!slot || !product) continue;
      const button = document.createElement("button");
      button.className = "product";
      button.dataset.paywallPurchase = slot;
      const name = document.createElement("strong");
      name.textContent = product.periodly ? product.periodly[0].toUpperCase() + product.periodly.slice(1) : oneTime;
      // The price is data: isolated, so a right-to-left page keeps "US$9.99" as written.
      const price = document.createElement("span");
      const amount = document.createElement("bdi");
      amount.textContent = product.price;
      price.append(amount, product.period ? " / " + product.period : "");
      button.append(name, price);
      list.append(button);
    }
  };
  if (window.Paywall) {
    // The runtime's texts in the user's language (English stays until they arrive).
    window.Paywall.on("fallback_texts", texts => {
      document.documentElement.lang = texts.lang;
      document.documentElement.dir = texts.rtl ? "rtl" : "ltr";
      document.title = texts.title;
      document.getElementById("title").textContent = texts.title;
      document.getElementById("restore").textContent = texts.restore;
      document.getElementById("close").setAttribute("aria-label", texts.close);
      oneTime = texts.one_time;
      render(window.Paywall.variables);
    });
    window.Paywall.on("template_variables", event => render(event.variables));
    if (window.Paywall.variables) render(window.Paywall.variables);
  }
})();
