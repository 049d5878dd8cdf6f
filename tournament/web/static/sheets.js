// The scoresheet desk (desk/sheets/page.html), where htmx does not reach. What the typist
// types lands on the table whose names are shown beside it (O-S1, O-H1):
// - The cursor moves from "Table" to Bummerl 1 only once the match of the typed number is
//   shown: by itself when the number can be no other table (the round's tables are on the
//   field), or on Enter/Tab. Keys typed before the match arrives are kept and go to
//   Bummerl 1 then; none of them ever lands in "Table".
// - While the cursor is in a Bummerl, the match shown never changes under it.
// - Enter in an empty Bummerl stores nothing.
// - No input is switched off or hidden while a line is typed: a Bummerl beyond the one that
//   decides the match is only marked "not needed" (the server refuses it if typed).
// - "Table" takes only what can be a table of the round (N-H1). A key that cannot (a space,
//   "/", a digit making a number no table has), or Enter/Tab on a table with no open match
//   (decided, or none), holds the field: it says so and takes no key until Escape,
//   Backspace or Enter/Tab; the tally typed on goes nowhere, never into "Table" and never
//   to a control beyond it.
// - Typing never Tabs onto a control that acts (Undo, the signature, a forfeit): Tab goes
//   Table -> Bummerl 1 -> ... -> the last Bummerl -> "Store" and no further (N-H1, N-M1).
//   Escape first lets Tab leave the sheet, and puts the signature in the Tab order.
(function () {
  "use strict";
  var pending = false;  // asked to move on to Bummerl 1; the typed table's match is on its way
  var buffer = [];      // keys typed meanwhile, for Bummerl 1
  var sent = false;     // the form is on its way: a second Enter sends nothing
  var held = false;     // "Table" names no open match here and the typist typed on: nothing taken
  var leaving = false;  // Escape pressed: the next Tab may leave the sheet

  function table() { return document.getElementById("sheet-table"); }
  function panel() { return document.getElementById("sheet-panel"); }
  function tallies() { return Array.prototype.slice.call(document.querySelectorAll(".tally-input")); }
  function isTally(el) { return !!el && el.classList && el.classList.contains("tally-input"); }
  function typedTable() { var field = table(); return field ? field.value.trim() : ""; }
  // The panel answers for what "Table" says now (a match, or why there is none).
  function settled() { var p = panel(); return !!p && p.dataset.typed === typedTable(); }
  // ... and shows that table's match.
  function shown() { var p = panel(); return settled() && !!p.dataset.match; }

  function oneTableOnly(text) {
    // "4" among tables 1-9 can be no other table; "1" among 1-12 can (10, 11, 12).
    if (!/^\d+$/.test(text)) return false;
    var tables = (table().dataset.tables || "").split(" ").filter(Boolean);
    var number = String(parseInt(text, 10));
    if (tables.indexOf(number) < 0) return false;
    return !tables.some(function (t) { return t !== number && t.indexOf(number) === 0; });
  }

  function cancel() { pending = false; buffer = []; }

  function hold() {
    // Nothing typed from now on is kept; the note says why and what to do.
    cancel();
    held = true;
    var note = document.getElementById("sheet-held");
    if (note) note.hidden = false;
    table().setAttribute("aria-invalid", "true");
  }

  function release() {
    held = false;
    var note = document.getElementById("sheet-held");
    if (note) note.hidden = true;
    var field = table();
    if (field) field.removeAttribute("aria-invalid");
  }

  function possible(text) {
    // Digits that are, or may still become, a table of the round ("1" among 1-12; not "17").
    if (!/^\d*$/.test(text)) return false;
    if (!text) return true;
    var tables = (table().dataset.tables || "").split(" ").filter(Boolean);
    if (!tables.length) return true;
    return tables.some(function (t) { return t.indexOf(text) === 0; });
  }

  function afterKey(field, key) {
    // What "Table" would hold if the key were let in (a selection is replaced).
    var start = field.selectionStart === null ? field.value.length : field.selectionStart;
    var end = field.selectionEnd === null ? start : field.selectionEnd;
    return field.value.slice(0, start) + key + field.value.slice(end);  // a space counts
  }

  function moveOn() {
    // To Bummerl 1 of the match shown, then the keys typed while it was on its way.
    var keys = buffer;
    cancel();
    var first = tallies()[0];
    if (!shown() || !first) {
      // No sheet to type here (the panel says why): the keys typed on go nowhere.
      if (keys.length || document.activeElement === table()) hold();
      return;
    }
    first.focus();
    first.setSelectionRange(first.value.length, first.value.length);
    keys.forEach(replay);
  }

  function replay(key) {
    var input = document.activeElement;
    if (!isTally(input)) return;
    if (key === "Tab") {
      var all = tallies();
      var next = all[all.indexOf(input) + 1] || storeButton();
      if (next) next.focus();
    } else if (key === "Enter") {
      store(input);
    } else {
      input.value = key === "Backspace" ? input.value.slice(0, -1) : input.value + key;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }

  function store(input) {
    // Enter in a Bummerl: stores the sheet, never from an empty Bummerl.
    var empty = document.getElementById("sheet-empty");
    if (!input.value.trim()) {
      if (empty) empty.hidden = false;
      return;
    }
    var form = document.getElementById("sheet-form");
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  function storeButton() { return document.getElementById("sheet-store"); }
  function signedBox() { return document.querySelector("#sheet-form input[name=signed]"); }

  // Escape is the deliberate step out of typing: only then may Tab leave the sheet, and
  // the signature box joins the Tab order (a keyboard user signs with Escape, Tab or
  // Shift+Tab, Space) until the cursor is back in a line being typed (N-M1).
  function letOut() {
    leaving = true;
    var box = signedBox();
    if (box) box.tabIndex = 0;
  }

  function onTableKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    var key = event.key;
    if (key === "Escape") {
      release();
      cancel();
      letOut();  // a deliberate step: the next Tab may leave the sheet
      event.target.select();
      return;
    }
    if (key === "Tab" && leaving) return;
    leaving = false;
    if (held) {
      if (key === "Backspace" || key === "Delete" || (key === "Tab" && event.shiftKey)) {
        release();
        return;
      }
      // Enter and Tab too: the table shown is not the one the typist meant.
      if (key.length === 1 || key === "Enter" || key === "Tab") event.preventDefault();
      return;
    }
    if (pending) {
      if (key === "Escape" || (key === "Tab" && event.shiftKey) || (key === "Backspace" && !buffer.length)) {
        cancel();
        return;
      }
      if ((key === "Enter" || key === "Tab") && !buffer.length) {
        event.preventDefault();  // "move on" pressed again: it is under way
        return;
      }
      if (key.length === 1 || key === "Enter" || key === "Tab" || key === "Backspace") {
        event.preventDefault();
        buffer.push(key);
      }
      return;
    }
    if (key.length === 1) {
      // Only what can be a table number is let into "Table".
      if (!possible(afterKey(event.target, key))) {
        event.preventDefault();
        hold();
      }
      return;
    }
    if (key !== "Enter" && !(key === "Tab" && !event.shiftKey)) return;
    if (key === "Enter") event.preventDefault();  // Enter in "Table" never stores anything
    if (!typedTable()) return;  // an empty "Table": Tab moves on as anywhere
    event.preventDefault();  // never past "Table" but to Bummerl 1
    if (shown()) {
      if (tallies().length) moveOn();
      else hold();  // a decided table: the panel says so, the tally typed on goes nowhere
    } else if (!settled()) {
      pending = true;  // the match of this number comes: then on to Bummerl 1
    } else {
      hold();  // no match has this number: the panel says why
    }
  }

  function onTableInput() {
    if (!oneTableOnly(typedTable())) return;
    if (shown()) moveOn();
    else if (!settled()) pending = true;  // its match is on its way (none comes for a settled one)
  }

  function onTallyKey(event) {
    if (event.key === "Escape") { letOut(); return; }
    if (event.key === "Tab" && !event.shiftKey && !leaving) {
      // The typing Tab order ends at "Store": never onto the signature or a forfeit.
      var all = tallies();
      if (isTally(event.target) && event.target === all[all.length - 1] && storeButton()) {
        event.preventDefault();
        storeButton().focus();
      } else if (event.target === storeButton()) {
        event.preventDefault();
      }
      return;
    }
    if (event.key === "Tab") { leaving = false; return; }
    if (event.key !== "Enter" || !isTally(event.target)) return;
    event.preventDefault();
    if (event.repeat) return;
    store(event.target);
  }

  function markNeeded() {
    var check = document.getElementById("sheet-check");
    if (!check || !check.dataset.inputs) return;
    var needed = parseInt(check.dataset.inputs, 10);
    var decided = check.dataset.decided === "yes";
    document.querySelectorAll(".bummerl-row").forEach(function (row) {
      var input = row.querySelector("input");
      row.classList.toggle("not-needed", decided && parseInt(row.dataset.row, 10) > needed);
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
    var form = document.getElementById("sheet-form");
    // The suggested table selected: the number typed replaces it (autofocus may come later).
    if (form.dataset.select === "yes") field.select();
    if (isTally(document.activeElement)) {
      var at = document.activeElement.value.length;  // a refused sheet: on, not over, the Bummerl
      document.activeElement.setSelectionRange(at, at);
    }
    field.addEventListener("keydown", onTableKey);
    field.addEventListener("input", onTableInput);
    form.addEventListener("keydown", onTallyKey);
    // Which Bummerl line the cursor is in, for the check to read it as still being typed.
    form.addEventListener("focusin", function (event) {
      var typing = document.getElementById("sheet-typing");
      if (typing) typing.value = isTally(event.target) ? event.target.id.replace("bummerl-", "") : "";
      var box = signedBox();
      if (box && (isTally(event.target) || event.target === table())) box.tabIndex = -1;
    });
    form.addEventListener("focusout", function (event) {
      var typing = document.getElementById("sheet-typing");
      if (typing && isTally(event.target)) typing.value = "";
    });
    form.addEventListener("input", function (event) {
      var empty = document.getElementById("sheet-empty");
      if (isTally(event.target) && empty) empty.hidden = true;
    });
    form.addEventListener("submit", function (event) {
      // Only the sheet of the match shown, once, and never without a Bummerl.
      var typed = tallies().some(function (input) { return input.value.trim(); });
      if (sent || !shown() || !typed) {
        event.preventDefault();
        return;
      }
      sent = true;
      // A check still under way would be cut off by the page leaving: no more of them.
      tallies().forEach(function (input) { htmx.trigger(input, "htmx:abort"); });
    });
    field.addEventListener("blur", cancel);
    field.addEventListener("htmx:beforeRequest", function (event) {
      // The match of this very table is shown already (the number suggested and typed
      // again): asking again would swap the panel under the cursor.
      if (shown()) event.preventDefault();
    });
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (sent) event.preventDefault();  // the sheet is being stored: the page leaves
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target) return;
    if (target.id === "sheet-panel" && isTally(document.activeElement)) {
      event.detail.shouldSwap = false;  // never another match under a Bummerl being typed
    }
    if (target.id === "sheet-check") {
      // A check of the match shown before: not this panel's.
      var p = panel();
      var match = /data-match="([^"]*)"/.exec(event.detail.serverResponse || "");
      if (p && match && match[1] !== p.dataset.match) event.detail.shouldSwap = false;
    }
  });
  // The typed table's match cannot come (the server or the network failed): the keys kept
  // for Bummerl 1 are dropped, never let into "Table".
  ["htmx:sendError", "htmx:responseError"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (event.detail.elt === table()) cancel();
    });
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (pending && settled()) moveOn();  // the typed table's match has come
    markNeeded();
  });
})();
