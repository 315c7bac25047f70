// htmx trigger filters such as input[target.type=='text'] are JavaScript that htmx evaluates from a
// string, which the Content-Security-Policy refuses (no 'unsafe-eval'). The pages listen for these
// named events instead, raised here from the same conditions.
(function () {
  "use strict";
  document.addEventListener("input", function (event) {
    var type = event.target && event.target.type;
    if (type === "text" || type === "number") {
      event.target.dispatchEvent(new CustomEvent("text-input", { bubbles: true }));
    }
    // A field whose every keystroke is a whole new value (a hole's typed total): its preview follows
    // each keystroke at once, instead of showing the total before the last one for a debounce's time.
    if (event.target && event.target.hasAttribute && event.target.hasAttribute("data-preview-now")) {
      event.target.dispatchEvent(new CustomEvent("preview-now", { bubbles: true }));
    }
  });
  document.addEventListener("change", function (event) {
    if (event.target && event.target.type !== "text") {
      event.target.dispatchEvent(new CustomEvent("non-text-change", { bubbles: true }));
    }
  });
})();
