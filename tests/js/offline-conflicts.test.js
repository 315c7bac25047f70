// The offline queue's conflicts (static/js/offline/sync.js, sync-resolve.js) on an in-memory store
// and a fake API (tests/js/fake-golf-server.js): a refusal holds that game's later writes only, and
// nothing leaves the phone until the player keeps theirs (a correction with a new key) or the
// server's. Run: node --test tests/js/.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const offline = path.join(__dirname, "..", "..", "static", "js", "offline");
const GolfStore = require(path.join(offline, "store.js"));
const GolfSync = require(path.join(offline, "sync.js"));
const { fakeGolfServer } = require("./fake-golf-server.js");

function phone() {
  const server = fakeGolfServer();
  GolfStore.use(GolfStore.memoryBackend());
  GolfSync.configure({ fetch: server.fetch, locks: null, lease: null });
  return server;
}

async function serverGame(server) {
  const made = server.addGame(["Ann", "Bob"]);
  await GolfStore.putGame({ id: made.edit, editToken: made.edit, viewToken: made.view, players: made.players, table: { number: 1 } });
  return made;
}

function hole(gameId, n, entries) {
  return GolfSync.enqueue({
    gameId, kind: "hole", path: "/api/v1/games/{token}/holes/", holeNumber: n,
    body: { entries: entries || { Ann: n, Bob: 10 - n } },
  });
}

/** Game `a` with holes 1-3 on the server and hole 4 saved by "another phone"; this phone queued
 * its own hole 4 and 5. */
async function twoPhonesOnHoleFour(server) {
  const a = await serverGame(server);
  for (let n = 1; n <= 4; n += 1) a.holes.push({ id: 100 + n, number: n, version: 1, entries: { Ann: 1, Bob: 1 } });
  const mine = await hole(a.edit, 4, { Ann: 7, Bob: 2 });
  const later = await hole(a.edit, 5);
  return { a, mine, later };
}

test("a refused write becomes a conflict with the server's answer and holds only its game", async () => {
  const server = phone();
  const { a, mine, later } = await twoPhonesOnHoleFour(server);
  const b = await serverGame(server);
  await hole(b.edit, 1);
  const report = await GolfSync.flush();
  assert.deepEqual(report.conflicts, [mine.key]);
  assert.equal(report.stopped, null);
  assert.deepEqual(a.holes.map((h) => h.number), [1, 2, 3, 4]); // hole 5 held behind the conflict
  assert.deepEqual(b.holes.map((h) => h.number), [1]); // the other game went on
  const held = await GolfStore.getWrite(mine.key);
  assert.equal(held.state, "conflict");
  assert.equal(held.answer.status, 409);
  assert.equal(held.conflict.code, "hole-saved-elsewhere");
  assert.equal((await GolfStore.getWrite(later.key)).state, "waiting");
  const game = await GolfStore.getGame(a.edit);
  assert.deepEqual(game.local.map((w) => [w.holeNumber, w.state]), [[4, "conflict"], [5, "waiting"]]);
  assert.deepEqual(game.server.holes.map((h) => h.number), [1, 2, 3, 4]); // the server's truth, to show beside
  const status = await GolfSync.status();
  assert.deepEqual([status.games[a.edit].conflict, status.games[a.edit].waiting], [1, 1]);
  await GolfSync.flush(); // flushing again changes nothing until the player chooses
  assert.equal((await GolfStore.getWrite(mine.key)).state, "conflict");
  assert.equal(server.writes().filter((r) => r.headers["Idempotency-Key"] === mine.key).length, 1);
});

test("every refusal status is a conflict with its code; 5xx, 429 and no answer are not", async () => {
  const Http = require(path.join(offline, "sync-http.js"));
  const codes = [400, 401, 403, 404, 409, 412, 422].map((status) => Http.classify({ status, body: null }).code);
  assert.deepEqual(codes, ["invalid", "not-allowed", "not-allowed", "link-not-found", "refused-by-game", "changed-elsewhere", "key-reused"]);
  for (const status of [500, 502, 503, 429, 408]) assert.equal(Http.classify({ status }).kind, "retry");
  assert.equal(Http.classify({ status: 201, replayed: true }).code, "replayed");
  assert.equal(Http.classify({ status: 403 }, true).kind, "retry"); // a service worker without the CSRF cookie
});

