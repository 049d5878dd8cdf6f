// The new-tournament form (issue 11): show only the chosen format's options, and
// suggest the id the server will make from the name and the date when the id is left
// empty (tournament.domain.overview.slug; the server's is what counts).
(function () {
  "use strict";
  var form = document.querySelector("form.new-tournament");
  if (!form) return;
  var format = form.querySelector("#format");
  function showOptions() {
    form.querySelectorAll("fieldset.format-options").forEach(function (set) {
      set.hidden = set.dataset.format !== format.value;
    });
  }
  format.addEventListener("change", showOptions);
  showOptions();

  var id = form.querySelector("#id");
  var name = form.querySelector("#name");
  var date = form.querySelector("#date");
  // Today's date is suggested: selected as the cursor arrives, a date typed replaces it
  // instead of being appended to it (N-L1).
  date.addEventListener("focus", function () { date.select(); });
  date.addEventListener("mouseup", function (event) {
    if (date.dataset.picked !== "yes") event.preventDefault();  // the click keeps the selection
    date.dataset.picked = "yes";
  });
  date.addEventListener("blur", function () { date.dataset.picked = ""; });
  function isoDate(text) {
    var t = text.trim();
    if (/^\d{4}-\d{2}-\d{2}$/.test(t)) return t;
    var m = /^(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{4})\.?$/.exec(t);
    if (!m) return "";
    return m[3] + "-" + ("0" + m[2]).slice(-2) + "-" + ("0" + m[1]).slice(-2);
  }
  function suggest() {
    var text = name.value.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
    text = text || "tournament";
    var day = isoDate(date.value);
    id.placeholder = day ? text + "-" + day : text;
  }
  name.addEventListener("input", suggest);
  date.addEventListener("input", suggest);
  suggest();
})();
