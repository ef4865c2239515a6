/*
 * "trial-timeline" template script: the steps describe a free trial, so they show only while
 * the user may still take it (the runtime's "freeTrial" prefix); without a product in the
 * primary slot (dropped, or missing from the catalog) the steps and the button are hidden.
 */
(function () {
  "use strict";
  if (!window.Paywall) return;
  var Paywall = window.Paywall;

  function update() {
    var variables = Paywall.variables || {};
    document.querySelectorAll("[data-product-slot]").forEach(function (element) {
      var slot = element.getAttribute("data-product-slot");
      var sold = !!(variables[slot] && typeof variables[slot] === "object");
      element.hidden = !sold || (element.hasAttribute("data-trial-only") && Paywall.prefix !== "freeTrial");
    });
  }

  Paywall.on("template_variables", update);
  Paywall.on("template_substitutions_prefix", update);
})();
