// The scoresheet desk (desk/sheets/page.html), where htmx does not reach: the table
// number moves on to the first Bummerl once it names one table only (or on Enter), and
// the Bummerl inputs beyond the one that decides the match are taken away (the server's
// check says how many the sheet needs).
(function () {
  "use strict";
  function table() { return document.getElementById("sheet-table"); }
  function firstTally() { return document.querySelector(".tally-input:not([disabled])"); }

  function moveOnWhenUnique() {
    var field = table();
    var panel = document.getElementById("sheet-panel");
    if (!field || !panel || document.activeElement !== field) return;
    if (panel.dataset.unique === "yes" && panel.dataset.table === field.value.trim()) {
      var first = firstTally();
      if (first) first.focus();
    }
  }

  function showNeededInputs() {
    var check = document.getElementById("sheet-check");
    if (!check || !check.dataset.inputs) return;
    var needed = parseInt(check.dataset.inputs, 10);
    document.querySelectorAll(".bummerl-row").forEach(function (row) {
      var beyond = parseInt(row.dataset.row, 10) > needed;
      var input = row.querySelector("input");
      row.hidden = beyond;
      input.disabled = beyond;
      input.removeAttribute("aria-invalid");
    });
    check.querySelectorAll("[data-for]").forEach(function (line) {
      var input = document.getElementById("bummerl-" + line.dataset.for);
      if (input) input.setAttribute("aria-invalid", "true");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var field = table();
    if (!field) return;
    if (field.value) field.select();
    field.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();  // Enter in "Table" goes on to the sheet, it stores nothing
      var first = firstTally();
      if (first) first.focus();
    });
    field.addEventListener("input", moveOnWhenUnique);
    field.addEventListener("htmx:beforeRequest", function (event) {
      // The match of this very table is shown already (the number suggested and typed
      // again): asking again would swap the panel under the cursor.
      var panel = document.getElementById("sheet-panel");
      if (panel && panel.dataset.table === field.value.trim()) event.preventDefault();
    });
  });
  document.addEventListener("htmx:afterSettle", function () {
    moveOnWhenUnique();
    showNeededInputs();
  });
})();
