// The table a player plays on (/play/<code>): keys, the clock, the title.
//
// htmx-ext-sse keeps the stream and swaps each `table` message into #table; a move's
// form answers the same fragment. This script only: plays by keys (1-5 a card, M then 1-5
// a card with its marriage, X exchange, Z close, 6 claim, N no claim: each clicks the
// button that carries that data-key, so a key does exactly what a click does and nothing
// the page does not offer), counts the clock down from data-deadline, and puts whose turn
// it is into the title. The live badge, and fetching the table while the stream is
// refused or broken, are table-poll.js's (the extension reconnects by itself; the first
// message after a reconnect is the newest table).
//
// A double tap counts once (trial 7, F1): the table is swapped whole after a move, so the
// second tap of a double tap would land on whatever replaced the card -- the next card to
// lead, or the claim buttons after the last trick -- and be a move of its own. So while a
// move is on its way, and for SETTLE_MS after the table shows a new moment (hand, version,
// status), a tap, click or key on the table's controls does nothing. The same table sent
// again (a reconnect) is no new moment and blocks nothing. While it settles the table
// carries data-settling (the browser tests wait on it, as a player's eyes do).
(function () {
  "use strict";
  var SETTLE_MS = 600;
  var marriage = false;
  var sending = false;
  var shownMoment = null;
  var shownAt = -Infinity;

  function root() { return document.querySelector("#table .seat-table"); }

  function settling() { return sending || performance.now() - shownAt < SETTLE_MS; }

  function mark() {
    var r = root();
    if (!r) { return; }
    if (settling()) { r.dataset.settling = ""; } else { delete r.dataset.settling; }
  }

  // After each swap: a new moment starts the settle time.
  function shown() {
    var r = root();
    var now = r ? [r.dataset.hand, r.dataset.version, r.dataset.status].join(".") : "";
    if (now !== shownMoment) {
      shownMoment = now;
      shownAt = performance.now();
      window.setTimeout(mark, SETTLE_MS + 10);
    }
    mark();
  }

  // Capturing, so nothing of the page (htmx) sees a click the table is not ready for.
  function guard(event) {
    var target = event.target;
    var control = target && target.closest ? target.closest("#table button, #table form") : null;
    if (control && settling()) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  }
  document.addEventListener("click", guard, true);
  document.addEventListener("submit", guard, true);

  // A move's form answers into #table (hx-target). Its request's own end clears
  // "sending": the live stream may swap the table (and the form) before the answer comes,
  // and htmx's events of a form no longer on the page do not reach the document.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail || {};
    var target = detail.target;
    if (!target || target.id !== "table") { return; }
    sending = true;
    mark();
    if (detail.xhr) {
      detail.xhr.addEventListener("loadend", function () { sending = false; shown(); });
    } else {
      sending = false;
    }
  });

  function press(key) {
    var button = document.querySelector('#table button[data-key="' + key + '"]');
    if (button && !button.disabled) { button.click(); return true; }
    return false;
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.altKey || event.metaKey) { return; }
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) { return; }
    var key = (event.key || "").toLowerCase();
    if (event.repeat) { return; }  // a key held down is one press
    if (marriage && key >= "1" && key <= "5") {
      marriage = false;
      if (press("m" + key)) { event.preventDefault(); }
      return;
    }
    marriage = key === "m";
    if ((key >= "1" && key <= "6") || key === "x" || key === "z" || key === "n") {
      if (press(key)) { event.preventDefault(); }
    }
  });

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function tick() {
    var clock = document.querySelector("#table .clock");
    if (!clock) { return; }
    var deadline = Date.parse(clock.dataset.deadline || "");
    if (isNaN(deadline)) { return; }
    var left = Math.round((deadline - Date.now()) / 1000);
    var shown = clock.querySelector(".clock-left");
    if (left <= 0) {
      var words = document.getElementById("time-up-words");
      clock.classList.add("expired");
      if (shown && words) { shown.textContent = words.textContent; }
      return;
    }
    clock.classList.toggle("short", left <= 10);
    if (shown) { shown.textContent = Math.floor(left / 60) + ":" + pad(left % 60); }
  }

  function retitle() {
    var r = root();
    var play = document.querySelector(".play");
    if (r && r.dataset.title) {
      document.title = r.dataset.title + (play ? play.dataset.suffix || "" : "");
    }
  }

  // A screen reader hears whose turn it is when that changes (the table is swapped whole,
  // so a live region around it would read all of it).
  var announced = null;
  function announce() {
    var turn = document.querySelector("#table .turn");
    var region = document.getElementById("announce");
    if (!turn || !region) { return; }
    var words = turn.textContent.trim();
    if (announced !== null && words !== announced) { region.textContent = words; }
    announced = words;
  }

  // On a phone the hand is docked at the bottom of the screen (play.css): the page keeps
  // that much room under itself, so nothing is hidden behind the dock.
  function dock() {
    var hand = document.querySelector("#table .hand");
    var docked = hand && window.getComputedStyle(hand).position === "fixed";
    document.body.classList.toggle("has-dock", Boolean(docked));
    if (docked) {
      document.body.style.setProperty("--dock", Math.ceil(hand.getBoundingClientRect().height) + 16 + "px");
    }
  }

  document.addEventListener("htmx:afterSwap", function () { shown(); retitle(); tick(); announce(); dock(); });
  document.addEventListener("htmx:sseMessage", function () { shown(); retitle(); tick(); announce(); dock(); });
  window.addEventListener("resize", dock);
  window.setInterval(tick, 1000);
  document.addEventListener("DOMContentLoaded", function () { shown(); retitle(); tick(); announce(); dock(); });
})();
