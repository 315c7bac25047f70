// The projector's panels take turns: one shows, the others wait, every data-rotate-seconds. When
// htmx swaps fresh panels in (no reload), the turn goes on from the same position.
(function () {
  "use strict";
  var index = 0;
  function show() {
    var panels = document.querySelectorAll("[data-panel]");
    if (!panels.length) { return; }
    index = index % panels.length;
    panels.forEach(function (panel, i) { panel.hidden = i !== index; });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var seconds = parseInt(document.body.getAttribute("data-rotate-seconds") || "12", 10);
    show();
    setInterval(function () { index += 1; show(); }, Math.max(3, seconds) * 1000);
  });
  document.addEventListener("htmx:afterSwap", show);
})();
