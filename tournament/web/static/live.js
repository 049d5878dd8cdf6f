// The live badge of a public page, and what keeps the page current when a fetch fails.
//
// htmx-ext-sse keeps the stream (/api/v1/tournaments/<tid>/live) and fetches the
// standings fragment again on each `standings` event, the round's pairings (with the
// stage line) on each `round` and `result` event. This script says how fresh the table is
// and makes it so again:
// - live: the stream is open and the last fetch of each fragment worked;
// - stale: the stream is open but a fetch failed (the store busy: 503) or brought an older
//   table than the stream announced: the page fetches again, 1 s, 2 s, 4 s ... 30 s apart,
//   until it has the version announced; "Live" never sits over standings it lacks;
// - offline: a fetch could not reach the service at all (the Wi-Fi), stream or not;
// - updated N s ago: the stream is away (503 over the cap of streams, or broken) but the
//   fragments still come, fetched every 10 s; the extension keeps trying to reconnect
//   meanwhile, and a reconnect stops the polling.
// The badge's words come from the page (data-live, data-ago, data-offline, data-stale),
// translated.
(function () {
  "use strict";
  var POLL_MS = 10000;
  var RETRY_MIN_MS = 1000;
  var RETRY_MAX_MS = 30000;
  var poller = null;
  var updatedAt = Date.now();
  var live = false;
  var reachable = true;        // the last fetch reached the service
  var failed = {};             // fragment ("standings", "round") -> its last fetch failed
  var announced = 0;           // the newest standings version the stream announced
  var retryTimer = null;
  var retryDelay = RETRY_MIN_MS;

  function badge() { return document.getElementById("live-badge"); }

  function show(state) {
    var b = badge();
    if (!b) { return; }
    b.dataset.state = state;
    if (state === "live") {
      b.textContent = b.dataset.live;
    } else if (state === "offline") {
      b.textContent = b.dataset.offline;
    } else if (state === "stale") {
      b.textContent = b.dataset.stale;
    } else {
      var seconds = Math.max(0, Math.round((Date.now() - updatedAt) / 1000));
      b.textContent = b.dataset.ago.replace("{n}", String(seconds));
    }
  }

  // Which fragment an htmx event is about: the element that fetched it.
  function fragmentOf(event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.id) { return null; }
    if (elt.id === "standings") { return "standings"; }
    if (elt.id === "round-part") { return "round"; }
    return null;
  }

  function shownVersion() {
    var body = document.querySelector("#standings .standings-body");
    var v = body ? parseInt(body.dataset.version || "0", 10) : 0;
    return isNaN(v) ? 0 : v;
  }

  // Behind: a fetch failed, or the table shown is older than the stream announced.
  function behind() {
    return failed.standings || failed.round || shownVersion() < announced;
  }

  // What the badge says now, all things known.
  function settle() {
    if (!reachable) {
      show("offline");
    } else if (behind()) {
      show("stale");
      retryLater();
    } else {
      retryDelay = RETRY_MIN_MS;
      if (retryTimer !== null) { window.clearTimeout(retryTimer); retryTimer = null; }
      show(live ? "live" : "ago");
    }
    if (!reachable) { retryLater(); }
  }

  // A failed fetch rejects htmx.ajax's promise: the htmx:sendError handler below is what
  // deals with it.
  function quiet() {}

  function fetchStandings() {
    var root = document.querySelector("[data-fragment]");
    if (!root || !window.htmx) { return; }
    // From #standings: its hx-include (the slider's round, "find me") goes along.
    window.htmx.ajax("GET", root.dataset.fragment,
      { source: "#standings", target: "#standings", swap: "innerHTML" })
      .catch(quiet);
  }

  function fetchRound() {
    // The pairings, the stage line and "find me" (out of band) follow the same way.
    var round = document.getElementById("round-part");
    if (round && round.dataset.roundFragment && window.htmx) {
      window.htmx.ajax("GET", round.dataset.roundFragment,
        { source: "#round-part", target: "#round-part", swap: "innerHTML" })
        .catch(quiet);
    }
  }

  function poll() { fetchStandings(); fetchRound(); }

  // Fetch again what is behind, later, each time twice as late (up to 30 s).
  function retryLater() {
    if (retryTimer !== null) { return; }
    retryTimer = window.setTimeout(function () {
      retryTimer = null;
      if (failed.round) { fetchRound(); }
      if (failed.standings || shownVersion() < announced || !reachable) { fetchStandings(); }
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
  }

  function startPolling() {
    if (poller === null) { poller = window.setInterval(poll, POLL_MS); }
  }

  function stopPolling() {
    if (poller !== null) { window.clearInterval(poller); poller = null; }
  }

  document.addEventListener("htmx:sseOpen", function () {
    live = true; stopPolling();
    // Back after a drop: whatever failed meanwhile is fetched again at once.
    if (behind() || !reachable) { reachable = true; poll(); }
    settle();
  });
  document.addEventListener("htmx:sseError", function () {
    // Each reconnecting try of the extension says so again: the first one fetches at
    // once (is the service there at all?), then every 10 s until the stream is back.
    var first = live || poller === null;
    live = false; startPolling();
    if (first) { poll(); }
    if (reachable && !behind()) { show("ago"); } else { settle(); }
  });
  // The stream announces the standings' version: a table older than that is stale.
  document.addEventListener("htmx:sseMessage", function (event) {
    var message = event.detail;
    if (!message || message.type !== "standings") { return; }
    try {
      var v = JSON.parse(message.data).version;
      if (typeof v === "number" && v > announced) { announced = v; }
    } catch (e) { /* not ours to judge: the fetch it triggers shows the table */ }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var which = fragmentOf(event);
    if (!which) { return; }
    failed[which] = false; reachable = true;
    if (which === "standings") { updatedAt = Date.now(); }
    settle();
  });
  function failedFetch(event, unreachable) {
    var which = fragmentOf(event);
    if (!which) { return; }
    var xhr = event.detail && event.detail.xhr;
    // 4xx (an as-of round that does not exist) is the page's own answer, not staleness.
    if (!unreachable && xhr && xhr.status > 0 && xhr.status < 500) { return; }
    failed[which] = true;
    if (unreachable) { reachable = false; }
    settle();
    retryLater();
  }
  document.addEventListener("htmx:responseError", function (e) { failedFetch(e, false); });
  document.addEventListener("htmx:sendError", function (e) { failedFetch(e, true); });
  document.addEventListener("htmx:timeout", function (e) { failedFetch(e, true); });
  // The phone says its network came back (or went): fetch at once, say so at once.
  window.addEventListener("online", function () {
    reachable = true; retryDelay = RETRY_MIN_MS;
    if (retryTimer !== null) { window.clearTimeout(retryTimer); retryTimer = null; }
    poll();
  });
  window.addEventListener("offline", function () { reachable = false; show("offline"); });
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
