// The phone's store (static/js/offline/store.js) and the queue's lock (sync-http.js): keys and ids,
// records that survive a "reload", loading in a service worker (no window, no document), and one
// flush at a time across tabs (navigator.locks, else a localStorage lease). Run: node --test tests/js/.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const offline = path.join(__dirname, "..", "..", "static", "js", "offline");
const vendor = path.join(__dirname, "..", "..", "static", "vendor");
const GolfStore = require(path.join(offline, "store.js"));
const GolfSync = require(path.join(offline, "sync.js"));
const Http = require(path.join(offline, "sync-http.js"));
const { fakeGolfServer } = require("./fake-golf-server.js");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test("keys are v4 UUIDs, from getRandomValues where randomUUID is missing", () => {
  assert.match(GolfStore.newKey(), UUID);
  const scope = { crypto: { getRandomValues: (a) => require("node:crypto").webcrypto.getRandomValues(a) } };
  const context = vm.createContext({ self: scope, Uint8Array, Array, Object, Promise, JSON, Map, String, Error });
  vm.runInContext(fs.readFileSync(path.join(offline, "store.js"), "utf8"), context);
  const keys = new Set(Array.from({ length: 200 }, () => scope.GolfStore.newKey()));
  assert.equal(keys.size, 200);
  for (const key of keys) assert.match(key, UUID);
  assert.match(scope.GolfStore.newGameId(), /^local-/);
});

test("what the phone stored is there after a reload (a new backend from the saved data)", async () => {
  const first = GolfStore.memoryBackend();
  GolfStore.use(first);
  GolfSync.configure({ fetch: () => Promise.reject(new TypeError("offline")), locks: null, lease: null });
  const id = GolfStore.newGameId();
  await GolfStore.putGame({ id, players: ["Ann", "Bob"] });
  const write = await GolfSync.enqueue({ gameId: id, kind: "hole", path: "/api/v1/games/{token}/holes/", holeNumber: 1, body: { entries: { Ann: 1, Bob: 2 } } });
  assert.deepEqual(write.body, { entries: { Ann: 1, Bob: 2 }, number: 1 }); // the hole number is named
  assert.equal((await GolfSync.flush()).stopped, null); // no token yet: waits without sending
  GolfStore.use(GolfStore.memoryBackend(first.dump()));
  const again = await GolfStore.getGame(id);
  assert.deepEqual(again.local.map((w) => [w.key, w.state, w.seq]), [[write.key, "waiting", 1]]);
  assert.equal((await GolfStore.getWrite(write.key)).key, write.key);
  const twice = await GolfSync.enqueue(Object.assign({}, write, { body: { entries: { Ann: 9 } } }));
  assert.deepEqual(twice.body, write.body); // the same key enqueued again keeps the first write
  assert.equal((await GolfSync.pending(id)).length, 1);
});

test("updateGame changes a record in one step and answers undefined for no game", async () => {
  GolfStore.use(GolfStore.memoryBackend());
  await GolfStore.putGame({ id: "g1", title: "x" });
  const changed = await GolfStore.updateGame("g1", (g) => Object.assign(g, { title: "y" }));
  assert.equal(changed.title, "y");
  assert.equal((await GolfStore.getGame("g1")).title, "y");
  assert.equal(await GolfStore.updateGame("nope", (g) => g), undefined);
  assert.equal((await GolfStore.listGames()).length, 1);
});

test("store.js, sync-http.js, sync-resolve.js and sync.js load in a service worker scope", () => {
  const scope = { addEventListener() {}, navigator: {}, crypto: require("node:crypto").webcrypto, fetch() {} };
  scope.self = scope;
  const context = vm.createContext(scope); // no window, no document, no module
  for (const file of [path.join(vendor, "idb-keyval-6.3.0.min.js"), ...["store.js", "sync-http.js", "sync-resolve.js", "sync.js"].map((f) => path.join(offline, f))]) {
    vm.runInContext(fs.readFileSync(file, "utf8"), context, { filename: file });
  }
  for (const name of ["idbKeyval", "GolfStore", "GolfSyncHttp", "GolfSyncResolve", "GolfSync"]) assert.ok(scope[name], name);
  assert.equal(typeof scope.GolfSync.flush, "function");
  assert.equal(typeof scope.idbKeyval.createStore, "function");
});

test("two flushes at once in one tab send each write once", async () => {
  const server = fakeGolfServer();
  GolfStore.use(GolfStore.memoryBackend());
  GolfSync.configure({ fetch: server.fetch, locks: null, lease: null });
  const made = server.addGame(["Ann", "Bob"]);
  await GolfStore.putGame({ id: made.edit, editToken: made.edit });
  for (let n = 1; n <= 3; n += 1) {
    await GolfSync.enqueue({ gameId: made.edit, kind: "hole", path: "/api/v1/games/{token}/holes/", holeNumber: n, body: { entries: { Ann: n } } });
  }
  const [one, two] = await Promise.all([GolfSync.flush(), GolfSync.flush()]);
  assert.equal(one, two);
  assert.equal(server.writes().length, 3);
});

test("navigator.locks: a flush while another tab holds the lock sends nothing", async () => {
  const server = fakeGolfServer();
  let held = true;
  const locks = {
    request: async (name, options, work) => {
      assert.equal(name, "golf-sync");
      assert.equal(options.ifAvailable, true);
      return work(held ? null : { name });
    },
  };
  GolfStore.use(GolfStore.memoryBackend());
  GolfSync.configure({ fetch: server.fetch, locks, lease: null });
  const made = server.addGame(["Ann", "Bob"]);
  await GolfStore.putGame({ id: made.edit, editToken: made.edit });
  await GolfSync.enqueue({ gameId: made.edit, kind: "hole", path: "/api/v1/games/{token}/holes/", holeNumber: 1, body: { entries: { Ann: 1 } } });
  assert.equal((await GolfSync.flush()).stopped, "busy-elsewhere");
  assert.equal(server.log.length, 0);
  held = false;
  assert.equal((await GolfSync.flush()).sent.length, 1);
});

