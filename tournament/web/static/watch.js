// An online table for the room (pages/public_play.py): the live badge of the spectator's
// page, and the replay's keys.
//
// htmx-ext-sse keeps the table's stream and swaps each `table` event into #table; the
// live badge, and fetching the table while the stream is refused or broken, are
// table-poll.js's. On a replay, the keys ← and → follow the "previous" and "next" links,
// which work without this script too.
(function () {
  "use strict";
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
