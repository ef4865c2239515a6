/*
 * "minimal" template script: without a product in the primary slot (the slot dropped or its
 * product missing) the offer is hidden, and a one-time product is shown as one; everything else
 * is declarative (data-paywall-*).
 */
(function () {
  "use strict";
  if (!window.Paywall) return;
  var Paywall = window.Paywall;

  // A product without a period (a one-time purchase: a catalog that sells one license) is sold
  // as one: what carries data-one-time="SLOT" shows instead of what carries data-recurring="SLOT"
  // (the period after the price, the billing note, a plan named for its period).
  function showKinds() {
    var variables = Paywall.variables || {};
    document.querySelectorAll("[data-recurring], [data-one-time]").forEach(function (element) {
      var recurring = element.hasAttribute("data-recurring");
      var product = variables[element.getAttribute(recurring ? "data-recurring" : "data-one-time")];
      var oneTime = !!(product && typeof product === "object" && !product.period);
      element.hidden = recurring === oneTime;
    });
  }

  function update() {
    var variables = Paywall.variables || {};
    document.querySelectorAll("[data-product-slot]").forEach(function (element) {
      var slot = element.getAttribute("data-product-slot");
      element.hidden = !(variables[slot] && typeof variables[slot] === "object");
    });
    showKinds();
  }

  Paywall.on("template_variables", update);
})();
