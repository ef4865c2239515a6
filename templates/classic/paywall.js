/*
 * Lumen Notes: "classic" paywall template script.
 * Keeps the call-to-action in sync with the selected plan card. The runtime
 * reads #purchase's data-paywall-purchase attribute at click time, so this
 * script never calls Paywall.purchase() itself (that would buy twice).
 */
(function () {
  "use strict";

  // The primary plan's button offers the trial only while the user may still take it
  // (the runtime's "freeTrial" substitution prefix). Its texts come from the bundle's string
  // tables (the runtime's `t` variable), English until they arrive.
  var SLOTS = ["primary", "secondary", "tertiary"];
  function label(key, english) {
    var t = window.Paywall && window.Paywall.variables && window.Paywall.variables.t;
    return (t && t[key]) || english;
  }

  var cta = document.getElementById("purchase");
  var inputs = document.querySelectorAll('input[name="plan"]');
  var notes = document.querySelectorAll("[data-note-for]");

  function select(slot) {
    if (!cta || SLOTS.indexOf(slot) < 0) return;
    cta.setAttribute("data-paywall-purchase", slot);
    var trial = slot === "primary" && window.Paywall && window.Paywall.prefix === "freeTrial";
    cta.textContent = trial ? label("cta.trial", "Start free trial") : label("cta.continue", "Continue");
    notes.forEach(function (note) {
      note.hidden = note.getAttribute("data-note-for") !== slot;
    });
  }

  function selected() {
    var checked = document.querySelector('input[name="plan"]:checked');
    return checked ? checked.value : "primary";
  }

  // The savings badge ({{ primary.savings }}) shows only when the yearly plan saves something.
  // A one-time product in the primary slot (a catalog that sells one license, its other
  // slots dropped): the card and its note use the lifetime plan's texts, not a yearly plan's
  // (no period, no "billed yearly", no savings badge).
  function describePrimary() {
    var variables = window.Paywall && window.Paywall.variables;
    var primary = variables && variables.primary;
    var badge = document.querySelector("[data-savings]");
    if (badge) badge.hidden = !(primary && primary.savings);
    var card = document.querySelector('[data-product-slot="primary"]');
    if (!primary || primary.period || !card) return;
    [[".plan-name", "plan.lifetime", "Lifetime"], [".plan-note", "plan.lifetime.note", "Pay once, yours forever"],
      [".price-sub", "price.one_time", "one-time"]].forEach(function (text) {
      var element = card.querySelector(text[0]);
      if (element) element.textContent = label(text[1], text[2]);
    });
    card.querySelectorAll(".price small").forEach(function (element) { element.hidden = true; });
    var note = document.querySelector('[data-note-for="primary"]');
    if (note) note.textContent = label("cta.note.tertiary", "One payment. No subscription.");
  }

  // A plan whose slot has no product (dropped, or missing from the catalog) is hidden by the
  // runtime; its radio button, outside the card, goes too, so no key reaches or selects it.
  function dropUnsoldPlans() {
    var variables = (window.Paywall && window.Paywall.variables) || {};
    inputs.forEach(function (input) {
      var sold = !!(variables[input.value] && typeof variables[input.value] === "object");
      input.hidden = !sold;
      input.disabled = !sold;
    });
    var checked = document.querySelector('input[name="plan"]:checked');
    var first = document.querySelector('input[name="plan"]:not(:disabled)');
    if (first && (!checked || checked.disabled)) {
      first.checked = true;
      select(first.value);
    }
  }

  if (window.Paywall) {
    window.Paywall.on("template_substitutions_prefix", function () { select(selected()); });
    window.Paywall.on("template_variables", function () {
      dropUnsoldPlans();
      describePrimary();
    });
  }

  inputs.forEach(function (input) {
    input.addEventListener("change", function () {
      if (input.checked) select(input.value);
    });
    if (input.checked) select(input.value);
  });

  // Opened in a normal browser (no runtime): log actions instead of failing silently.
  if (!window.Paywall) {
    document.addEventListener("click", function (event) {
      var el = event.target.closest("[data-paywall-purchase], [data-paywall-restore], [data-paywall-close]");
      if (!el) return;
      var action = el.hasAttribute("data-paywall-close") ? "close"
        : el.hasAttribute("data-paywall-restore") ? "restore"
        : "purchase " + el.getAttribute("data-paywall-purchase");
      console.info("[preview] Paywall." + action + " (window.Paywall not available)");
    });
  }
})();
