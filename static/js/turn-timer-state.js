// The turn timer's clock, pure (no page, no storage): the state a game's timer keeps and what each
// tap does to it. static/js/turn-timer.js draws it on the page; tests/js/turn-timer.test.js tests
// it with `node --test`. Load it before turn-timer.js.
//
// The clock is never a ticking counter: the state holds the moment the running turn (re)started
// (`since`, Date.now()) and what the turn had before a pause (`turnMs`), so a reload, a phone asleep
// or a tab in the background loses nothing.
(function (root) {
  "use strict";

  var STORAGE_PREFIX = "golf-turn-timer:";
  // golfclub/core/limits.py's (the page passes them in data-limits; these are its values).
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
    tap: tap, pause: pause, resume: resume, endHole: endHole, elapsed: elapsed, isRunning: isRunning, hasTurn: hasTurn,
    overLimit: overLimit, setLimit: setLimit, totals: totals, report: report, parse: parse, formatMs: formatMs,
  };


  if (typeof module === "object" && module.exports) module.exports = TurnTimer;
  else root.GolfTurnTimerState = TurnTimer;
})(typeof self !== "undefined" ? self : this);
