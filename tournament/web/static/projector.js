// The projector's rotation: one screen at a time, each for data-every seconds, in the
// order the server put them (standings pages, pairings, where do I sit, bracket).
//
// htmx-ext-sse keeps the live stream and fetches the screens again on each `standings`
// event (hx-get on #screens); the rotation then goes on where it was, by the screen's
// key (standings-2 stays standings-2), so a result does not throw the room back to
// page 1. While the stream is refused or broken the screens are fetched every 10 s.
// A fetch that fails while the stream lives (the store busy: 503; the network) makes the
// badge say offline, and the screens are fetched again 1 s, 2 s, 4 s ... 30 s later until
// they come: "Live" never stands over screens the room lacks (trial 5, P2).
// The current screen is on <main data-showing="..."> (the browser test reads it).
(function () {
  "use strict";
  var POLL_MS = 10000;
  var RETRY_MIN_MS = 1000;
  var RETRY_MAX_MS = 30000;
  var poller = null;
  var index = 0;
  var live = false;
  var failing = false;
  var retryTimer = null;
  var retryDelay = RETRY_MIN_MS;

  function root() { return document.querySelector("[data-screens]"); }
  function screens() { return Array.prototype.slice.call(document.querySelectorAll("#screens .screen")); }

  function show(i) {
    var all = screens();
    var main = root();
    if (!all.length || !main) { return; }
    index = ((i % all.length) + all.length) % all.length;
    all.forEach(function (el, n) { el.hidden = n !== index; });
    main.dataset.showing = all[index].dataset.key;
    main.dataset.kind = all[index].dataset.kind;
  }

  function badge(state) {
    var b = document.getElementById("live-badge");
    if (!b) { return; }
    b.dataset.state = state;
    b.textContent = state === "live" ? b.dataset.live : b.dataset.offline;
  }

  function poll() {
    var main = root();
    if (!main || !window.htmx) { return; }
    // A failure rejects the promise; the htmx error events below deal with it.
    window.htmx.ajax("GET", main.dataset.screens,
      { source: "#screens", target: "#screens", swap: "innerHTML" })
      .catch(function () {});
  }

  function retryLater() {
    if (retryTimer !== null) { return; }
    retryTimer = window.setTimeout(function () { retryTimer = null; poll(); }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
  }

  function failed(event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || elt.id !== "screens") { return; }
    failing = true;
    badge("offline");
    retryLater();
  }
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);

  var showing = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.target && event.target.id === "screens") {
      var main = root();
      showing = main ? main.dataset.showing : null;
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!(event.target && event.target.id === "screens")) { return; }
    var all = screens();
    var kept = all.findIndex(function (el) { return el.dataset.key === showing; });
    show(kept >= 0 ? kept : index);
    failing = false;
    retryDelay = RETRY_MIN_MS;
    if (retryTimer !== null) { window.clearTimeout(retryTimer); retryTimer = null; }
    if (live) { badge("live"); }
  });
  document.addEventListener("htmx:sseOpen", function () {
    live = true;
    if (poller !== null) { window.clearInterval(poller); poller = null; }
    if (failing) { poll(); } else { badge("live"); }
  });
  document.addEventListener("htmx:sseError", function () {
    live = false;
    if (poller === null) { poller = window.setInterval(poll, POLL_MS); }
    badge("offline");
  });
  window.addEventListener("pagehide", function () {
    document.querySelectorAll("[sse-connect]").forEach(function (el) {
      var data = el["htmx-internal-data"];
      if (data && data.sseEventSource) { data.sseEventSource.close(); }
    });
  });
  document.addEventListener("DOMContentLoaded", function () {
    var main = root();
    var every = main ? Math.max(1, parseInt(main.dataset.every, 10) || 12) : 12;
    show(0);
    window.setInterval(function () { show(index + 1); }, every * 1000);
    if (!("EventSource" in window)) { poller = window.setInterval(poll, POLL_MS); }
  });
})();
