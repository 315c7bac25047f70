// The offline queue (static/js/offline/sync.js) on an in-memory store and a fake API
// (tests/js/fake-golf-server.js): order, stopping at the first failure, one key per write however
// often it is retried, lost answers, replays, conflicts held per game, {token} from the create,
// keep-mine / keep-server, and one flush at a time. Run: node --test tests/js/.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const offline = path.join(__dirname, "..", "..", "static", "js", "offline");
const GolfStore = require(path.join(offline, "store.js"));
const GolfSync = require(path.join(offline, "sync.js"));
const { fakeGolfServer } = require("./fake-golf-server.js");

/** A fresh phone: empty storage, the fake server, navigator.locks absent (no lease either). */
function phone(options) {
  const server = fakeGolfServer();
  GolfStore.use(GolfStore.memoryBackend());
  GolfSync.configure(Object.assign({ fetch: server.fetch, locks: null, lease: null, baseUrl: "" }, options || {}));
  return server;
}

async function serverGame(server, id, players) {
  const made = server.addGame(players || ["Ann", "Bob"]);
  await GolfStore.putGame({ id: id || made.edit, editToken: made.edit, viewToken: made.view, players: made.players });
  return made;
}

function hole(gameId, n, entries, key) {
  return GolfSync.enqueue({
    gameId, kind: "hole", method: "POST", path: "/api/v1/games/{token}/holes/", holeNumber: n,
    body: { entries: entries || { Ann: n, Bob: 10 - n } }, key,
  });
}

const holeNumbers = (server, edit) => server.games[edit].holes.map((h) => h.number);

test("writes go in the order they were made, across games, and leave the queue", async () => {
  const server = phone();
  const a = await serverGame(server);
  const b = await serverGame(server);
  await hole(a.edit, 1);
  await hole(b.edit, 1);
  await hole(a.edit, 2);
  const report = await GolfSync.flush();
  assert.equal(report.sent.length, 3);
  assert.deepEqual(server.writes().map((r) => [r.path, JSON.parse(r.body).number]), [
    [`/api/v1/games/${a.edit}/holes/`, 1], [`/api/v1/games/${b.edit}/holes/`, 1], [`/api/v1/games/${a.edit}/holes/`, 2],
  ]);
  assert.deepEqual(await GolfSync.pending(), []);
  const game = await GolfStore.getGame(a.edit);
  assert.deepEqual(game.local, []);
  assert.deepEqual(game.sent.map((s) => [s.holeNumber, s.status, s.outcome]), [[1, 201, "sent"], [2, 201, "sent"]]);
  assert.deepEqual(game.server.holes.map((h) => h.number), [1, 2]); // the server's copy read after
  assert.ok(game.lastHeardAt);
});

test("every request carries JSON, its key, X-Golf-Pending, the CSRF token, and no second key", async () => {
  const server = phone({ csrfToken: () => "csrf123" });
  const a = await serverGame(server);
  await hole(a.edit, 1, null, "key-one-aaaaaaaaaaaa");
  await hole(a.edit, 2, null, "key-two-aaaaaaaaaaaa");
  await GolfSync.flush();
  const [first, second] = server.writes();
  assert.equal(first.headers["Content-Type"], "application/json");
  assert.equal(first.headers["Idempotency-Key"], "key-one-aaaaaaaaaaaa");
  assert.equal(second.headers["Idempotency-Key"], "key-two-aaaaaaaaaaaa");
  assert.equal(first.headers["X-CSRFToken"], "csrf123");
  assert.deepEqual([first.headers["X-Golf-Pending"], second.headers["X-Golf-Pending"]], ["1", "0"]);
  const read = server.log.find((r) => r.method === "GET");
  assert.equal(read.headers["X-Golf-Pending"], "0");
});

