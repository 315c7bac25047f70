// Polled parts of the event pages refresh while the page is visible: every few seconds (the
// body's data-poll-seconds, 5 by default) the body gets a "visible-tick" event, and at once when
// the page comes back into view. htmx listens for it (hx-trigger="visible-tick from:body"); a
// hidden tab polls nothing. The server answers 304 when nothing moved.
(function () {
  "use strict";
  function tick() {
    if (document.visibilityState === "visible") {
      document.body.dispatchEvent(new CustomEvent("visible-tick"));
    }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var seconds = parseInt(document.body.getAttribute("data-poll-seconds") || "5", 10);
    setInterval(tick, Math.max(1, seconds) * 1000);
  });
  document.addEventListener("visibilitychange", tick);
})();
