/*
 * "carousel" template script: moves the slides (dots, arrow buttons, arrow keys; a swipe
 * scrolls the track itself and the dots follow), keeps the button on the chosen plan, and
 * hides a plan whose slot has no product (dropped, or missing from the catalog); a one-time
 * product is shown as one.
 */
(function () {
  "use strict";
  var track = document.getElementById("track");
  var slides = Array.prototype.slice.call(document.querySelectorAll(".slide"));
  var dots = Array.prototype.slice.call(document.querySelectorAll(".dot"));
  var previous = document.getElementById("previous");
  var next = document.getElementById("next");
  var current = 0;

  function show(index, focusDot) {
    current = Math.max(0, Math.min(slides.length - 1, index));
    // scrollIntoView keeps to the track's own direction, so it is right in RTL too.
    slides[current].scrollIntoView({ block: "nearest", inline: "center" });
    mark();
    if (focusDot) dots[current].focus();
  }

  function mark() {
    dots.forEach(function (dot, i) {
      if (i === current) dot.setAttribute("aria-current", "true"); else dot.removeAttribute("aria-current");
    });
    slides.forEach(function (slide, i) { slide.setAttribute("aria-hidden", i === current ? "false" : "true"); });
    previous.disabled = current === 0;
    next.disabled = current === slides.length - 1;
  }

  dots.forEach(function (dot, i) { dot.addEventListener("click", function () { show(i); }); });
  previous.addEventListener("click", function () { show(current - 1); });
  next.addEventListener("click", function () { show(current + 1); });

  // Arrow keys on the carousel's controls move it; right to left, the right arrow goes back.
  document.querySelector(".carousel").addEventListener("keydown", function (event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    var rtl = getComputedStyle(track).direction === "rtl";
    var forward = (event.key === "ArrowRight") !== rtl;
    event.preventDefault();
    show(current + (forward ? 1 : -1), event.target.classList.contains("dot"));
  });

  // A swipe scrolls the track: the slide nearest the middle becomes the current one.
  var settle = null;
  track.addEventListener("scroll", function () {
    clearTimeout(settle);
    settle = setTimeout(function () {
      var middle = track.getBoundingClientRect().left + track.clientWidth / 2;
      var nearest = 0;
      slides.forEach(function (slide, i) {
        var box = slide.getBoundingClientRect();
        if (Math.abs(box.left + box.width / 2 - middle) < Math.abs(slides[nearest].getBoundingClientRect().left +
          slides[nearest].getBoundingClientRect().width / 2 - middle)) nearest = i;
      });
      current = nearest;
      mark();
    }, 80);
  }, { passive: true });

  mark();
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
    var label = text(slot === "primary" && Paywall.prefix === "freeTrial" ? "cta.trial" : "cta.continue");
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
    var available = inputs.filter(function (input) { return !input.disabled; });
    var checked = available.filter(function (input) { return input.checked; })[0] || available[0];
    if (checked) {
      checked.checked = true;
      choose(checked.value);
    }
    cta.hidden = !checked;
  }

  document.addEventListener("change", function (event) {
    if (event.target.name === "plan") choose(event.target.value);
  });
  // Enter on a plan chooses it too (Space does by itself); Enter on the button then buys.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.target.name !== "plan") return;
    event.preventDefault();
    event.target.checked = true;
    choose(event.target.value);
  });
  Paywall.on("template_variables", update);
  Paywall.on("template_substitutions_prefix", update);
})();
