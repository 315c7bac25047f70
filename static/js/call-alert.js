// Calls for an official on the director's dashboard (issue 31, item 7). The calls box is polled by
// htmx (a few seconds); this script notices a call that was not there before and alerts: a visible
// flash of the box, the page title's count, a message read by screen readers, and - once the
// director has tapped "Turn on sound alerts" - a short beep. Browsers refuse to play sound until
// the person has tapped the page, so sound is off until that tap, and says so.
// Every text shown comes from the page (data-text-* attributes, translated by Django).
// The pure part (CallAlert) is tested with `node --test tests/js/`.
(function (root) {
  "use strict";

  var CallAlert = {
    /** The call ids of a box's data-call-ids ("12 15"), as strings, without blanks. */
    parseIds: function (text) {
      return String(text || "").split(/\s+/).filter(function (id) { return id !== ""; });
    },
    /** The ids in `current` not in `seen`: the calls that just arrived. */
    newIds: function (seen, current) {
      return current.filter(function (id) { return seen.indexOf(id) < 0; });
    },
    /** A count put into the translated singular or plural text ("%(n)s" is the count). */
    countText: function (one, many, n) {
      return (n === 1 ? one : many).replace("%(n)s", String(n));
    },
    /** The page title with the number of open calls in front ("(2) Dashboard"), or as it was. */
    titleWith: function (title, n) {
      var bare = String(title).replace(/^\(\d+\) /, "");
      return n > 0 ? "(" + n + ") " + bare : bare;
    },
  };

  if (typeof module === "object" && module.exports) {
    module.exports = CallAlert;
    return;
  }

  var seen = null;
  var audio = null;
  var soundOn = false;

  function box() { return document.getElementById("dashboard-calls"); }
  function panel() { return document.querySelector("[data-call-alerts]"); }

  function beep() {
    if (!soundOn || !audio) return;
    [0, 0.25].forEach(function (start) {
      var tone = audio.createOscillator(), gain = audio.createGain(), at = audio.currentTime + start;
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.25, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + 0.2);
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.2);
    });
  }

  function check() {
    var current = box(), host = panel();
    if (!current || !host) return;
    var ids = CallAlert.parseIds(current.getAttribute("data-call-ids"));
    document.title = CallAlert.titleWith(document.title, ids.length);
    if (seen === null) { seen = ids; return; } // the calls open when the page opened are on it already
    var fresh = CallAlert.newIds(seen, ids);
    seen = ids;
    if (!fresh.length) return;
    var text = CallAlert.countText(host.dataset.textOne, host.dataset.textMany, fresh.length);
    var live = host.querySelector("[data-call-announce]");
    if (live) live.textContent = text;
    current.classList.add("call-alert-new");
    beep();
  }

  function toggleSound(button, hint) {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { hint.textContent = panel().dataset.textNoSound; return; }
    if (!audio) audio = new Context(); // created in the tap itself: browsers allow sound from here on
    soundOn = !soundOn;
    if (soundOn) audio.resume();
    button.setAttribute("aria-pressed", soundOn ? "true" : "false");
    button.textContent = soundOn ? panel().dataset.textSoundOff : panel().dataset.textSoundOn;
    hint.textContent = soundOn ? panel().dataset.textSoundIsOn : panel().dataset.textSoundHint;
    beep(); // the tap plays the alert once: the director hears what to listen for
  }

  document.addEventListener("DOMContentLoaded", function () {
    var host = panel();
    if (!host) return;
    var button = host.querySelector("[data-sound-toggle]");
    var hint = host.querySelector("[data-sound-hint]");
    if (button && hint) {
      button.hidden = false; // without JavaScript there is no sound to turn on
      hint.textContent = host.dataset.textSoundHint;
      button.addEventListener("click", function () { toggleSound(button, hint); });
    }
    check();
  });
  // htmx raises htmx:load on the content it has just put in the page (the new calls box).
  document.addEventListener("htmx:load", check);
  root.CallAlert = CallAlert;
})(this);
