/*
 * "minimal" template script: without a product in the primary slot (the slot dropped or its
 * product missing) the offer is hidden; everything else is declarative (data-paywall-*).
 */
(function () {
  "use strict";
  if (!window.Paywall) return;

  function update() {
    var variables = window.Paywall.variables || {};
    document.querySelectorAll("[data-product-slot]").forEach(function (element) {
      var slot = element.getAttribute("data-product-slot");
      element.hidden = !(variables[slot] && typeof variables[slot] === "object");
    });
  }

  window.Paywall.on("template_variables", update);
})();
