// An online table for the room (pages/public_play.py): the live badge of the spectator's
// page, and the replay's keys.
//
// htmx-ext-sse keeps the table's stream and swaps each `table` event into #table; this
// script only says whether the stream is up (the badge's words come from the page,
// translated). On a replay, the keys ← and → follow the "previous" and "next" links,
// which work without this script too.
(function () {
  "use strict";
  function badge() { return document.getElementById("live-badge"); }
  function show(state) {
    var b = badge();
    if (!b) { return; }
    b.dataset.state = state;
    b.textContent = state === "live" ? b.dataset.live : b.dataset.offline;
  }
  document.addEventListener("htmx:sseOpen", function () { show("live"); });
  document.addEventListener("htmx:sseError", function () { show("offline"); });
  // Leaving the page: close the stream first, so the browser cutting it off is not
  // reported as a stream error.
  window.addEventListener("pagehide", function () {
    document.querySelectorAll("[sse-connect]").forEach(function (el) {
      var data = el["htmx-internal-data"];
      if (data && data.sseEventSource) { data.sseEventSource.close(); }
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) { return; }
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) { return; }
    var rel = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : null;
    if (!rel || !document.querySelector(".replay")) { return; }
    var link = document.querySelector('.replay .steps a[rel="' + rel + '"]');
    if (link) { event.preventDefault(); window.location.assign(link.href); }
  });
})();
