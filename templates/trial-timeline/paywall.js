/*
 * "trial-timeline" template script: the steps describe a free trial, so they show only while
 * the user may still take it (the runtime's "freeTrial" prefix); without a product in the
 * primary slot (dropped, or missing from the catalog) the steps and the button are hidden; a
 * one-time product is shown as one (the button names its price).
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
      var sold = !!(variables[slot] && typeof variables[slot] === "object");
      element.hidden = !sold || (element.hasAttribute("data-trial-only") && Paywall.prefix !== "freeTrial");
    });
    showKinds();
  }

  Paywall.on("template_variables", update);
  Paywall.on("template_substitutions_prefix", update);
})();
