/*
 * "winback" template script: shows the offer (secondary slot) to a user whose subscription
 * lapsed (device.subscriptionLapsed) and the regular plan (primary slot) to anyone else, or
 * when there is no offer product (its slot dropped or missing); the button buys what is shown.
 * A one-time product is shown as one.
 */
(function () {
  "use strict";
  if (!window.Paywall) return;
  var Paywall = window.Paywall;
  var cta = document.getElementById("purchase");

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

  function has(slot) {
    var v = Paywall.variables || {};
    return !!(v[slot] && typeof v[slot] === "object");
  }

  function text(key) {
    var t = Paywall.variables && Paywall.variables.t;
    return t && typeof t[key] === "string" ? t[key] : null;
  }

  function update() {
    var device = (Paywall.variables && Paywall.variables.device) || {};
    var offer = has("secondary") && (device.subscriptionLapsed === true || !has("primary"));
    var mode = offer ? "lapsed" : "regular";
    document.querySelectorAll("[data-when]").forEach(function (element) {
      element.hidden = element.getAttribute("data-when") !== mode;
    });
    document.querySelectorAll("[data-product-slot]").forEach(function (element) {
      if (!has(element.getAttribute("data-product-slot"))) element.hidden = true;
    });
    var badge = document.querySelector("[data-savings]");
    badge.hidden = !has("secondary") || !Paywall.variables.secondary.savings;
    showKinds();
    var slot = offer ? "secondary" : "primary";
    cta.hidden = !has(slot);
    cta.setAttribute("data-paywall-purchase", slot);
    var label = text(offer ? "winback.claim" : "cta.continue");
    if (label) cta.textContent = label;
  }

  Paywall.on("template_variables", update);
})();
