// An online table's page (a seat's /play/<code>, the room's /t/<tid>/matches/<mid>/table
// and its projector form): the live badge, and what keeps the table current while the
// stream is away.
//
// htmx-ext-sse keeps the stream and swaps each `table` message into #table. When the
// stream is refused (503: the process holds its cap of streams) or broken, the page
// fetches the same fragment from #table's data-poll every few seconds, and swaps it in
// when it changed (an unchanged table is left alone: a tap or the keyboard focus on it
// is not lost). The extension keeps trying the stream meanwhile; once it is open again
// the polling stops (operator F1). The badge says which: live (the stream), polling
// (fetched every few seconds), offline (a fetch failed too). Its words come from the
// page (data-live, data-polling, data-offline), translated.
(function () {
  "use strict";
  var POLL_MS = 3000;
  var poller = null;
  var live = false;
  var reachable = true;
  var lastPolled = null;

  function table() { return document.getElementById("table"); }

  function badge(state) {
    var b = document.getElementById("live-badge");
    if (!b) { return; }
    b.dataset.state = state;
    b.textContent = b.dataset[state] || b.dataset.offline;
  }

  function settle() {
    badge(live ? "live" : reachable ? "polling" : "offline");
  }

  // A failed fetch rejects htmx.ajax's promise: the error events below deal with it.
  function quiet() {}

  function poll() {
    var t = table();
    if (!t || !t.dataset.poll || !window.htmx) { return; }
    window.htmx.ajax("GET", t.dataset.poll,
      { source: "#table", target: "#table", swap: "innerHTML" }).catch(quiet);
  }

  // Whether an htmx event is about one of this script's fetches (not a move's form).
  function polled(event) {
    var detail = event.detail || {};
    var t = table();
    return Boolean(t && t.dataset.poll && detail.pathInfo &&
      detail.pathInfo.requestPath === t.dataset.poll);
  }

  function startPolling() {
    if (poller === null) {
      poll();
      poller = window.setInterval(poll, POLL_MS);
    }
  }

  function stopPolling() {
    if (poller !== null) { window.clearInterval(poller); poller = null; }
    lastPolled = null;
  }

  document.addEventListener("htmx:sseOpen", function () {
    live = true; reachable = true;
    stopPolling();
    settle();
  });
  document.addEventListener("htmx:sseError", function () {
    live = false;
    startPolling();
    settle();
  });
  // The stream sends the whole table again on reconnecting, so a table left by polling
  // is replaced by the stream's as soon as it is back.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!polled(event)) { return; }
    var xhr = event.detail.xhr;
    if (xhr && xhr.status === 200) {
      reachable = true;
      if (live || xhr.responseText === lastPolled) {
        event.detail.shouldSwap = false;  // unchanged, or the stream is back meanwhile
      }
      lastPolled = xhr.responseText;
      settle();
    }
  });
  function failed(event) {
    if (!polled(event)) { return; }
    reachable = false;
    settle();
  }
  document.addEventListener("htmx:responseError", failed);
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  // Leaving the page: close the stream first, so that the browser cutting it off is not
  // reported as a stream error.
  window.addEventListener("pagehide", function () {
    stopPolling();
    document.querySelectorAll("[sse-connect]").forEach(function (el) {
      var data = el["htmx-internal-data"];
      if (data && data.sseEventSource) { data.sseEventSource.close(); }
    });
  });
})();
