// The offline app's pure parts (static/js/offline/app-model.js, app-form.js, app-game.js,
// app-render.js, app-hole.js), with the real rules engine (static/js/engine/golf-engine.js):
// routes, holes merged from the server's copy and the phone's writes, the hole form read into the
// API's body with the online form's refusals, names checked as the server checks them, the
// scoreboard and conflict drawn. Run: node --test tests/js/.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const dir = path.join(__dirname, "..", "..", "static", "js");
const GolfEngine = require(path.join(dir, "engine", "golf-engine.js"));
const model = require(path.join(dir, "offline", "app-model.js"));
const form = require(path.join(dir, "offline", "app-form.js"));
const game = require(path.join(dir, "offline", "app-game.js"));
const render = require(path.join(dir, "offline", "app-render.js"));
const hole = require(path.join(dir, "offline", "app-hole.js"));
const capture = require(path.join(dir, "offline", "app-capture.js"));

/** Texts as the page gives them: the key and the values, so tests see what was said. */
function t(key, values) {
  if (!values) return key;
  return key + "(" + Object.keys(values).map((k) => k + "=" + values[k]).join(",") + ")";
}

test("routeOf reads server links, local games and the start page", () => {
  assert.deepEqual(model.routeOf("/games/e/AbC_9-x/", ""), { token: "AbC_9-x", view: "board" });
  assert.deepEqual(model.routeOf("/games/e/tok/holes/new/", ""), { token: "tok", view: "hole-new", playoff: false });
  assert.deepEqual(model.routeOf("/games/e/tok/holes/12/", ""), { token: "tok", view: "hole-edit", playoff: false, number: 12 });
  assert.deepEqual(model.routeOf("/games/e/tok/playoff/new/", ""), { token: "tok", view: "hole-new", playoff: true });
  assert.deepEqual(model.routeOf("/games/e/tok/share/", ""), { token: "tok", view: "board" });
  assert.deepEqual(model.routeOf("/offline/", "#/g/local-1/holes/3/"), { gameId: "local-1", view: "hole-edit", playoff: false, number: 3 });
  assert.deepEqual(model.routeOf("/offline/", "#/g/local-1/confirm/"), { gameId: "local-1", view: "confirm" });
  assert.deepEqual(model.routeOf("/games/e/tok/", "#confirm"), { token: "tok", view: "confirm" });
  assert.deepEqual(model.routeOf("/tournaments/table/tok/", ""), { token: "tok", view: "board" });
  assert.deepEqual(model.routeOf("/games/new/", ""), { view: "start" });
  assert.deepEqual(model.routeOf("/offline/", "#/new/"), { view: "start" });
  assert.deepEqual(model.routeOf("/offline/", ""), { view: "home" });
});

test("gameHref is the server's link once the game has one", () => {
  assert.equal(model.gameHref({ id: "local-1", editToken: null }, "holes/new/"), "/offline/#/g/local-1/holes/new/");
  assert.equal(model.gameHref({ id: "local-1", editToken: "T0k" }, ""), "/games/e/T0k/");
});

test("newKey makes a UUID, never under 16 characters, different each time", () => {
  const a = model.newKey();
  assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(a, model.newKey());
});

const SERVER = {
  holes: [{ number: 1, ender: null, version: 1, entries: [
    { name: "Ann", score: 4, typed: true, typed_total: 4, cards: null, blocks_marked: 0 },
    { name: "Bob", score: 0, typed: false, typed_total: null, cards: [["5", "6", "K"], ["5", "6", "K"]], blocks_marked: 0 },
  ] }],
  playoff_holes: [],
};

function write(seq, number, state, entries, kind) {
  return { key: "k" + seq, seq, kind: kind || "hole", holeNumber: number, state, body: { entries, ender: null, number } };
}

test("mergeHoles lays the phone's writes over the server's copy, in order, conflicts beside", () => {
  const merged = model.mergeHoles(SERVER, [
    write(3, 2, "waiting", { Ann: 1, Bob: 2 }),
    write(2, 1, "conflict", { Ann: 9, Bob: 9 }),
    write(4, 2, "waiting", { Ann: 5, Bob: 6 }, "hole-edit"),
  ]);
  assert.deepEqual(merged.holes.map((h) => [h.number, h.state]), [[1, "sent"], [2, "waiting"]]);
  assert.deepEqual(merged.holes[0].scores, { Ann: 4, Bob: 0 });
  assert.deepEqual(merged.holes[0].conflict.entries, { Ann: 9, Bob: 9 });
  assert.deepEqual(merged.holes[1].entries, { Ann: 5, Bob: 6 }); // the later write wins
  assert.equal(merged.holes[1].key, "k4");
});

