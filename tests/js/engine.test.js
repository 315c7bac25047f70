// The phone's rules engine (static/js/engine/golf-engine.js) against the Python engine.
// GOLF_ENGINE_CASES names a directory of *.jsonl files, one case a line: {id, fn, args, expect}, where
// `expect` is the Python engine's answer ({ok} or {error: {kind, problems}}), made at test time by
// tests/test_offline_engine.py (tests/engine_conformance/). Without it, a few fixed answers of
// docs/engine.md and docs/rules.md are checked and the conformance test says it was skipped.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
// GOLF_ENGINE_SCRIPT: another copy of the engine to check (to see this test fail on a changed rule).
const G = require(process.env.GOLF_ENGINE_SCRIPT || path.join(__dirname, "..", "..", "static", "js", "engine", "golf-engine.js"));

// --- each case's call, Python names and argument order mapped onto GolfEngine ---------------------
const CALLS = {
  resolve_ruleset: (a) => G.resolveRuleset(a.spec),
  parse_card: (a) => { const c = G.parseCard(a.token, a.where, a.jokers); return c.rank + (c.suit || ""); },
  parse_grid: (a) => G.parseGrid(a.rows, a.where, a.jokers),
  score_grid: (a) => G.scoreGrid(a.ruleset, a.grid, a.players),
  grid_total: (a) => G.gridTotal(a.ruleset, a.grid),
  score_hole: (a) => G.scoreHole(a.ruleset, a.entries, a.ender, a.blocks_marked, { checkDecks: a.check_decks !== false }),
  check_grid_cards: (a) => G.checkGridCards(a.ruleset, a.grid, a.players, a.where) || null,
  check_table_cards: (a) => G.checkTableCards(a.ruleset, a.grids, a.players, a.where) || null,
  match_state: (a) => G.matchState(a.ruleset, a.players, a.holes, a.first_dealer, { endedEarly: a.ended_early }),
  compute_match_state: (a) => {
    const s = G.matchState(a.ruleset, a.players, a.holes, null, { endedEarly: a.ended_early });
    const keys = ["player_totals", "regular_holes", "playoff_holes", "match_over", "reason", "outcome", "status", "winners",
      "contenders", "hole_scores", "playoff_scores", "playoff_stale", "ended_early"];
    return Object.fromEntries(keys.map((k) => [k, s[k]]));
  },
  rank_players: (a) => G.rankPlayers(a.hole_scores, a.tiebreakers, a.playoff_scores, a.penalties),
  match_over: (a) => G.matchOver(a.ruleset, a.holes_played, a.totals),
  deal: (a) => [G.dealerForHole(a.players, a.first_dealer, a.hole_number), G.firstPlayerForHole(a.players, a.first_dealer, a.hole_number)],
  score_range: (a) => G.scoreRange(a.ruleset, a.decks),
};

function run(fn, args) {
  try {
    const ok = CALLS[fn](args);
    return { ok: ok === undefined ? null : ok };
  } catch (error) {
    if (!(error instanceof G.RulesError)) return { crash: String(error && error.stack || error) };
    return { error: { kind: error.kind, problems: error.problems } };
  }
}

/** The first place where `got` differs from `want` (object key order ignored), or null. */
function difference(want, got, where) {
  if (Object.is(want, got)) return null;
  if (typeof want !== "object" || typeof got !== "object" || want === null || got === null || Array.isArray(want) !== Array.isArray(got)) {
    return `${where}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`;
  }
  const keys = Array.isArray(want) ? [...want.keys(), ...got.keys()] : [...Object.keys(want), ...Object.keys(got)];
  if (Array.isArray(want) && want.length !== got.length) return `${where}: expected ${want.length} items, got ${got.length}: ${JSON.stringify(got).slice(0, 400)}`;
  for (const key of new Set(keys)) {
    if (!Array.isArray(want) && (!(key in want) || !(key in got))) return `${where}.${key}: expected ${JSON.stringify(want[key])}, got ${JSON.stringify(got[key])}`;
    const found = difference(want[key], got[key], `${where}${Array.isArray(want) ? `[${key}]` : `.${key}`}`);
    if (found) return found;
  }
  return null;
}

/** A score range the Python's clock cut short (a test of tests/rules set it): the phone's must lie
 * within that bound. Generated cases are searched without the clock, exactly as the phone does. */
function rangeDifference(want, got) {
  if (got.ok && got.ok.low >= want.ok.low && got.ok.high <= want.ok.high) return null;
  return `range: expected within [${want.ok.low}, ${want.ok.high}], got ${JSON.stringify(got)}`;
}

