// The round clock: every element with data-seconds-left counts down from what the server said
// (the deadline itself is held on the server; a reload or an htmx swap starts again from its
// figure, so a phone's wrong clock never matters). Past zero it counts the time over.
(function () {
  "use strict";
  var started = Date.now();
  function format(seconds) {
    var m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function tick() {
    var elapsed = Math.floor((Date.now() - started) / 1000);
    document.querySelectorAll("[data-seconds-left]").forEach(function (el) {
      var base = el.__clockBase;
      if (base === undefined || el.__clockFrom !== el.getAttribute("data-seconds-left")) {
        el.__clockFrom = el.getAttribute("data-seconds-left");
        el.__clockBase = base = parseInt(el.__clockFrom, 10) + elapsed;
      }
      var left = base - elapsed;
      var out = el.querySelector("[data-clock-text]") || el;
      out.textContent = left >= 0 ? format(left) : "+" + format(-left);
      el.classList.toggle("over", left < 0);
    });
  }
  document.addEventListener("DOMContentLoaded", tick);
  setInterval(tick, 1000);
})();
