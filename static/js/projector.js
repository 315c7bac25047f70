// The projector's panels take turns: one shows, the others wait, every data-rotate-seconds. When
// htmx swaps fresh panels in (no reload), the turn goes on from the same position.
//
// The panel shown gets the largest type at which it fits its box (static/css/projector.css): a
// binary search on the font size, for 1 to 4 columns of names, between 9% and 2.3% of the
// screen's height. 12 names come out large; a full panel of 40 still fits at the smallest size.
(function () {
  "use strict";
  var index = 0;
  var LARGEST = 0.09;
  var SMALLEST = 0.023;

  function fits(panel, list) {
    if (panel.scrollHeight > panel.clientHeight + 1 || panel.scrollWidth > panel.clientWidth + 1) { return false; }
    if (list.scrollWidth > list.clientWidth + 1 || list.scrollHeight > list.clientHeight + 1) { return false; }
    var lines = list.querySelectorAll("li, th, td");
    for (var i = 0; i < lines.length; i += 1) {
      if (lines[i].scrollWidth > lines[i].clientWidth + 1) { return false; }
    }
    return true;
  }

  // The largest font size (px) in [low, high] at which `panel` fits, or 0 when even `low` does not.
  function largest(panel, list, low, high) {
    list.style.fontSize = low + "px";
    if (!fits(panel, list)) { return 0; }
    while (high - low > 0.5) {
      var middle = (low + high) / 2;
      list.style.fontSize = middle + "px";
      if (fits(panel, list)) { low = middle; } else { high = middle; }
    }
    return low;
  }

  function fit(panel) {
    var list = panel.querySelector(".names, .board");
    if (!list || window.innerWidth <= 700) { return; }  // a phone: the page scrolls (projector.css)
    panel.classList.remove("wraps");
    var height = window.innerHeight;
    var low = SMALLEST * height;
    var high = LARGEST * height;
    var best = { size: 0, columns: 1 };
    var names = list.classList.contains("names");
    var counts = names ? [1, 2, 3, 4] : [0];
    var items = list.querySelectorAll("li").length;
    counts.forEach(function (columns) {
      if (names && columns > 1 && Math.ceil(items / columns) === Math.ceil(items / (columns - 1))) { return; }
      if (names) { list.style.columnCount = String(columns); }
      var size = largest(panel, list, low, high);
      if (size > best.size) { best = { size: size, columns: columns }; }
    });
    if (names) { list.style.columnCount = String(best.columns || 4); }
    if (best.size) {
      list.style.fontSize = best.size + "px";
    } else {
      list.style.fontSize = low + "px";
      panel.classList.add("wraps");
    }
    panel.setAttribute("data-font-px", String(Math.floor(best.size || low)));
  }

  function show() {
    var panels = document.querySelectorAll("[data-panel]");
    if (!panels.length) { return; }
    index = index % panels.length;
    panels.forEach(function (panel, i) { panel.hidden = i !== index; });
    fit(panels[index]);
  }
  document.addEventListener("DOMContentLoaded", function () {
    var seconds = parseInt(document.body.getAttribute("data-rotate-seconds") || "12", 10);
    show();
    setInterval(function () { index += 1; show(); }, Math.max(3, seconds) * 1000);
    window.addEventListener("resize", show);
  });
  document.addEventListener("htmx:afterSwap", show);
})();
