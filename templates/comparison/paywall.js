/*
 * "comparison" template script: keeps the button and its note on the chosen period, hides a
 * period whose slot has no product (dropped, or missing from the catalog), hides the savings
 * badge when the yearly plan saves nothing, and shows a one-time product as one. The runtime
 * reads #purchase's data-paywall-purchase when it is clicked, so this script never buys itself.
 */
(function () {
  "use strict";
  if (!window.Paywall) return;
  var Paywall = window.Paywall;
  var cta = document.getElementById("purchase");

  function text(key) {
    var t = Paywall.variables && Paywall.variables.t;
    return t && typeof t[key] === "string" ? t[key] : null;
  }

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

  function choose(slot) {
    cta.setAttribute("data-paywall-purchase", slot);
    var trial = slot === "primary" && Paywall.prefix === "freeTrial";
    var label = text(trial ? "cta.trial" : "cta.continue");
    if (label) cta.textContent = label;
    document.querySelectorAll("[data-note-for]").forEach(function (note) {
      note.hidden = note.getAttribute("data-note-for") !== slot;
    });
  }

  function update() {
    var inputs = Array.prototype.slice.call(document.querySelectorAll('input[name="plan"]'));
    inputs.forEach(function (input) {
      var card = input.closest("[data-product-slot]");
      card.hidden = !has(input.value);
      input.disabled = card.hidden;
    });
    var badge = document.querySelector("[data-savings]");
    var slot = badge.getAttribute("data-savings");
    badge.hidden = !has(slot) || !Paywall.variables[slot].savings;
    showKinds();
    var checked = inputs.filter(function (input) { return input.checked && !input.disabled; })[0] ||
      inputs.filter(function (input) { return !input.disabled; })[0];
    if (checked) {
      checked.checked = true;
      choose(checked.value);
    }
    cta.hidden = !checked;
  }

  document.addEventListener("change", function (event) {
    if (event.target.name === "plan") choose(event.target.value);
  });
  // Enter on a period chooses it too (Space does by itself); Enter on the button then buys.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.target.name !== "plan") return;
    event.preventDefault();
    event.target.checked = true;
    choose(event.target.value);
  });
  Paywall.on("template_variables", update);
  Paywall.on("template_substitutions_prefix", update);
})();