test("the flush stops at the first failure and the write waits with its key", async () => {
  const server = phone();
  const a = await serverGame(server);
  const b = await serverGame(server);
  await hole(a.edit, 1);
  await hole(a.edit, 2);
  await hole(b.edit, 1);
  server.failNext(503, (r) => r.method === "POST" && JSON.parse(r.body).number === 2);
  const report = await GolfSync.flush();
  assert.equal(report.stopped, "server-busy");
  assert.deepEqual(holeNumbers(server, a.edit), [1]);
  assert.deepEqual(holeNumbers(server, b.edit), []); // nothing overtakes the failed write
  const waiting = await GolfSync.pending();
  assert.deepEqual(
    waiting.map((w) => [w.gameId, w.holeNumber, w.state, w.tries, w.lastError && w.lastError.code]),
    [[a.edit, 2, "waiting", 1, "server-busy"], [b.edit, 1, "waiting", 0, null]],
  );
  const status = await GolfSync.status();
  assert.equal(status.problem, "server-busy");
  assert.deepEqual(status.games[a.edit].holesWaiting, [2]);
  server.failNext(429);
  assert.equal((await GolfSync.flush()).stopped, "rate-limited");
  assert.deepEqual((await GolfSync.flush()).sent.length, 2);
  assert.deepEqual(holeNumbers(server, a.edit), [1, 2]);
  assert.deepEqual(holeNumbers(server, b.edit), [1]);
});

test("the same key is sent on every retry and the write is recorded once", async () => {
  const server = phone();
  const a = await serverGame(server);
  const write = await hole(a.edit, 1);
  server.failNext("offline");
  server.failNext("offline");
  server.failNext(502);
  for (let i = 0; i < 3; i += 1) assert.ok((await GolfSync.flush()).stopped);
  assert.deepEqual((await GolfSync.flush()).sent, [write.key]);
  const keys = server.writes().map((r) => r.headers["Idempotency-Key"]);
  assert.deepEqual(keys, [write.key, write.key, write.key, write.key]);
  assert.deepEqual(holeNumbers(server, a.edit), [1]);
  assert.equal((await GolfStore.getGame(a.edit)).sent[0].key, write.key);
});

test("an answer lost after the server recorded the hole: the retry is replayed, recorded once", async () => {
  const server = phone();
  const a = await serverGame(server);
  await hole(a.edit, 1);
  await hole(a.edit, 2);
  server.failNext("drop-answer", (r) => r.method === "POST");
  assert.equal((await GolfSync.flush()).stopped, "offline");
  assert.deepEqual(holeNumbers(server, a.edit), [1]); // the server has it, the phone does not know
  assert.equal((await GolfSync.pending()).length, 2);
  const report = await GolfSync.flush();
  assert.equal(report.sent.length, 2);
  assert.deepEqual(holeNumbers(server, a.edit), [1, 2]); // hole 1 once, hole 2 after it
  const sent = (await GolfStore.getGame(a.edit)).sent;
  assert.deepEqual(sent.map((s) => [s.holeNumber, s.replayed]), [[1, true], [2, false]]);
});

test("a game created offline gets its tokens from the create, then its holes are sent to them", async () => {
  const server = phone();
  const id = GolfStore.newGameId();
  assert.match(id, /^local-[0-9a-f-]{36}$/);
  await GolfStore.putGame({ id, players: ["Ann", "Bob"], rulesetSpec: "official" });
  const create = await GolfSync.enqueue({
    gameId: id, kind: "create-game", method: "POST", path: "/api/v1/games/",
    body: { players: ["Ann", "Bob"], ruleset: "official", first_dealer: 0 },
  });
  for (let n = 1; n <= 3; n += 1) await hole(id, n);
  server.failNext("drop-answer", (r) => r.path === "/api/v1/games/"); // the create's answer lost
  assert.equal((await GolfSync.flush()).stopped, "offline");
  assert.equal(Object.keys(server.games).length, 1);
  const report = await GolfSync.flush();
  assert.equal(report.sent.length, 4);
  assert.equal(Object.keys(server.games).length, 1); // the replayed create: still one game
  const game = await GolfStore.getGame(id);
  const edit = Object.keys(server.games)[0];
  assert.equal(game.editToken, edit);
  assert.equal(game.viewToken, server.games[edit].view);
  assert.deepEqual(game.links, { self: "/g/" + edit });
  assert.equal(game.id, id); // the phone keeps its local id
  assert.equal((await GolfStore.gameByToken(edit)).id, id);
  assert.deepEqual(holeNumbers(server, edit), [1, 2, 3]);
  assert.equal(server.writes()[0].headers["Idempotency-Key"], create.key);
  assert.ok(server.writes().slice(2).every((r) => r.path === `/api/v1/games/${edit}/holes/`));
});

