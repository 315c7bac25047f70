/* Live games: keep the screen awake while scoring, and refresh a shared scoreboard cheaply.
 *
 * [data-wake-lock]            the page asks for a screen wake lock (Wake Lock API, where the browser
 *                             has it) and asks again whenever the page becomes visible, because the
 *                             browser drops the lock each time the tab is hidden.
 * [data-poll-url]             the element is replaced by the URL's HTML every data-poll-interval ms
 *                             (3000 by default), only while the page is visible. The request carries
 *                             If-None-Match with the last ETag, so an unchanged game costs a 304.
 * Everything here is progressive: without JavaScript the pages work and a reload shows the news.
 */
(function () {
  "use strict";

  /* ---- Wake lock ---- */
  var wakeLock = null;

  function setWakeStatus(text) {
    document.querySelectorAll("[data-wake-status]").forEach(function (el) {
      el.textContent = el.getAttribute(text) || "";
    });
  }

  function requestWakeLock() {
    if (!document.querySelector("[data-wake-lock]")) return;
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") {
      if (!("wakeLock" in navigator)) setWakeStatus("data-unsupported");
      return;
    }
    if (wakeLock && !wakeLock.released) return;
    navigator.wakeLock.request("screen").then(function (lock) {
      wakeLock = lock;
      setWakeStatus("data-on");
      lock.addEventListener("release", function () { setWakeStatus("data-off"); });
    }).catch(function () {
      // Refused (battery saver, no user gesture yet, permissions policy): the game works without it.
      setWakeStatus("data-off");
    });
  }

  /* ---- Polling ---- */
  var pollers = [];

  function Poller(el) {
    this.el = el;
    this.url = el.getAttribute("data-poll-url");
    this.interval = parseInt(el.getAttribute("data-poll-interval") || "3000", 10);
    this.etag = el.getAttribute("data-etag") || null;
    this.busy = false;
    this.timer = null;
  }

  Poller.prototype.start = function () {
    var self = this;
    if (this.timer) return;
    this.timer = window.setInterval(function () { self.poll(); }, this.interval);
  };

  Poller.prototype.stop = function () {
    if (this.timer) window.clearInterval(this.timer);
    this.timer = null;
  };

  Poller.prototype.poll = function () {
    var self = this;
    if (this.busy || document.visibilityState !== "visible" || !this.el.isConnected) return;
    this.busy = true;
    var headers = { "X-Requested-With": "fetch" };
    if (this.etag) headers["If-None-Match"] = this.etag;
    fetch(this.url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 304 || !response.ok) return null;
        self.etag = response.headers.get("ETag") || self.etag;
        return response.text();
      })
      .then(function (html) {
        if (html === null || html === undefined) return;
        var holder = document.createElement("div");
        holder.innerHTML = html.trim();
        var fresh = holder.firstElementChild;
        if (!fresh) return;
        self.el.replaceWith(fresh);
        self.el = fresh;
        if (window.htmx) window.htmx.process(fresh);
        var live = document.querySelector("[data-poll-announce]");
        if (live) live.textContent = live.getAttribute("data-poll-announce");
      })
      .catch(function () { /* offline for a moment: the next tick tries again */ })
      .then(function () { self.busy = false; });
  };

  function startPolling() {
    document.querySelectorAll("[data-poll-url]").forEach(function (el) {
      var poller = new Poller(el);
      pollers.push(poller);
      poller.start();
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      requestWakeLock();
      // Catch up at once after the phone was in a pocket instead of waiting for the next tick.
      pollers.forEach(function (p) { p.start(); p.poll(); });
    } else {
      pollers.forEach(function (p) { p.stop(); });
    }
  });

  /* ---- Small helpers for the start form (work without JavaScript too) ---- */
  function wireAddPlayer() {
    var button = document.querySelector("[data-add-player]");
    var list = document.querySelector("[data-player-list]");
    var template = document.getElementById("player-row-template");
    if (!button || !list || !template) return;
    button.addEventListener("click", function (event) {
      var rows = list.querySelectorAll("[data-player-row]");
      var max = parseInt(list.getAttribute("data-max") || "8", 10);
      if (rows.length >= max) return;
      event.preventDefault();
      var index = rows.length + 1;
      var html = template.innerHTML.replace(/__n__/g, String(index));
      list.insertAdjacentHTML("beforeend", html);
      var input = list.querySelector("[data-player-row]:last-child input");
      if (input) input.focus();
      if (index >= max) button.hidden = true;
    });
  }

  /* Tapping a name from earlier games fills the first empty seat (adding a seat when all are full). */
  function wireRecentNames() {
    var box = document.querySelector("[data-recent-names]");
    var list = document.querySelector("[data-player-list]");
    if (!box || !list) return;
    box.hidden = false;
    box.addEventListener("click", function (event) {
      var button = event.target.closest("[data-recent-name]");
      if (!button) return;
      var name = button.getAttribute("data-recent-name");
      var inputs = Array.prototype.slice.call(list.querySelectorAll("input[name='player']"));
      var taken = inputs.some(function (i) { return i.value.trim().toLowerCase() === name.toLowerCase(); });
      if (taken) return;
      var empty = inputs.filter(function (i) { return !i.value.trim(); })[0];
      if (!empty) {
        var add = document.querySelector("[data-add-player]");
        if (add && !add.hidden) add.click();
        inputs = list.querySelectorAll("input[name='player']");
        empty = inputs[inputs.length - 1];
        if (empty.value.trim()) return;
      }
      empty.value = name;
      button.disabled = true;
    });
  }

  /* Copy buttons next to the share links (shown only where the Clipboard API exists). */
  function wireCopyButtons() {
    if (!navigator.clipboard) return;
    document.querySelectorAll("[data-copy-target]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = document.getElementById(button.getAttribute("data-copy-target"));
        if (!input) return;
        navigator.clipboard.writeText(input.value).then(function () {
          button.textContent = button.getAttribute("data-copied") || button.textContent;
        }).catch(function () { input.select(); });
      });
    });
  }

  /* A hole being entered survives a reload, a dead battery or a rejected save: [data-draft-key] forms
     keep their fields in localStorage until the server has accepted the hole. The answer to an accepted
     save sets the cookie golf_draft_done=<draft key> (scoring/web/games/_drafts.py); whichever page runs
     this script next drops that draft. A fresh form (data-draft-restore="1") is refilled from its draft
     whatever it already holds (the scorer's name, filled by the app); a form the server re-rendered
     (errors, or a 409 with the cards moved on to the next hole) is what was sent, so it becomes the draft,
     and a 409's [data-draft-drop] names the draft of the hole that was saved meanwhile. */
  function dropDoneDraft() {
    var match = document.cookie.match(/(?:^|;\s*)golf_draft_done=([\w-]+)/);
    if (!match) return;
    try { localStorage.removeItem("golf-draft:" + match[1]); } catch (e) { /* storage off */ }
    document.cookie = "golf_draft_done=; Max-Age=0; Path=/; SameSite=Lax";
  }

  function wireDrafts() {
    if (!window.localStorage) return;
    dropDoneDraft();
    var form = document.querySelector("form[data-draft-key]");
    if (!form) return;
    var key = "golf-draft:" + form.getAttribute("data-draft-key");
    var dropped = form.getAttribute("data-draft-drop");
    if (dropped) localStorage.removeItem("golf-draft:" + dropped);
    var fields = function () {
      return Array.prototype.filter.call(form.elements, function (el) {
        return el.name && el.name !== "csrfmiddlewaretoken" && el.name !== "idempotency_key" && el.type !== "hidden";
      });
    };
    var store = function () {
      var data = {};
      fields().forEach(function (el) {
        if (el.type === "radio") { if (el.checked) data[el.name] = el.value; }
        else if (el.value) data[el.name] = el.value;
      });
      try { localStorage.setItem(key, JSON.stringify(data)); } catch (e) { /* storage full or off */ }
    };
    var saved = null;
    try { saved = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { saved = null; }
    var cards = saved && Object.keys(saved).some(function (name) { return name !== "scorer"; });
    if (form.getAttribute("data-draft-restore") !== "1") {
      store();
    } else if (cards) {
      fields().forEach(function (el) {
        if (!(el.name in saved)) return;
        if (el.type === "radio") el.checked = saved[el.name] === el.value;
        else el.value = saved[el.name];
      });
      if (window.GridEntry && window.GridEntry.restored) window.GridEntry.restored();
      form.dispatchEvent(new Event("change", { bubbles: true }));
      var note = document.querySelector("[data-draft-note]");
      if (note) note.hidden = false;
    }
    form.addEventListener("input", store);
    form.addEventListener("change", store);
    form.addEventListener("grid-entry:change", store);
  }

  /* Once a hole form is being sent, no more live previews: the save answers with the scores anyway. */
  document.addEventListener("submit", function (event) {
    if (event.target.matches && event.target.matches("form[data-live-preview]")) {
      event.target.setAttribute("data-submitting", "");
    }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.querySelector("form[data-live-preview][data-submitting]")) event.preventDefault();
  });

  /* The live preview is redrawn while the scorer types: a score's breakdown that was open stays open,
   * and the keyboard focus stays on the same score (or the sheet's Close button). */
  var previewState = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var box = event.detail.target;
    if (!box || box.id !== "preview-box") return;
    var open = box.querySelector("[popover]:popover-open");
    var focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement : null;
    previewState = { open: open ? open.id : null, focus: focused && focused.id ? focused.id : null,
      closeFocused: !!(focused && focused.classList.contains("why-close")) };
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var box = event.detail.target;
    if (!box || box.id !== "preview-box" || !previewState) return;
    var state = previewState;
    previewState = null;
    var sheet = state.open && document.getElementById(state.open);
    if (sheet && sheet.showPopover) {
      sheet.showPopover();
      if (state.closeFocused) {
        var close = sheet.querySelector(".why-close");
        if (close) close.focus({ preventScroll: true });
      }
    }
    var button = state.focus && document.getElementById(state.focus);
    if (button && !state.closeFocused) button.focus({ preventScroll: true });
  });

  /* Phone number pads often lack a minus sign: a ± button next to each typed total flips its sign. */
  function wireNegate() {
    document.querySelectorAll("[data-negate]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var input = document.getElementById(button.getAttribute("data-negate"));
        if (!input) return;
        var value = input.value.trim();
        input.value = value.charAt(0) === "-" ? value.slice(1) : "-" + value;
        input.dispatchEvent(new Event("input", { bubbles: true }));
        input.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    wireNegate();
    wireDrafts();
    wireCopyButtons();
    requestWakeLock();
    startPolling();
    wireAddPlayer();
    wireRecentNames();
  });
  // Wake lock requests can need a user gesture in some browsers: retry on the first tap.
  document.addEventListener("click", function () { requestWakeLock(); }, { once: true, capture: true });
})();

/* ==== i11 phone board: the scorecard shows its latest holes ====
 * On a phone only four or five hole columns fit beside the names and the pinned Total. Each scorecard
 * scroll box starts scrolled to its right end, so the latest holes and the Total show at once; earlier
 * holes are a swipe to the right. The live scoreboard is replaced by polling: a MutationObserver on its
 * parent does the same for every new copy. Without JavaScript the table starts at hole 1 and swipes. */
(function () {
  "use strict";

  function showLatestHoles(root) {
    (root || document).querySelectorAll(".scorecard-wrap").forEach(function (box) {
      box.scrollLeft = box.scrollWidth;
    });
  }

  function watchSwaps() {
    var board = document.getElementById("scoreboard");
    if (!board || !board.parentNode || !("MutationObserver" in window)) return;
    new MutationObserver(function (records) {
      records.forEach(function (record) {
        record.addedNodes.forEach(function (node) {
          if (node.nodeType === 1 && node.id === "scoreboard") showLatestHoles(node);
        });
      });
    }).observe(board.parentNode, { childList: true });
  }

  document.addEventListener("DOMContentLoaded", function () {
    showLatestHoles(document);
    watchSwaps();
  });
})();