test("pendingSummary counts holes, writes and conflicts still on the phone", () => {
  const writes = [write(1, 1, "waiting", {}), write(2, 1, "waiting", {}, "hole-edit"), write(3, 2, "conflict", {}),
    { key: "c", seq: 4, kind: "create-game", state: "waiting" }, write(5, 3, "sent", {})];
  assert.deepEqual(model.pendingSummary(writes), { holes: 2, writes: 4, conflicts: 1, serverFailing: false });
  assert.deepEqual(model.pendingSummary([]), { holes: 0, writes: 0, conflicts: 0, serverFailing: false });
});

test("pendingSummary tells a server failing (5xx, 429) from a missing connection", () => {
  const failed = (code) => Object.assign(write(1, 1, "waiting", {}), { lastError: { status: 503, code } });
  assert.equal(model.pendingSummary([failed("server-busy"), write(2, 2, "waiting", {})]).serverFailing, true);
  assert.equal(model.pendingSummary([failed("rate-limited")]).serverFailing, true);
  assert.equal(model.pendingSummary([failed("offline")]).serverFailing, false);
});

test("dealerSeat follows the engine: the deal moves one seat clockwise each hole", () => {
  assert.deepEqual([1, 2, 3, 4].map((n) => model.dealerSeat(3, 1, n, GolfEngine)), [1, 2, 0, 1]);
  assert.deepEqual([1, 2, 3, 4].map((n) => model.dealerSeat(3, 1, n, null)), [1, 2, 0, 1]);
});

const SHAPE = { rows: 2, cols: 3 };

test("readHole takes full grids and typed totals, as the online form does", () => {
  const values = { "p0-total": "\u22123", "p1-1-1": "5", "p1-1-2": "6", "p1-1-3": "K", "p1-2-1": "5", "p1-2-2": "6", "p1-2-3": "K", ender: "1" };
  const read = form.readHole(values, ["Ann", "Bob"], SHAPE, t);
  assert.deepEqual(read.errors, {});
  assert.deepEqual(read.entries, { Ann: -3, Bob: [["5", "6", "K"], ["5", "6", "K"]] });
  assert.equal(read.ender, "Bob");
  assert.deepEqual(form.holeBody(read, 4), { entries: read.entries, ender: "Bob", number: 4 });
});

