/* memgov: small progressive enhancements. Every page works without this file (CSP: script-src 'self'). */
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  function normalize(text) {
    return (text || "").normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
  }

  /* The list: narrow the cards already on the page while typing (the form still searches on submit). */
  function liveFilter(form) {
    var input = form.querySelector("input[type=search]");
    if (!input) return;
    input.addEventListener("input", function () {
      var needle = normalize(input.value);
      document.querySelectorAll("[data-group]").forEach(function (group) {
        var shown = 0;
        group.querySelectorAll(".memory").forEach(function (card) {
          var match = !needle || normalize(card.textContent).indexOf(needle) !== -1;
          card.hidden = !match;
          if (match) shown += 1;
        });
        var count = group.querySelector(".group__count");
        if (count) count.textContent = String(shown);
      });
    });
  }

  /* The list's bulk bar: how many are ticked, its buttons only when some are, and "select all shown". */
  function bulkBar(form) {
    var boxes = function () { return document.querySelectorAll("input[data-select][form=" + form.id + "]"); };
    var count = form.querySelector("[data-bulk-count]");
    var all = form.querySelector("[data-bulk-all]");
    var hint = count.textContent;
    function update() {
      var ticked = Array.prototype.filter.call(boxes(), function (box) { return box.checked; }).length;
      var over = ticked > Number(count.getAttribute("data-limit"));
      count.textContent = over ? count.getAttribute("data-limit-label")
        : ticked ? count.getAttribute("data-label") + " " + ticked : hint;
      form.querySelectorAll("button[type=submit]").forEach(function (button) { button.disabled = !ticked || over; });
    }
    all.hidden = false;
    all.addEventListener("click", function () {
      boxes().forEach(function (box) { if (!box.closest(".memory").hidden) box.checked = true; });
      update();
    });
    document.addEventListener("change", function (event) {
      if (event.target.matches && event.target.matches("input[data-select]")) update();
    });
    update();
  }

  /* Commands: an example fills the box, by click or keyboard. */
  function examples(form) {
    var input = form.querySelector("input[name=text]");
    document.querySelectorAll(".example").forEach(function (example) {
      example.setAttribute("tabindex", "0");
      example.setAttribute("role", "button");
      function use() {
        input.value = example.textContent.trim();
        input.focus();
      }
      example.addEventListener("click", use);
      example.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          use();
        }
      });
    });
  }

  /* Copy buttons (a hash, a key): to the clipboard, with a mark that it worked. */
  function copyButton(button) {
    button.addEventListener("click", function (event) {
      event.stopPropagation();
      var text = button.getAttribute("data-copy");
      var done = function () { button.setAttribute("data-copied", ""); };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () {});
      }
    });
  }

  /* Table rows that open a full record: a click anywhere on the row but its own links and buttons. */
  function rowLink(row) {
    row.addEventListener("click", function (event) {
      if (event.target.closest("a, button")) return;
      window.location.href = row.getAttribute("data-href");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("button[data-copy]").forEach(copyButton);
    document.querySelectorAll("tr[data-href]").forEach(rowLink);
    document.querySelectorAll("form[data-live-filter]").forEach(liveFilter);
    document.querySelectorAll("form[data-bulk]").forEach(bulkBar);
    document.querySelectorAll("form[data-command-form]").forEach(examples);
  });
})();