function check(c, tally, ms) {
  const started = Date.now();
  const got = run(c.fn, c.args);
  ms[c.fn] = (ms[c.fn] || 0) + Date.now() - started;
  tally[c.fn] = (tally[c.fn] || 0) + 1;
  if (c.range_bound_only) {
    tally.inexact_ranges = (tally.inexact_ranges || 0) + 1;
    return rangeDifference(c.expect, got);
  }
  // Most answers come with their keys in the Python's order: one string comparison settles them.
  return JSON.stringify(c.expect) === JSON.stringify(got) ? null : difference(c.expect, got, "answer");
}

const dir = process.env.GOLF_ENGINE_CASES;
test("the phone's engine answers every case exactly as the Python engine", { skip: dir ? false : "GOLF_ENGINE_CASES is not set: tests/test_offline_engine.py makes the cases and sets it" }, () => {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort();
  assert.ok(files.length, `no case file in ${dir}`);
  const tally = {}, ms = {}, failures = [];
  let cases = 0;
  const started = Date.now();
  for (const file of files) {
    for (const text of fs.readFileSync(path.join(dir, file), "utf8").split("\n")) {
      if (!text) continue;
      const c = JSON.parse(text);
      cases++;
      const found = check(c, tally, ms);
      if (found) failures.push(`${file} case ${c.id} ${c.fn}(${JSON.stringify(c.args).slice(0, 1500)})\n  ${found.slice(0, 1500)}`);
    }
  }
  console.log(`# engine cases: ${cases} in ${Date.now() - started} ms; by call ${JSON.stringify(tally)}; ms by call ${JSON.stringify(ms)}`);
  assert.ok(cases > 0, "no case read");
  assert.equal(failures.length, 0, `${failures.length} of ${cases} cases differ; the first ones:\n${failures.slice(0, 5).join("\n")}`);
});

// --- fixed answers (docs/engine.md, docs/rules.md, the API's documented examples) -----------------
test("the official example scores 3 with its two column matches", () => {
  const score = G.scoreGrid("official", [["Q", "7", "K"], ["Q", "7", "3"]]);
  assert.equal(score.total, 3);
  assert.deepEqual(score.matches.map((m) => [m.kind, m.rank, m.rule]), [["column", "Q", "2.3"], ["column", "7", "2.3"]]);
  assert.equal(score.explanation.at(-1), "Grid score: 0 + 0 + 0 + 3 = 3 (rule 2.4).");
});

test("a fixed ender penalty is added to the ender who did not score lowest", () => {
  const hole = G.scoreHole({ preset: "official", ender_penalty: { kind: "fixed", points: 10 } },
    { ann: [["9", "K", "Q"], ["A", "K", "Q"]], bob: [["3", "J", "5"], ["K", "J", "5"]] }, "ann");
  assert.deepEqual(hole.players.map((p) => [p.name, p.grid_score, p.score]), [["ann", 10, 20], ["bob", 3, 3]]);
  assert.equal(hole.players[0].adjustments[0].reason, "ann ended the hole and did not have the lowest score (bob: 3): +10 (seed 001).");
});

test("bad input is refused with every problem, where it is, in the Python's words", () => {
  assert.throws(() => G.resolveRuleset({ preset: "official", jokers: 5, hole_end: "never" }), (e) => {
    assert.equal(e.kind, "RulesetError");
    assert.deepEqual(e.problems.map((p) => p.where), ["ruleset.jokers", "ruleset.hole_end"]);
    return true;
  });
  assert.throws(() => G.parseGrid([["Q", "7", "1Z"], ["Q", "7", "3"]]), (e) => {
    assert.equal(e.kind, "CardError");
    assert.equal(e.message, 'Unknown card "1Z" at row 1, column 3: use A, 2-10 (or T), J, Q, K or X/JK for a joker, optionally followed by a suit S, H, D, C.');
    return true;
  });
});

test("the official rules score from -8 to 60 and the deal passes clockwise", () => {
  const span = G.scoreRange("official", 1);
  assert.deepEqual([span.low, span.high, span.exact], [-8, 60, true]);
  assert.deepEqual([1, 2, 3].map((h) => G.dealerForHole(4, 2, h)), [2, 3, 0]);
  assert.equal(G.firstPlayerForHole(4, 2, 1), 3);
});

test("a tie for first after the last hole goes to countback", () => {
  const holes = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => ({ number: n, scores: { ann: n === 1 ? 0 : 5, bob: n === 1 ? 2 : 5 - (n === 2 ? 2 : 0) } }));
  const state = G.matchState("official", ["ann", "bob"], holes, 0);
  assert.equal(state.status, "finished");
  assert.deepEqual(state.winners, ["ann"]);
  assert.equal(state.outcome.steps[0].method, "countback");
});