test("readHole refuses what the online form refuses, next to the player", () => {
  const values = { "p0-total": "4", "p0-1-1": "5", "p1-1-1": "5", "p2-total": "4x", "p3-total": "" };
  const read = form.readHole(values, ["Ann", "Bob", "Cy", "Dee"], SHAPE, t);
  assert.match(read.errors[0][0], /^cards_or_total/);
  assert.match(read.errors[1][0], /^grid_missing\(name=Bob,where=row_col\(row=1,col=2\)/);
  assert.match(read.errors[2][0], /^whole_number/);
  assert.match(read.errors[3][0], /^grid_or_total/);
  assert.deepEqual(read.entries, {});
});

test("spreadProblems puts the engine's problems on their player", () => {
  let problems;
  try { GolfEngine.scoreHole("official", { Ann: 99, Bob: 3 }); } catch (error) { problems = error.problems; }
  const spread = form.spreadProblems(problems, ["Ann", "Bob"]);
  assert.ok(spread.bySeat[0][0].includes("impossible"), spread.bySeat[0][0]);
  assert.equal(spread.bySeat[1], undefined);
});

test("checkNames refuses as the start page does: invisible, too long, duplicates, too few", () => {
  const limits = { min: 2, max: 12, maxName: 40 };
  assert.deepEqual(form.checkNames(["Ann", "", " bob  lee "], limits, t), { names: ["Ann", "bob lee"], errors: [] });
  assert.match(form.checkNames(["Ann", "ANN"], limits, t).errors[0], /^name_duplicate\(seat=2,name=ANN,other=1\)/);
  assert.match(form.checkNames(["Ann", "\u200b"], limits, t).errors[0], /^name_invisible/);
  assert.match(form.checkNames(["Ann", "x".repeat(41)], limits, t).errors[0], /^name_too_long/);
  assert.match(form.checkNames(["Ann"], limits, t).errors[0], /^too_few/);
  assert.equal(form.nameKey("\uff21nn"), form.nameKey("ann")); // full-width and case
});

test("rulesetSpec makes the online start form's spec, and the engine resolves it", () => {
  assert.equal(form.rulesetSpec({ ruleset: "official" }), "official");
  const spec = form.rulesetSpec({ ruleset: "official", holes: "18", target_score: "100", ender_penalty: "fixed-10" });
  assert.deepEqual(spec, { preset: "official", holes: 18, target_score: 100, ender_penalty: { kind: "fixed", points: 10 } });
  const resolved = GolfEngine.resolveRuleset(spec);
  assert.equal(resolved.holes, 18);
});

function localGame(writes) {
  const record = { id: "local-1", editToken: null, players: ["Ann", "Bob"], ruleset: GolfEngine.resolveRuleset("official"), firstDealer: 1 };
  return game.gameView(record, writes, GolfEngine, t);
}

test("gameView scores the phone's holes with the engine and says who deals each", () => {
  const view = localGame([write(1, 1, "waiting", { Ann: [["5", "6", "K"], ["5", "6", "K"]], Bob: 7 }), write(2, 2, "waiting", { Ann: 3, Bob: -1 })]);
  assert.deepEqual(view.holes.map((h) => h.scores), [{ Ann: 0, Bob: 7 }, { Ann: 3, Bob: -1 }]);
  assert.deepEqual(view.holes.map((h) => [h.dealer, h.first]), [["Bob", "Ann"], ["Ann", "Bob"]]);
  assert.deepEqual(view.totals, { Ann: 3, Bob: 6 });
  assert.deepEqual(view.cumulative, { Ann: [0, 3], Bob: [7, 6] });
  assert.equal(view.next.number, 3);
  assert.equal(view.next.dealer, "Bob");
  assert.equal(view.match.over, false);
  assert.deepEqual(view.summary, { holes: 2, writes: 2, conflicts: 0, serverFailing: false });
});

test("the scoreboard of a finished game names the winner and the tiebreak, like game_outcome.html", () => {
  const writes = [];
  const ann = [0, 5, 3, 8, 2, -2, 4, 6, 1];
  const bob = [3, 0, 1, 0, 6, 3, 2, 1, 11];
  for (let n = 1; n <= 9; n += 1) writes.push(write(n, n, "waiting", { Ann: ann[n - 1], Bob: bob[n - 1] }));
  const view = localGame(writes);
  assert.equal(view.match.over, true);
  assert.deepEqual(view.match.winners, ["Ann"]);
  assert.equal(view.match.steps[0].method, "countback");
  const html = render.board(view, t);
  assert.ok(html.includes("wins(name=Ann)"));
  assert.ok(html.includes("tiebreak_countback"));
  assert.ok(html.includes("Ann ranks ahead"), "the engine's explanation is shown");
  assert.equal((html.match(/data-hole-state="waiting"/g) || []).length, 9);
  assert.ok(!html.includes("data-offline-next"), "no next hole once the match is over");
});

test("a conflict is drawn beside the server's version, with both choices", () => {
  const record = { id: "tok", editToken: "tok", players: ["Ann", "Bob"], ruleset: GolfEngine.resolveRuleset("official"), firstDealer: 0, server: SERVER };
  const refused = Object.assign(write(1, 1, "conflict", { Ann: 9, Bob: 2 }), {
    conflict: { code: "hole-saved-elsewhere" }, answer: { status: 409, body: { detail: "Hole 1 was just saved by someone else." } },
  });
  const html = render.board(game.gameView(record, [refused], GolfEngine, t), t);
  assert.ok(html.includes("conflict_other_phone"));
  assert.ok(html.includes("Hole 1 was just saved by someone else."));
  assert.ok(html.includes("<tr><th scope=\"row\">Ann</th><td>9</td><td>4</td></tr>"));
  assert.ok(html.includes('data-resolve="keep-server" data-key="k1"'));
  assert.ok(html.includes('data-resolve="keep-mine" data-key="k1"'));
});

test("the banner says what is still on the phone, or that all is sent", () => {
  assert.match(render.bannerText({ holes: 3, writes: 4, conflicts: 0 }, t), /^holes_unsent_many\(n=3\) sent_when_back$/);
  assert.equal(render.bannerText({ holes: 0, writes: 0, conflicts: 0 }, t), "all_sent");
  // Online but the server failing: not "sent when the connection returns" (the connection is there).
  assert.match(render.bannerText({ holes: 3, writes: 3, conflicts: 0, serverFailing: true }, t), /server_retrying$/);
});

test("the hole page has the online form's field names, and escapes names", () => {
  const page = { editing: false, playoff: false, number: 2, players: ["Ann", "<b>"], shape: SHAPE, entries: null,
    dealerSeat: 0, firstSeat: 1, dealer: "Ann", first: "<b>", hasBlocks: true, hasEnderPenalty: false, holesTotal: 9, boardHref: "/x/" };
  const html = hole.holePage(page, t);
  for (const name of ["p0-1-1", "p1-2-3", "p0-total", "p1-blocks"]) assert.ok(html.includes('name="' + name + '"'), name);
  assert.ok(html.includes('name="ender" value="1"'));
  assert.ok(!html.includes("<b>"));
  assert.ok(html.includes("save_hole(n=2)"));
});

test("a tie the tiebreakers cannot break goes to sudden death: playoff hole among the tied only", () => {
  const writes = [];
  for (let n = 1; n <= 9; n += 1) writes.push(write(n, n, "waiting", { Ann: n % 3, Bob: n % 3 }));
  let view = localGame(writes);
  assert.equal(view.match.status, "sudden_death");
  assert.deepEqual(view.next, Object.assign({}, view.next, { number: 1, playoff: true, players: ["Ann", "Bob"] }));
  let html = render.board(view, t);
  assert.ok(html.includes("tie_for_first(names=Ann &amp; Bob)"));
  assert.ok(html.includes('href="/offline/#/g/local-1/playoff/new/"'));
  writes.push(Object.assign(write(10, 1, "waiting", { Ann: 2, Bob: 5 }), { playoff: true }));
  view = localGame(writes);
  assert.equal(view.match.status, "finished");
  assert.deepEqual(view.match.winners, ["Ann"]);
  assert.deepEqual(view.totals, { Ann: 9, Bob: 9 }); // playoff holes never change the totals
  html = render.board(view, t);
  assert.ok(html.includes("data-offline-playoff"));
  assert.ok(html.includes("tiebreak_sudden_death"));
});

test("a refused confirmation is shown with the server's words and the two choices", () => {
  const record = { id: "tok", editToken: "tok", managed: true, players: ["Ann", "Bob"], ruleset: GolfEngine.resolveRuleset("official"), firstDealer: 0, server: SERVER };
  const refused = { key: "c1", seq: 1, kind: "confirm", state: "conflict", holeNumber: null, body: { by: "Ann" },
    conflict: { code: "refused-by-game" }, answer: { status: 409, body: { detail: "Hole 1 differs: Bob 0 here, 2 attested." } } };
  const view = game.gameView(record, [refused], GolfEngine, t);
  const html = render.board(view, t);
  assert.ok(html.includes("conflict_write_title(what=confirm_scorecard)"));
  assert.ok(html.includes("Hole 1 differs: Bob 0 here, 2 attested."));
  assert.ok(html.includes('data-resolve="keep-mine" data-key="c1"'));
  assert.deepEqual(view.summary, { holes: 0, writes: 1, conflicts: 1, serverFailing: false });
});

test("an online visit keeps the game as the API gives it, with what the page says of it", () => {
  assert.equal(capture.tokenOf("/games/e/AbC-9_z/holes/new/"), "AbC-9_z");
  assert.equal(capture.tokenOf("/games/v/AbC/"), null);
  const page = { getAttribute: (name) => ({ "data-managed": "1", "data-ruleset-label": "official: 2x3", "data-table-label": "Spring Open, table 3" })[name] };
  const api = { title: "", view_token: "V", preset: "official", first_dealer: 2, players: [{ name: "Ann" }, { name: "Bob" }, { name: "Cy" }] };
  const board = Object.assign({ ruleset: GolfEngine.resolveRuleset("official") }, SERVER);
  const kept = capture.recordFrom({ id: "local-9", local: [{ key: "w" }], sent: [] }, "T", api, board, page);
  assert.equal(kept.id, "local-9"); // a game started on this phone keeps its local id
  assert.deepEqual(kept.local, [{ key: "w" }]); // and its waiting writes
  assert.equal(kept.editToken, "T");
  assert.deepEqual(kept.players, ["Ann", "Bob", "Cy"]);
  assert.equal(kept.firstDealer, 2);
  assert.equal(kept.server, board);
  assert.equal(kept.managed, true);
  assert.deepEqual(kept.table, { label: "Spring Open, table 3" });
  assert.equal(capture.recordFrom(null, "T", api, board, page).id, "T");
});
