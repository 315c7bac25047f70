// A phone for tests/offline/test_sync_against_the_server.py: runs the real static/js/offline/*.js
// in node against a real server. Reads {base, state, actions} as JSON on stdin, prints
// {state, results} as JSON: `state` is everything the phone stored (an in-memory GolfStore backend,
// given back on the next run, as a reloaded phone finds its IndexedDB), `results` one per action.
// Actions: {do: "new-game", players, ruleset, firstDealer} (a game started offline: its record and
// its create-game write), {do: "put-game", record}, {do: "hole", gameId, number, entries},
// {do: "flush"}, {do: "resolve", key, choice}, {do: "pending", gameId}, {do: "status"},
// {do: "game", gameId}.
"use strict";
const path = require("node:path");
const offline = path.join(__dirname, "..", "..", "static", "js", "offline");
const GolfStore = require(path.join(offline, "store.js"));
const GolfSync = require(path.join(offline, "sync.js"));

async function newGame(action) {
  const id = GolfStore.newGameId();
  await GolfStore.putGame({ id, players: action.players, rulesetSpec: action.ruleset, firstDealer: action.firstDealer || 0 });
  const write = await GolfSync.enqueue({
    gameId: id, kind: "create-game", method: "POST", path: "/api/v1/games/",
    body: { players: action.players, ruleset: action.ruleset, first_dealer: action.firstDealer || 0 },
  });
  return { id, key: write.key };
}

const ACTIONS = {
  "new-game": newGame,
  "put-game": (action) => GolfStore.putGame(action.record),
  hole: (action) => GolfSync.enqueue({
    gameId: action.gameId, kind: "hole", method: "POST", path: "/api/v1/games/{token}/holes/",
    holeNumber: action.number, body: { entries: action.entries },
  }),
  flush: () => GolfSync.flush(),
  resolve: (action) => GolfSync.resolve(action.key, action.choice),
  pending: (action) => GolfSync.pending(action.gameId),
  status: () => GolfSync.status(),
  game: (action) => GolfStore.getGame(action.gameId),
};

async function main() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  const backend = GolfStore.memoryBackend(input.state || {});
  GolfStore.use(backend);
  GolfSync.configure({ fetch: globalThis.fetch, baseUrl: input.base, locks: null, lease: null, timeoutMs: 15000 });
  const results = [];
  for (const action of input.actions) results.push(await ACTIONS[action.do](action));
  process.stdout.write(JSON.stringify({ state: backend.dump(), results }));
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error));
  process.exit(1);
});
