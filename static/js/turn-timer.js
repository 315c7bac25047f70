// The turn timer (issue 33, seed 003's "per-player clock") on a live game's page and on the offline
// shell's scoreboard: one big button passes the turn, the player left of the dealer starts the hole,
// then clockwise; each player's time this hole and this game; an optional limit per turn warns
// (visibly, and by vibration or a short beep where the phone allows); pause and resume.
//
// The clock is never a ticking counter: the state holds the moment the running turn (re)started
// (`since`, Date.now()) and what the turn had before a pause (`turnMs`), so a reload, a phone asleep
// or a tab in the background loses nothing. The state is kept in localStorage per game
// ("golf-turn-timer:<edit token>", or the offline game's own id until the server gave it a token).
//
// The times reach the server as the phone's running totals per hole and seat
// (PUT /api/v1/games/{token}/turn-times/, which keeps the larger of stored and sent values, so a
// report sent twice or late changes nothing): when a hole ends (its "Score hole" button) or a new
// hole shows, through the offline queue (GolfSync: in order, its own Idempotency-Key, sent when the
// connection returns), and, as the page is left with a connection, by a keepalive request.
//
// Every word comes from the page ([data-t] texts inside the timer, translated by Django). The pure
// part (`TurnTimer` below) is tested by tests/js/turn-timer.test.js with `node --test`.
(function (root) {
  "use strict";

  var STORAGE_PREFIX = "golf-turn-timer:";
  var LIMIT_KEY = "golf-turn-timer-limit"; // the last limit set: a new game starts with it
  // golfclub/core/limits.py (the page passes them in data-limits; these are its values).
  var DEFAULT_LIMITS = { maxMs: 86400000, maxTurns: 10000, maxHoles: 100 };

  function holeKey(number, playoff) { return (playoff ? "p" : "h") + number; }

  /** The seat after `seat` clockwise among the hole's `seats` (all seats, or a playoff's players). */
  function nextSeat(seats, seat) {
    var sorted = seats.slice().sort(function (a, b) { return a - b; });
    for (var i = 0; i < sorted.length; i += 1) if (sorted[i] > seat) return sorted[i];
    return sorted[0];
  }

  function blankHole(hole) { return { number: hole.number, playoff: Boolean(hole.playoff), ms: {}, turns: {} }; }

  /** A new timer for `players` (names in seat order), no hole yet, paused. */
  function create(players, limitSeconds) {
    return {
      v: 1, players: players.slice(), limit: Math.max(0, Math.floor(limitSeconds || 0)),
      hole: null, current: null, since: null, turnMs: 0, warned: false,
      holes: {}, changes: 0, sentChanges: 0,
    };
  }

  /** Milliseconds of the turn going on now (0 without one). A clock set back never makes it negative. */
  function elapsed(state, now) {
    return Math.max(0, state.turnMs + (state.since == null ? 0 : now - state.since));
  }

  function isRunning(state) { return state.since != null; }

  function hasTurn(state) { return state.since != null || state.turnMs > 0; }

  /** The turn going on is over: its time and one turn go to its player; the next player is up. */
  function closeTurn(state, now) {
    var spent = elapsed(state, now);
    var line = state.holes[state.hole.key];
    line.ms[state.current] = (line.ms[state.current] || 0) + spent;
    line.turns[state.current] = (line.turns[state.current] || 0) + 1;
    state.current = nextSeat(state.hole.seats, state.current);
    state.turnMs = 0;
    state.warned = false;
    state.changes += 1;
  }

  /** Show the hole `hole` = {number, playoff, firstSeat, seats}. The same hole again (a reload)
   * keeps everything; another hole closes the turn going on and starts paused with its first player
   * (left of the dealer). Answers true when the hole changed (a new hole: the last one was saved). */
  function startHole(state, hole, now) {
    var key = holeKey(hole.number, hole.playoff);
    if (state.hole && state.hole.key === key) {
      state.hole.seats = hole.seats.slice();
      return false;
    }
    if (state.hole && hasTurn(state)) endHole(state, now);
    state.hole = { key: key, number: hole.number, playoff: Boolean(hole.playoff), seats: hole.seats.slice() };
    if (!state.holes[key]) state.holes[key] = blankHole(hole);
    state.current = hole.firstSeat;
    state.since = null;
    state.turnMs = 0;
    state.warned = false;
    return true;
  }

  /** The big button: starts (or resumes) the clock when it is stopped, else passes the turn to the
   * next player clockwise. Answers "started" or "passed" (nothing without a hole). */
  function tap(state, now) {
    if (!state.hole) return null;
    if (!isRunning(state)) {
      state.since = now;
      return "started";
    }
    closeTurn(state, now);
    state.since = now;
    return "passed";
  }

  function pause(state, now) {
    if (!isRunning(state)) return;
    state.turnMs = elapsed(state, now);
    state.since = null;
  }

  function resume(state, now) {
    if (state.hole && !isRunning(state)) state.since = now;
  }

  /** The hole is being scored: the turn going on is closed and the clock stops. */
  function endHole(state, now) {
    if (!state.hole) return;
    if (hasTurn(state)) closeTurn(state, now);
    state.since = null;
  }

  /** Whether the turn going on has passed the limit (none when the limit is 0). */
  function overLimit(state, now) {
    return state.limit > 0 && hasTurn(state) && elapsed(state, now) >= state.limit * 1000;
  }

  function setLimit(state, seconds) {
    var n = Math.floor(Number(seconds));
    state.limit = isFinite(n) && n > 0 ? Math.min(n, 24 * 3600) : 0;
    state.warned = false;
  }

  /** Each player's clock: [{seat, name, holeMs, gameMs, holeTurns, gameTurns, current}], the turn
   * going on counted in its player's times. */
  function totals(state, now) {
    var running = state.hole && hasTurn(state) ? elapsed(state, now) : 0;
    var line = state.hole ? state.holes[state.hole.key] : null;
    return state.players.map(function (name, seat) {
      var gameMs = 0, gameTurns = 0;
      Object.keys(state.holes).forEach(function (key) {
        gameMs += state.holes[key].ms[seat] || 0;
        gameTurns += state.holes[key].turns[seat] || 0;
      });
      var mine = state.hole && state.current === seat ? running : 0;
      return {
        seat: seat, name: name, current: Boolean(state.hole) && state.current === seat,
        holeMs: (line ? line.ms[seat] || 0 : 0) + mine, gameMs: gameMs + mine,
        holeTurns: line ? line.turns[seat] || 0 : 0, gameTurns: gameTurns,
      };
    });
  }

  /** The body of PUT .../turn-times/: every timed hole (the last `maxHoles`), its seats' totals
   * (the turn going on counted when `withRunning`), bounded by the server's limits. */
  function report(state, now, limits, withRunning) {
    var lim = Object.assign({}, DEFAULT_LIMITS, limits || {});
    var keys = Object.keys(state.holes).sort(function (a, b) {
      var x = state.holes[a], y = state.holes[b];
      return (x.playoff - y.playoff) || (x.number - y.number);
    });
    var holes = keys.map(function (key) {
      var line = state.holes[key];
      var seats = [];
      state.players.forEach(function (name, seat) {
        var ms = line.ms[seat] || 0;
        if (withRunning && state.hole && state.hole.key === key && state.current === seat) ms += elapsed(state, now);
        var turns = line.turns[seat] || 0;
        if (ms > 0 || turns > 0) {
          seats.push({ seat: seat, milliseconds: Math.min(Math.round(ms), lim.maxMs), turns: Math.min(turns, lim.maxTurns) });
        }
      });
      return { number: line.number, playoff: line.playoff, seats: seats };
    }).filter(function (hole) { return hole.seats.length > 0; });
    return { holes: holes.slice(-lim.maxHoles) };
  }

  /** A stored state read back, or null when it is not one (or was kept for other players). */
  function parse(text, players) {
    var state;
    try { state = JSON.parse(text); } catch (error) { return null; }
    if (!state || state.v !== 1 || !Array.isArray(state.players) || typeof state.holes !== "object") return null;
    if (players && state.players.length !== players.length) return null; // players added or removed
    if (players) state.players = players.slice(); // a renamed player keeps their times
    return state;
  }

  /** "0:07", "12:34", "1:02:03". */
  function formatMs(ms) {
    var s = Math.floor(Math.max(0, ms) / 1000);
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return h > 0 ? h + ":" + two(m) + ":" + two(sec) : m + ":" + two(sec);
  }

  var TurnTimer = {
    STORAGE_PREFIX: STORAGE_PREFIX, create: create, holeKey: holeKey, nextSeat: nextSeat, startHole: startHole,
    tap: tap, pause: pause, resume: resume, endHole: endHole, elapsed: elapsed, isRunning: isRunning,
    overLimit: overLimit, setLimit: setLimit, totals: totals, report: report, parse: parse, formatMs: formatMs,
  };

  if (typeof module === "object" && module.exports) {
    module.exports = TurnTimer;
    return;
  }

  root.GolfTurnTimer = TurnTimer;
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
      if (running && box.open !== false && !ticker) ticker = setInterval(drawClock, 250);
      if ((!running || box.open === false) && ticker) { clearInterval(ticker); ticker = null; }
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

  /** The live game page: the server put the timer's settings in data-config. */
  function mountOnPage() {
    var box = document.querySelector("[data-turn-timer][data-config]");
    if (!box) return;
    var config = readJson(box.getAttribute("data-config"), null);
    if (!config || !config.hole) return;
    mount(box, {
      keys: [config.token], token: config.token, gameId: null, players: config.players,
      hole: { number: config.hole.number, playoff: config.hole.playoff, firstSeat: config.hole.first_seat, seats: config.hole.seats },
      limits: config.limits,
    });
  }

  /** The offline shell's scoreboard `board` (a drawn node) of `view` (static/js/offline/app-game.js):
   * the timer from the shell's template, above the next hole's box. */
  TurnTimer.inShell = function (board, view) {
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
