// The turn timer's clock, static/js/turn-timer-state.js (the page part is turn-timer.js): turn order, passing, pausing, a reload from the stored
// state, the limit's warning and the totals (run: node --test tests/js/; tests/test_javascript.py
// runs it in the suite).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const T = require(path.join(__dirname, "..", "..", "static", "js", "turn-timer-state.js"));

const PLAYERS = ["Ann", "Bob", "Cy", "Di"];
// Dealer Bob (seat 1): Cy, left of the dealer, plays first, then clockwise.
const HOLE_1 = { number: 1, playoff: false, firstSeat: 2, seats: [0, 1, 2, 3] };

function timer() {
  const state = T.create(PLAYERS, 0);
  T.startHole(state, HOLE_1, 0);
  return state;
}

test("the player left of the dealer starts; each tap passes the turn clockwise, round the table", () => {
  const state = timer();
  assert.equal(state.current, 2);
  assert.equal(T.isRunning(state), false);
  assert.equal(T.tap(state, 1000), "started");
  const order = [];
  for (let i = 0; i < 5; i += 1) { T.tap(state, 2000 + i * 1000); order.push(state.current); }
  assert.deepEqual(order, [3, 0, 1, 2, 3]);
});

test("a turn's time goes to its player and counts one turn; the running turn shows in the totals", () => {
  const state = timer();
  T.tap(state, 1000); // Cy starts
  T.tap(state, 4000); // Cy took 3 s; Di's turn
  let rows = T.totals(state, 6500);
  assert.equal(rows[2].holeMs, 3000);
  assert.equal(rows[2].holeTurns, 1);
  assert.equal(rows[3].holeMs, 2500); // Di's turn going on
  assert.equal(rows[3].holeTurns, 0);
  assert.equal(rows[3].current, true);
  T.tap(state, 7000);
  rows = T.totals(state, 7000);
  assert.deepEqual(rows.map((r) => [r.holeMs, r.holeTurns]), [[0, 0], [0, 0], [3000, 1], [3000, 1]]);
});

test("pause stops the clock; resume goes on with the same player's turn", () => {
  const state = timer();
  T.tap(state, 0);
  T.pause(state, 2000);
  assert.equal(T.elapsed(state, 60000), 2000); // paused: a minute later still 2 s
  T.resume(state, 60000);
  assert.equal(T.elapsed(state, 61000), 3000);
  assert.equal(state.current, 2);
  T.tap(state, 61000);
  assert.equal(T.totals(state, 61000)[2].holeMs, 3000);
});

test("a reload reads the stored state back and the clock has gone on meanwhile (timestamps, not ticks)", () => {
  const state = timer();
  T.tap(state, 1000);
  T.tap(state, 3000); // Di's turn since 3 s
  const stored = JSON.stringify(state);
  const back = T.parse(stored, PLAYERS);
  assert.equal(T.startHole(back, HOLE_1, 20000), false); // the same hole: nothing reset
  assert.equal(back.current, 3);
  assert.equal(T.elapsed(back, 20000), 17000); // the page was away 17 s: Di's clock ran
  assert.equal(T.parse("not json", PLAYERS), null);
  assert.equal(T.parse(stored, ["Ann", "Bob"]), null); // other players: start again
  assert.deepEqual(T.parse(stored, ["Ann", "Bo", "Cy", "Di"]).players[1], "Bo"); // a rename keeps the times
});

test("the limit warns once the running turn reaches it, never with no limit or no turn", () => {
  const state = timer();
  assert.equal(T.overLimit(state, 1e9), false);
  T.setLimit(state, "30");
  assert.equal(state.limit, 30);
  assert.equal(T.overLimit(state, 1e9), false); // no turn going on
  T.tap(state, 0);
  assert.equal(T.overLimit(state, 29999), false);
  assert.equal(T.overLimit(state, 30000), true);
  T.tap(state, 31000); // the next player's turn starts below the limit
  assert.equal(T.overLimit(state, 31000), false);
  T.setLimit(state, "");
  assert.equal(state.limit, 0);
  assert.equal(T.overLimit(state, 1e9), false);
  T.setLimit(state, "-5");
  assert.equal(state.limit, 0);
});

test("a new hole closes the running turn and starts paused with its first player; the game totals add up", () => {
  const state = timer();
  T.tap(state, 0);
  T.tap(state, 5000); // Cy 5 s
  T.endHole(state, 8000); // Di 3 s, the hole is being scored
  assert.equal(T.isRunning(state), false);
  // Hole 2: Cy deals, Di starts.
  assert.equal(T.startHole(state, { number: 2, playoff: false, firstSeat: 3, seats: [0, 1, 2, 3] }, 9000), true);
  assert.equal(state.current, 3);
  T.tap(state, 10000);
  T.tap(state, 14000); // Di 4 s
  const rows = T.totals(state, 14000);
  assert.deepEqual(rows.map((r) => r.gameMs), [0, 0, 5000, 7000]);
  assert.deepEqual(rows.map((r) => r.holeMs), [0, 0, 0, 4000]);
  assert.deepEqual(rows.map((r) => r.gameTurns), [0, 0, 1, 2]);
});

test("a playoff hole goes round its players only", () => {
  const state = timer();
  T.startHole(state, { number: 1, playoff: true, firstSeat: 1, seats: [1, 3] }, 0);
  T.tap(state, 0);
  T.tap(state, 1000);
  assert.equal(state.current, 3);
  T.tap(state, 2000);
  assert.equal(state.current, 1);
  assert.equal(T.nextSeat([1, 3], 3), 1);
});

test("the report holds every timed hole's seats, bounded by the server's limits", () => {
  const state = timer();
  T.tap(state, 0);
  T.tap(state, 2500);
  T.endHole(state, 4000);
  T.startHole(state, { number: 2, playoff: false, firstSeat: 3, seats: [0, 1, 2, 3] }, 5000);
  T.tap(state, 5000);
  assert.deepEqual(T.report(state, 6000, null, false), {
    holes: [{ number: 1, playoff: false, seats: [{ seat: 2, milliseconds: 2500, turns: 1 }, { seat: 3, milliseconds: 1500, turns: 1 }] }],
  });
  const withRunning = T.report(state, 6000, null, true);
  assert.deepEqual(withRunning.holes[1], { number: 2, playoff: false, seats: [{ seat: 3, milliseconds: 1000, turns: 0 }] });
  const bounded = T.report(state, 1e12, { maxMs: 10000, maxHoles: 1 }, true);
  assert.deepEqual(bounded.holes, [{ number: 2, playoff: false, seats: [{ seat: 3, milliseconds: 10000, turns: 0 }] }]);
});

test("formatMs shows minutes and seconds, hours when needed", () => {
  assert.equal(T.formatMs(0), "0:00");
  assert.equal(T.formatMs(7999), "0:07");
  assert.equal(T.formatMs(754000), "12:34");
  assert.equal(T.formatMs(3723000), "1:02:03");
  assert.equal(T.formatMs(-5), "0:00");
});