test("holes of a game whose create has not been answered wait; other games go on", async () => {
  const server = phone();
  const id = GolfStore.newGameId();
  await GolfStore.putGame({ id, players: ["Ann", "Bob"] });
  const b = await serverGame(server);
  await GolfSync.enqueue({ gameId: id, kind: "create-game", path: "/api/v1/games/", body: { players: ["Ann", ""] } });
  await hole(id, 1);
  await hole(b.edit, 1);
  server.failNext(400, (r) => r.path === "/api/v1/games/");
  const report = await GolfSync.flush();
  assert.equal(report.conflicts.length, 1);
  assert.deepEqual(holeNumbers(server, b.edit), [1]);
  const [create, waiting] = await GolfSync.pending(id);
  assert.equal(create.state, "conflict");
  assert.equal(create.conflict.code, "invalid");
  assert.equal(waiting.state, "waiting");
  assert.equal((await GolfSync.resolve(create.key, "keep-mine")).code, "cannot-resend"); // as it was: refused again
  assert.equal((await GolfSync.resolve(create.key, "keep-server")).code, "cannot-drop-create"); // no server version
  const fixed = await GolfSync.resolve(create.key, "keep-mine", { body: { players: ["Ann", "Cy"] } });
  assert.equal(fixed.code, "kept-mine");
  assert.notEqual(fixed.key, create.key);
  const game = await GolfStore.getGame(id);
  assert.deepEqual(server.games[game.editToken].players, ["Ann", "Cy"]);
  assert.deepEqual(holeNumbers(server, game.editToken), [1]); // its hole followed
  assert.deepEqual(await GolfSync.pending(), []);
});

test("forgetGame removes a game and its writes, and only that game", async () => {
  const server = phone();
  const a = await serverGame(server);
  const b = await serverGame(server);
  await hole(a.edit, 1);
  await hole(b.edit, 1);
  assert.equal(await GolfSync.forgetGame(a.edit), 1);
  assert.equal(await GolfStore.getGame(a.edit), undefined);
  assert.deepEqual((await GolfSync.pending()).map((w) => w.gameId), [b.edit]);
});

test("a hole saved while the flush is sending goes in the same flush, after the others", async () => {
  const server = phone();
  const a = await serverGame(server);
  await hole(a.edit, 1);
  const fetch = server.fetch;
  let queued = null;
  GolfSync.configure({ locks: null, lease: null, fetch: async (url, init) => {
    if (!queued) queued = hole(a.edit, 2); // the player saves hole 2 while hole 1 is on its way
    await queued;
    return fetch(url, init);
  } });
  const report = await GolfSync.flush();
  assert.equal(report.sent.length, 2);
  assert.deepEqual(holeNumbers(server, a.edit), [1, 2]);
});

test("tries back off after failures in a row, and wait as long as the server's Retry-After asks", async () => {
  let now = Date.parse("2026-11-27T10:00:00Z");
  const server = phone({ now: () => now });
  const a = await serverGame(server);
  await hole(a.edit, 1);
  const waits = [];
  for (let i = 0; i < 4; i += 1) {
    server.failNext("offline");
    await GolfSync.flush();
    waits.push((Date.parse((await GolfSync.status()).nextTryAt) - now) / 1000);
  }
  assert.deepEqual(waits, [15, 30, 60, 120]);
  server.failNext(429, null, { "Retry-After": "600" });
  await GolfSync.flush();
  assert.equal((Date.parse((await GolfSync.status()).nextTryAt) - now) / 1000, 600);
  assert.equal((await GolfSync.status()).problem, "rate-limited");
  await GolfSync.flush();
  assert.equal((await GolfSync.status()).nextTryAt, null); // a success resets it
  assert.equal((await GolfSync.status()).problem, null);
});