test("keep-server drops the phone's write only then, and the game's later writes go", async () => {
  const server = phone();
  const { a, mine, later } = await twoPhonesOnHoleFour(server);
  await GolfSync.flush();
  const answer = await GolfSync.resolve(mine.key, "keep-server");
  assert.equal(answer.code, "kept-server");
  assert.equal(await GolfStore.getWrite(mine.key), undefined);
  assert.equal(await GolfStore.getWrite(later.key), undefined); // sent once released
  assert.deepEqual(a.holes.map((h) => h.number), [1, 2, 3, 4, 5]);
  assert.deepEqual(a.holes[3].entries, { Ann: 1, Bob: 1 }); // the server's hole 4 stands
  const game = await GolfStore.getGame(a.edit);
  assert.deepEqual(game.sent.map((s) => [s.holeNumber, s.outcome]), [[4, "kept-server"], [5, "sent"]]);
  assert.deepEqual(game.local, []);
});

test("keep-mine corrects the server's hole with If-Match and a new key, then the later writes go", async () => {
  const server = phone();
  const { a, mine } = await twoPhonesOnHoleFour(server);
  await GolfSync.flush();
  const answer = await GolfSync.resolve(mine.key, "keep-mine");
  assert.equal(answer.code, "kept-mine");
  assert.notEqual(answer.key, mine.key);
  const put = server.writes().find((r) => r.method === "PUT");
  assert.equal(put.path, `/api/v1/games/${a.edit}/holes/4/`);
  assert.equal(put.headers["If-Match"], '"hole-104-v1"');
  assert.equal(put.headers["Idempotency-Key"], answer.key);
  assert.deepEqual(JSON.parse(put.body), { entries: { Ann: 7, Bob: 2 } });
  assert.deepEqual(a.holes.map((h) => [h.number, h.entries.Ann]), [[1, 1], [2, 1], [3, 1], [4, 7], [5, 5]]);
  assert.deepEqual(await GolfSync.pending(a.edit), []);
});

test("keep-mine for a hole the server lacks posts it again with a new key", async () => {
  const server = phone();
  const a = await serverGame(server);
  const mine = await hole(a.edit, 1);
  server.failNext(404, (r) => r.method === "POST"); // e.g. a link that did not answer for a moment
  await GolfSync.flush();
  assert.equal((await GolfStore.getWrite(mine.key)).conflict.code, "link-not-found");
  const answer = await GolfSync.resolve(mine.key, "keep-mine");
  assert.equal(answer.code, "kept-mine");
  const posts = server.writes().filter((r) => r.method === "POST");
  assert.deepEqual(posts.map((r) => r.headers["Idempotency-Key"]), [mine.key, answer.key]);
  assert.deepEqual(a.holes.map((h) => h.number), [1]);
});

test("keep-mine refused by the server (round finalized) leaves the choice open", async () => {
  const server = phone();
  const { a, mine } = await twoPhonesOnHoleFour(server);
  await GolfSync.flush();
  server.finalized[a.edit] = true;
  const answer = await GolfSync.resolve(mine.key, "keep-mine");
  assert.equal(answer.ok, false);
  assert.equal(answer.code, "refused");
  const open = await GolfStore.getWrite(answer.key);
  assert.equal(open.state, "conflict");
  assert.equal(open.answer.status, 409);
  assert.deepEqual(open.body, { entries: { Ann: 7, Bob: 2 } }); // the phone's version still there
  assert.deepEqual(a.holes[3].entries, { Ann: 1, Bob: 1 });
  assert.equal((await GolfSync.resolve(answer.key, "keep-server")).code, "kept-server");
});