function memoryStorage() {
  const items = new Map();
  return { getItem: (k) => (items.has(k) ? items.get(k) : null), setItem: (k, v) => items.set(k, String(v)), removeItem: (k) => items.delete(k) };
}

test("the localStorage lease: another tab's live lease refuses, an expired one is taken", async () => {
  const storage = memoryStorage();
  let now = 1000000;
  const config = { lease: storage, locks: null, now: () => now, owner: "tab-b" };
  storage.setItem(Http.LEASE_KEY, JSON.stringify({ owner: "tab-a", until: now + 5000 }));
  let ran = 0;
  const work = async () => { ran += 1; return { sent: [], conflicts: [], stopped: null }; };
  assert.equal((await Http.withLock(config, globalThis, work)).stopped, "busy-elsewhere");
  assert.equal(ran, 0);
  now += 6000; // tab A died mid-flush: its lease expired
  assert.equal((await Http.withLock(config, globalThis, work)).stopped, null);
  assert.equal(ran, 1);
  assert.equal(storage.getItem(Http.LEASE_KEY), null); // released after the flush
  const inside = await Http.withLock(config, globalThis, async () => {
    const other = await Http.withLock(Object.assign({}, config, { owner: "tab-c" }), globalThis, work);
    return other;
  });
  assert.equal(inside.stopped, "busy-elsewhere"); // a second tab while this one flushes
});

/** The four scripts loaded in a fake page (window events, document, a service worker with
 * Background Sync), as <script> tags would; answers the page's scope and what it saw. */
function fakePage(server) {
  const seen = { handlers: {}, docHandlers: {}, syncTags: [] };
  const scope = {
    addEventListener: (name, handler) => { seen.handlers[name] = handler; },
    document: { cookie: "other=1; csrftoken=abc%3D", visibilityState: "visible", addEventListener: (name, handler) => { seen.docHandlers[name] = handler; } },
    navigator: { onLine: true, serviceWorker: { ready: Promise.resolve({ sync: { register: async (tag) => seen.syncTags.push(tag) } }) } },
    crypto: require("node:crypto").webcrypto, fetch: server.fetch, setTimeout, clearTimeout, setInterval, clearInterval,
  };
  scope.self = scope;
  const context = vm.createContext(scope);
  for (const file of [path.join(vendor, "idb-keyval-6.3.0.min.js"), ...["store.js", "sync-http.js", "sync-resolve.js", "sync.js"].map((f) => path.join(offline, f))]) {
    vm.runInContext(fs.readFileSync(file, "utf8"), context, { filename: file });
  }
  scope.GolfStore.use(scope.GolfStore.memoryBackend());
  return { scope, seen };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

test("start(): page load, a Save, the online event and the tab shown again each send what waits", async () => {
  const server = fakeGolfServer();
  const { scope, seen } = fakePage(server);
  const { GolfStore: store, GolfSync: sync } = scope;
  const made = server.addGame(["Ann", "Bob"]);
  await store.putGame({ id: made.edit, editToken: made.edit });
  const queue = (n) => sync.enqueue({ gameId: made.edit, kind: "hole", path: "/api/v1/games/{token}/holes/", holeNumber: n, body: { entries: { Ann: n } } });
  await queue(1);
  assert.equal(server.log.length, 0); // nothing sent before start()
  sync.start();
  await settle();
  assert.deepEqual(made.holes.map((h) => h.number), [1]); // page load
  assert.equal(server.writes()[0].headers["X-CSRFToken"], "abc="); // from the csrftoken cookie
  assert.equal(await store.csrfToken(), "abc="); // remembered for the service worker
  server.failNext("offline");
  await queue(2);
  await settle();
  assert.deepEqual(made.holes.map((h) => h.number), [1]); // the Save's own try found no network
  assert.deepEqual(seen.syncTags.slice(-1), ["golf-sync"]); // Background Sync asked for
  seen.handlers.online();
  await settle();
  assert.deepEqual(made.holes.map((h) => h.number), [1, 2]);
  server.failNext("offline");
  await queue(3);
  await settle();
  seen.docHandlers.visibilitychange();
  await settle();
  assert.deepEqual(made.holes.map((h) => h.number), [1, 2, 3]);
  const statuses = [];
  sync.onChange((status) => statuses.push(status));
  await queue(4);
  await settle();
  assert.ok(statuses.some((s) => s.games[made.edit].waiting === 1)); // the banner heard of it
  assert.equal(statuses.at(-1).games[made.edit].waiting, 0);
  sync.stop();
});

test("flush({backgroundSync: true}) rejects while writes wait, so the browser's sync tries again", async () => {
  const server = fakeGolfServer();
  const { scope } = fakePage(server);
  const made = server.addGame(["Ann", "Bob"]);
  await scope.GolfStore.putGame({ id: made.edit, editToken: made.edit });
  await scope.GolfSync.enqueue({ gameId: made.edit, kind: "hole", path: "/api/v1/games/{token}/holes/", holeNumber: 1, body: { entries: { Ann: 1 } } });
  server.failNext(503);
  await assert.rejects(scope.GolfSync.flush({ backgroundSync: true }));
  const report = await scope.GolfSync.flush({ backgroundSync: true });
  assert.equal(report.sent.length, 1);
});
