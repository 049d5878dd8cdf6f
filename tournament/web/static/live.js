// The live badge of a public page, and the fallback when the live stream is away.
//
// htmx-ext-sse keeps the stream (/api/v1/tournaments/<tid>/live) and fetches the
// standings fragment again on each `standings` event. This script only says how fresh
// the table is (live / updated N s ago / offline) and, while the stream is refused (503
// over the cap of streams) or broken, fetches the fragment every 10 s instead; the
// extension keeps trying to reconnect meanwhile, and a reconnect stops the polling.
// The badge's words come from the page (data-live, data-ago, data-offline), translated.
(function () {
  "use strict";
  var POLL_MS = 10000;
  var poller = null;
  var updatedAt = Date.now();
  var live = false;

  function badge() { return document.getElementById("live-badge"); }

  function show(state) {
    var b = badge();
    if (!b) { return; }
    b.dataset.state = state;
    if (state === "live") {
      b.textContent = b.dataset.live;
    } else if (state === "offline") {
      b.textContent = b.dataset.offline;
    } else {
      var seconds = Math.max(0, Math.round((Date.now() - updatedAt) / 1000));
      b.textContent = b.dataset.ago.replace("{n}", String(seconds));
    }
  }

  function poll() {
    var root = document.querySelector("[data-fragment]");
    if (!root || !window.htmx) { return; }
    // From #standings: its hx-include (the slider's round, "find me") goes along.
    window.htmx.ajax("GET", root.dataset.fragment,
      { source: "#standings", target: "#standings", swap: "innerHTML" })
      .then(function () { updatedAt = Date.now(); if (!live) { show("ago"); } })
      .catch(function () { show("offline"); });
  }

  function startPolling() {
    if (poller === null) { poller = window.setInterval(poll, POLL_MS); }
  }

  function stopPolling() {
    if (poller !== null) { window.clearInterval(poller); poller = null; }
  }

  document.addEventListener("htmx:sseOpen", function () {
    live = true; stopPolling(); show("live");
  });
  document.addEventListener("htmx:sseError", function () {
    live = false; startPolling(); show("ago");
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target && event.target.id === "standings") { updatedAt = Date.now(); }
  });
  document.addEventListener("htmx:responseError", function () { if (!live) { show("offline"); } });
  document.addEventListener("htmx:sendError", function () { if (!live) { show("offline"); } });
  // Without the stream the badge counts the seconds since the table was last fetched.
  window.setInterval(function () {
    var b = badge();
    if (b && b.dataset.state === "ago") { show("ago"); }
  }, 1000);
  // Leaving the page: close the stream first, so that the browser cutting it off is not
  // reported as a stream error (htmx logs each one to the console).
  window.addEventListener("pagehide", function () {
    document.querySelectorAll("[sse-connect]").forEach(function (el) {
      var data = el["htmx-internal-data"];
      if (data && data.sseEventSource) { data.sseEventSource.close(); }
    });
  });
  // On paper nothing can be tapped open: print the tie-breaks' explanations open.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("details.legend").forEach(function (d) { d.open = true; });
  });
  // No EventSource at all (a very old browser): poll from the start.
  if (!("EventSource" in window)) {
    document.addEventListener("DOMContentLoaded", function () { startPolling(); show("ago"); });
  }
})();