test("keep-mine with no connection says so and keeps the conflict as it was", async () => {
  const server = phone();
  const { mine } = await twoPhonesOnHoleFour(server);
  await GolfSync.flush();
  server.failNext("offline");
  assert.deepEqual(await GolfSync.resolve(mine.key, "keep-mine"), { ok: false, code: "offline" });
  assert.equal((await GolfStore.getWrite(mine.key)).state, "conflict");
  assert.equal((await GolfSync.resolve("no-such-key", "keep-mine")).code, "not-a-conflict");
});

test("a correction queued before its hole reached the server takes the hole's ETag at send time", async () => {
  const server = phone();
  const a = await serverGame(server);
  await hole(a.edit, 1, { Ann: 3, Bob: 4 });
  await GolfSync.enqueue({
    gameId: a.edit, kind: "hole-edit", method: "PUT", path: "/api/v1/games/{token}/holes/1/", holeNumber: 1,
    ifMatch: "{etag}", body: { entries: { Ann: 2, Bob: 4 } },
  });
  const report = await GolfSync.flush();
  assert.equal(report.sent.length, 2);
  assert.deepEqual(a.holes[0].entries, { Ann: 2, Bob: 4 });
  assert.equal(a.holes[0].version, 2);
});

test("the heartbeat reads a table's scoreboard with X-Golf-Pending while writes wait there", async () => {
  const server = phone();
  const { a } = await twoPhonesOnHoleFour(server);
  await GolfSync.flush();
  server.log.length = 0;
  await GolfSync.heartbeat();
  assert.deepEqual(server.log.map((r) => [r.method, r.path, r.headers["X-Golf-Pending"]]), [
    ["GET", `/api/v1/games/${a.edit}/scoreboard/`, "2"],
  ]);
});

test("a correction whose answer was lost is not a conflict with itself on the retry", async () => {
  const server = phone();
  const a = await serverGame(server);
  a.holes.push({ id: 201, number: 1, version: 1, entries: { Ann: 3, Bob: 4 } });
  const fix = await GolfSync.enqueue({
    gameId: a.edit, kind: "hole-edit", method: "PUT", path: "/api/v1/games/{token}/holes/1/", holeNumber: 1,
    ifMatch: '"hole-201-v1"', body: { entries: { Ann: 2, Bob: [["7", "K"], ["Q", "A"]] } },
  });
  server.failNext("drop-answer", (r) => r.method === "PUT");
  assert.equal((await GolfSync.flush()).stopped, "offline");
  assert.equal(a.holes[0].version, 2); // the server changed it; the phone was not told
  const report = await GolfSync.flush(); // the retry: 412, the hole's version moved by itself
  assert.deepEqual(report.sent, [fix.key]);
  assert.deepEqual(await GolfSync.pending(), []);
  assert.equal((await GolfStore.getGame(a.edit)).sent[0].replayed, true);
  assert.equal(a.holes[0].version, 2); // not applied twice
});

test("a correction refused 412 because someone else changed the hole is a conflict", async () => {
  const server = phone();
  const a = await serverGame(server);
  a.holes.push({ id: 201, number: 1, version: 1, entries: { Ann: 3, Bob: 4 } });
  const fix = await GolfSync.enqueue({
    gameId: a.edit, kind: "hole-edit", method: "PUT", path: "/api/v1/games/{token}/holes/1/", holeNumber: 1,
    ifMatch: '"hole-201-v1"', body: { entries: { Ann: 2, Bob: 4 } },
  });
  server.failNext("offline", (r) => r.method === "PUT");
  await GolfSync.flush();
  Object.assign(a.holes[0], { version: 2, entries: { Ann: 8, Bob: 4 } }); // another phone's correction
  const report = await GolfSync.flush();
  assert.deepEqual(report.conflicts, [fix.key]);
  assert.equal((await GolfStore.getWrite(fix.key)).conflict.code, "changed-elsewhere");
});
