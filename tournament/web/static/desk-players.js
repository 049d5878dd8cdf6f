// The check-in list of the desk (issue 11): the search box filters the players as one
// types (name, club, category or start number; accents and case aside), ArrowDown goes
// to the first shown player's check-in button, ArrowUp/ArrowDown move between players,
// Escape goes back to the search. Enter or Space on a button checks in (htmx swaps the
// row); then the search is cleared and focused again, for the next name.
(function () {
  "use strict";
  // After "Add the player" the page comes back at #name: the cursor is in Name again, so
  // the next player is typed straight away (O-L4). (The browser focuses a fragment's
  // target itself once loaded; at a heading it would move the focus off the field.)
  if (location.hash === "#name") {
    var name = document.getElementById("name");
    if (name) name.focus();
  }
  var search = document.getElementById("player-search");
  var table = document.getElementById("players-table");
  if (!search || !table) return;
  var count = document.getElementById("player-search-count");
  var none = document.getElementById("player-search-none");

  function fold(text) {
    // ß and ẞ as "ss", as a German keyboard without them types it (O-L1: "weiss" finds
    // Weiß, "Weiß" finds Weiss); ä as a, as the accents aside.
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/ß/g, "ss").trim();
  }
  function rows() {
    return Array.prototype.slice.call(table.querySelectorAll("tbody tr.player"));
  }
  function shown() {
    return rows().filter(function (row) { return !row.hidden; });
  }
  function filter() {
    var words = fold(search.value).split(/\s+/).filter(Boolean);
    var n = 0;
    rows().forEach(function (row) {
      // data-search holds name, club and category; the start number is the row's id
      // and matches only whole ("1" is player 1, not 10-19), so Enter on a number
      // checks that player in however many there are.
      var text = fold(row.dataset.search || "");
      var number = row.id.slice(1);
      var match = words.every(function (w) {
        return (/^\d+$/.test(w) && String(Number(w)) === number) || text.indexOf(w) >= 0;
      });
      row.hidden = !match;
      if (match) n += 1;
    });
    if (none) none.hidden = n > 0;
    if (count) count.textContent = search.value ? n + " / " + rows().length : "";
  }
  function buttonOf(row) {
    return row && row.querySelector("button.check-button, a");
  }
  // The shown rows one can move to: a withdrawn player's row has no button.
  function reachable() {
    return shown().filter(function (row) { return buttonOf(row); });
  }
  search.addEventListener("input", filter);
  search.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown") {
      var first = buttonOf(reachable()[0]);
      if (first) { event.preventDefault(); first.focus(); }
    } else if (event.key === "Enter") {
      // Enter in the search checks in the one player it leaves.
      var left = shown();
      event.preventDefault();
      if (left.length === 1) {
        var button = left[0].querySelector("button.check-button[data-action='check-in']");
        if (button) button.click();
      }
    }
  });
  table.addEventListener("keydown", function (event) {
    var row = event.target.closest("tr.player");
    if (!row) return;
    var list = reachable();
    var at = list.indexOf(row);
    var next = null;
    if (event.key === "ArrowDown") next = list[at + 1];
    else if (event.key === "ArrowUp") next = at > 0 ? list[at - 1] : null;
    else if (event.key === "Escape") { event.preventDefault(); search.focus(); search.select(); return; }
    else return;
    event.preventDefault();
    if (next) buttonOf(next).focus();
    else if (event.key === "ArrowUp") search.focus();
  });
  document.body.addEventListener("htmx:afterSwap", function (event) {
    search.value = "";
    filter();
    search.focus();
  });
})();
