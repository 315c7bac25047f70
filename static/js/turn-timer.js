// The turn timer (issue 33, seed 003's "per-player clock") on a live game's page and on the offline
// shell's scoreboard: one big button passes the turn, the player left of the dealer starts the hole,
// then clockwise; each player's time this hole and this game; an optional limit per turn warns
// (visibly, and by vibration or a short beep where the phone allows); pause and resume.
//
// The clock and its state are static/js/turn-timer-state.js (load it first); the state is kept in
// localStorage per game ("golf-turn-timer:<edit token>", or the offline game's own id until the
// server gave it a token), so a reload or a phone asleep loses nothing.
//
// The times reach the server as the phone's running totals per hole and seat
// (PUT /api/v1/games/{token}/turn-times/, which keeps the larger of stored and sent values, so a
// report sent twice or late changes nothing): when a hole ends (its "Score hole" button) or a new
// hole shows, through the offline queue (GolfSync: in order, its own Idempotency-Key, sent when the
// connection returns), and, as the page is left with a connection, by a keepalive request.
//
// Every word comes from the page ([data-t] texts inside the timer, translated by Django).
(function (root) {
  "use strict";

  var TurnTimer = root.GolfTurnTimerState;
  if (!TurnTimer || !root.document) return;
  var STORAGE_PREFIX = TurnTimer.STORAGE_PREFIX;
  var LIMIT_KEY = "golf-turn-timer-limit"; // the last limit set: a new game starts with it
  var create = TurnTimer.create, startHole = TurnTimer.startHole, tap = TurnTimer.tap, pause = TurnTimer.pause;
  var resume = TurnTimer.resume, endHole = TurnTimer.endHole, elapsed = TurnTimer.elapsed;
  var isRunning = TurnTimer.isRunning, hasTurn = TurnTimer.hasTurn, overLimit = TurnTimer.overLimit;
  var setLimit = TurnTimer.setLimit, totals = TurnTimer.totals, report = TurnTimer.report;
  var parse = TurnTimer.parse, formatMs = TurnTimer.formatMs;
  var GolfTurnTimer = root.GolfTurnTimer = {}; // the offline shell's hook: inShell (below)
  var active = null; // the timer on the page (the offline shell draws its board again and again)
  var inFlight = null; // the report being queued: {state, changes}

  function storage() { try { return root.localStorage; } catch (error) { return null; } }

  function textsOf(box) {
    var texts = {};
    box.querySelectorAll("[data-t]").forEach(function (el) { texts[el.getAttribute("data-t")] = el.textContent; });
    return function (key, values) {
      return String(texts[key] || key).replace(/\{(\w+)\}/g, function (all, name) {
        return values && values[name] !== undefined ? values[name] : all;
      });
    };
  }

  /** The stored state of this game (its first key found), made anew when there is none. */
  function load(keys, players) {
    var store = storage();
    for (var i = 0; store && i < keys.length; i += 1) {
      var found = keys[i] && parse(store.getItem(STORAGE_PREFIX + keys[i]), players);
      if (found) return found;
    }
    return create(players, store ? Number(store.getItem(LIMIT_KEY)) || 0 : 0);
  }

  /** The timer in `box` ([data-turn-timer]) for `options` = {keys, token, gameId, players, hole,
   * limits}: drawn, wired and kept; answers its controller (stop()). */
  function mount(box, options) {
    // The offline shell draws its board again after every change: the same game keeps its state
    // object (a send still under way updates it), another game's is read from storage.
    var same = active && active.key === options.keys[0];
    var state = same ? active.state() : load(options.keys, options.players);
    if (active) active.stop();
    var t = textsOf(box);
    var ticker = null;
    var audio = null;
    var el = function (name) { return box.querySelector("[data-tt-" + name + "]"); };
    var lastAnnounced = "";

    function save() {
      var store = storage();
      if (!store) return;
      try { store.setItem(STORAGE_PREFIX + options.keys[0], JSON.stringify(state)); } catch (error) { /* full: the clock still runs */ }
    }

    function send() {
      var changes = state.changes;
      if (changes <= state.sentChanges || (inFlight && inFlight.state === state && inFlight.changes >= changes)) return Promise.resolve();
      var body = report(state, Date.now(), options.limits, false);
      if (!body.holes.length) return Promise.resolve();
      var mine = inFlight = { state: state, changes: changes };
      return queue(body).then(function (queued) {
        if (queued) {
          state.sentChanges = Math.max(state.sentChanges, changes);
          save();
        }
      }, function () {}).then(function () { if (inFlight === mine) inFlight = null; });
    }

    /** The shell's game: through the offline queue, in order with its holes. The live page: straight
     * to the API with a connection (keepalive: it survives the page moving on to the hole form; a
     * queued write would make that form wait behind it), through the queue without one. */
    function queue(body) {
      if (options.gameId) return enqueue(options.gameId, body);
      var online = !(root.navigator && root.navigator.onLine === false);
      var direct = online && options.token ? put(body, true).then(function (r) { return r.ok; }, function () { return false; }) : Promise.resolve(false);
      return direct.then(function (sent) {
        if (sent || !root.GolfStore || !options.token) return sent;
        return root.GolfStore.gameByToken(options.token).then(function (record) { return record ? enqueue(record.id, body) : false; });
      });
    }

    function enqueue(gameId, body) {
      if (!root.GolfSync) return Promise.resolve(false);
      return root.GolfSync.enqueue({ gameId: gameId, kind: "turn-times", method: "PUT", path: "/api/v1/games/{token}/turn-times/", body: body })
        .then(function () { return true; });
    }

    function put(body, keepalive) {
      return root.fetch("/api/v1/games/" + encodeURIComponent(options.token) + "/turn-times/", {
        method: "PUT", headers: { "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify(body), credentials: "same-origin", keepalive: keepalive,
      });
    }

    function beep() {
      if (!audio) return;
      try {
        var tone = audio.createOscillator(), gain = audio.createGain(), at = audio.currentTime;
        tone.frequency.value = 880;
        gain.gain.setValueAtTime(0.2, at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + 0.25);
        tone.connect(gain);
        gain.connect(audio.destination);
        tone.start(at);
        tone.stop(at + 0.25);
      } catch (error) { /* no sound on this phone */ }
    }

    function warn() {
      state.warned = true;
      save();
      if (root.navigator && typeof root.navigator.vibrate === "function") {
        try { root.navigator.vibrate([200, 100, 200]); } catch (error) { /* not allowed */ }
      }
      beep();
    }

    /** Browsers play sound only after a tap: the AudioContext is made in the first one. */
    function wakeAudio() {
      var Context = root.AudioContext || root.webkitAudioContext;
      if (!audio && Context && state.limit > 0) { try { audio = new Context(); } catch (error) { audio = null; } }
      if (audio && audio.state === "suspended") audio.resume();
    }

    function drawClock() {
      var now = Date.now();
      var rows = totals(state, now);
      var mine = rows[state.current] || null;
      var clock = el("clock");
      if (clock) clock.textContent = formatMs(elapsed(state, now));
      rows.forEach(function (row) {
        var line = box.querySelector('[data-tt-row="' + row.seat + '"]');
        if (!line) return;
        line.querySelector("[data-tt-hole-time]").textContent = formatMs(row.holeMs);
        line.querySelector("[data-tt-game-time]").textContent = formatMs(row.gameMs);
        line.querySelector("[data-tt-turns]").textContent = String(row.gameTurns);
      });
      var over = overLimit(state, now);
      var warning = el("warning");
      warning.hidden = !over;
      if (over) warning.textContent = t("over", { seconds: state.limit });
      box.classList.toggle("turn-timer-over", over);
      if (over && !state.warned && isRunning(state)) warn();
      return mine;
    }

    function draw() {
      var name = state.players[state.current] || "";
      var running = isRunning(state);
      var started = hasTurn(state);
      el("name").textContent = name;
      el("hint").textContent = running ? t("tap_pass") : (started ? t("tap_resume") : t("tap_start"));
      el("hole").textContent = state.hole ? t(state.hole.playoff ? "playoff_hole" : "hole", { n: state.hole.number }) : "";
      var pauseButton = el("pause");
      pauseButton.textContent = running ? t("pause") : t("resume");
      pauseButton.disabled = !started;
      pauseButton.setAttribute("aria-pressed", started && !running ? "true" : "false");
      var said = running ? t("turn_of", { name: name }) : (started ? t("paused", { name: name }) : t("first", { name: name }));
      if (said !== lastAnnounced) { el("now").textContent = said; lastAnnounced = said; }
      var rows = el("rows");
      if (!rows.children.length) {
        rows.innerHTML = state.players.map(function (player, seat) {
          return '<tr data-tt-row="' + seat + '"><th scope="row"></th><td data-tt-hole-time></td><td data-tt-game-time></td><td data-tt-turns></td></tr>';
        }).join("");
        state.players.forEach(function (player, seat) { rows.children[seat].querySelector("th").textContent = player; });
      }
      Array.prototype.forEach.call(rows.children, function (line, seat) {
        var current = seat === state.current;
        line.classList.toggle("turn-timer-current", current);
        if (current) line.setAttribute("aria-current", "true"); else line.removeAttribute("aria-current");
        line.hidden = Boolean(state.hole && state.hole.playoff && state.hole.seats.indexOf(seat) < 0); // sitting out a playoff
      });
      box.classList.toggle("turn-timer-running", running);
      drawClock();
      // Redrawn while the clock runs, folded away too: the limit still warns (vibration, beep).
      if (running && !ticker) ticker = setInterval(drawClock, 250);
      if (!running && ticker) { clearInterval(ticker); ticker = null; }
    }

    function act(change) {
      return function () {
        change(Date.now());
        save();
        draw();
      };
    }

    var onTap = act(function (now) { wakeAudio(); tap(state, now); });
    var onPause = act(function (now) { if (isRunning(state)) pause(state, now); else { wakeAudio(); resume(state, now); } });
    function onLimit() {
      setLimit(state, el("limit").value);
      var store = storage();
      if (store) try { store.setItem(LIMIT_KEY, String(state.limit)); } catch (error) { /* kept for this game only */ }
      save();
      draw();
    }
    function onEndsHole(event) {
      if (!event.target.closest || !event.target.closest("[data-turn-timer-ends-hole], [data-offline-next]")) return;
      endHole(state, Date.now());
      save();
      send();
    }
    function onLeave() {
      save();
      if (!options.token || (root.navigator && root.navigator.onLine === false)) return;
      if (state.changes <= state.sentChanges && !hasTurn(state)) return;
      var body = report(state, Date.now(), options.limits, true);
      if (body.holes.length) { try { put(body, true).catch(function () {}); } catch (error) { /* leaving anyway */ } }
    }
    function onToggle() {
      var store = storage();
      if (store) try { store.setItem(STORAGE_PREFIX + "open", box.open ? "1" : "0"); } catch (error) { /* not kept */ }
      draw();
    }

    var newHole = Boolean(options.hole) && startHole(state, options.hole, Date.now());
    save();
    // A hole was scored since the last drawing: what it left unsent goes now (the page may have been
    // left before the queue took it). Mid-hole, nothing is sent but by the page's leaving.
    if (newHole) send();
    var store = storage();
    if (store && store.getItem(STORAGE_PREFIX + "open") === "1" && "open" in box) box.open = true;
    el("limit").value = state.limit ? String(state.limit) : "";
    el("pass").addEventListener("click", onTap);
    el("pause").addEventListener("click", onPause);
    el("limit").addEventListener("change", onLimit);
    box.addEventListener("toggle", onToggle);
    document.addEventListener("click", onEndsHole, true);
    root.addEventListener("pagehide", onLeave);
    root.addEventListener("online", send);
    box.hidden = false;
    draw();

    active = {
      key: options.keys[0],
      state: function () { return state; },
      stop: function () {
        if (ticker) clearInterval(ticker);
        ticker = null;
        document.removeEventListener("click", onEndsHole, true);
        root.removeEventListener("pagehide", onLeave);
        root.removeEventListener("online", send);
        active = null;
      },
    };
    return active;
  }

  function readJson(text, fallback) { try { return JSON.parse(text); } catch (error) { return fallback; } }

  /** A game with no hole left to play (its last hole just scored): what the phone still holds of
   * its times is sent, the timer not shown. */
  function sendLeftovers(config, limits) {
    var store = storage();
    var key = STORAGE_PREFIX + config.token;
    var state = store && parse(store.getItem(key), config.players);
    if (!state || !root.fetch) return;
    var now = Date.now();
    if (state.hole && hasTurn(state)) endHole(state, now);
    if (state.changes <= state.sentChanges) return;
    var changes = state.changes;
    var body = report(state, now, limits, false);
    root.fetch("/api/v1/games/" + encodeURIComponent(config.token) + "/turn-times/", {
      method: "PUT", headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body), credentials: "same-origin",
    }).then(function (response) {
      if (!response.ok) return;
      state.sentChanges = changes;
      try { store.setItem(key, JSON.stringify(state)); } catch (error) { /* sent again next time: harmless */ }
    }, function () {});
  }

  /** The live game page: the server put the timer's settings in data-config. */
  function mountOnPage() {
    var box = document.querySelector("[data-turn-timer][data-config]");
    if (!box) return;
    var config = readJson(box.getAttribute("data-config"), null);
    if (!config) return;
    if (!config.hole) { sendLeftovers(config, readJson(box.getAttribute("data-limits"), null)); return; }
    mount(box, {
      keys: [config.token], token: config.token, gameId: null, players: config.players,
      hole: { number: config.hole.number, playoff: config.hole.playoff, firstSeat: config.hole.first_seat, seats: config.hole.seats },
      limits: config.limits,
    });
  }

  /** The offline shell's scoreboard `board` (a drawn node) of `view` (static/js/offline/app-game.js):
   * the timer from the shell's template, above the next hole's box. */
  GolfTurnTimer.inShell = function (board, view) {
    var template = document.getElementById("turn-timer-template");
    var next = view && view.next;
    var slot = board && board.querySelector(".next-hole");
    if (!template || !next || !slot || !view.canEdit || view.managed) { if (active) active.stop(); return null; }
    var box = template.content.firstElementChild.cloneNode(true);
    slot.parentNode.insertBefore(box, slot);
    var seats = (next.players || view.players).map(function (name) { return view.players.indexOf(name); })
      .filter(function (seat) { return seat >= 0; });
    var record = view.record || {};
    return mount(box, {
      keys: [record.editToken, record.id].filter(Boolean), token: record.editToken || null, gameId: record.id,
      players: view.players, hole: { number: next.number, playoff: next.playoff, firstSeat: next.firstSeat, seats: seats },
      limits: readJson(box.getAttribute("data-limits"), null),
    });
  };

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountOnPage);
  else mountOnPage();
})(typeof self !== "undefined" ? self : this);
