// A small stand-in for the games API, for the offline queue's node tests (tests/js/offline-*.test.js):
// games by edit token, holes with the server's number check (409 where "number"), Idempotency-Key
// replays (same key: the first answer again with Idempotent-Replayed: true), hole ETags with
// If-Match (412), a finalized game (409), and faults injected per request: no answer at all
// ("offline"), the answer lost after the write was done ("drop-answer"), or a status (503, 429...).
// The real server is exercised by tests/offline/test_sync_against_the_server.py.
"use strict";

function fakeGolfServer() {
  const server = { games: {}, keys: {}, log: [], faults: [], nextId: 1, finalized: {} };

  /** Make the next request matching `when` (default: any) fail as `what`. */
  server.failNext = (what, when, headers) => server.faults.push({ what, when: when || (() => true), headers });

  /** A game made directly on the server (as another phone or the director would). */
  server.addGame = (players) => {
    const id = server.nextId++;
    const game = { id, edit: "edit" + id + "xxxxxxxx", view: "view" + id + "xxxxxxxx", players, holes: [] };
    server.games[game.edit] = game;
    return game;
  };

  function answer(status, body, headers) {
    const all = Object.assign({ "Content-Type": "application/json" }, headers || {});
    return {
      status,
      headers: { get: (name) => all[Object.keys(all).find((k) => k.toLowerCase() === name.toLowerCase())] || null },
      text: async () => (body === undefined ? "" : JSON.stringify(body)),
    };
  }

  /** A hole as the API answers it: entries as a list of {name, typed, typed_total, cards, ...}. */
  function holeBody(hole) {
    const entries = Object.entries(hole.entries).map(([name, value]) => ({
      name, typed: typeof value === "number", typed_total: typeof value === "number" ? value : null,
      cards: Array.isArray(value) ? value : null, blocks_marked: 0,
    }));
    return { number: hole.number, etag: `"hole-${hole.id}-v${hole.version}"`, version: hole.version, ender: null, entries };
  }

  function withKey(key, request, make) {
    const seen = key && server.keys[key];
    if (seen) {
      if (seen.body !== request.body) return answer(422, { detail: "key reused", errors: [{ where: "Idempotency-Key" }] });
      return answer(seen.status, seen.answer, { "Idempotent-Replayed": "true" });
    }
    const made = make();
    if (key && made.status < 300) server.keys[key] = { body: request.body, status: made.status, answer: made.answer };
    return answer(made.status, made.answer, made.headers);
  }

  function createGame(request, key) {
    return withKey(key, request, () => {
      const game = server.addGame(JSON.parse(request.body).players);
      return { status: 201, answer: { edit_token: game.edit, view_token: game.view, links: { self: "/g/" + game.edit } } };
    });
  }

  function postHole(game, request, key) {
    return withKey(key, request, () => {
      const body = JSON.parse(request.body);
      if (server.finalized[game.edit]) return { status: 409, answer: { detail: "finalized", errors: [{ where: "round" }] } };
      const next = game.holes.length + 1;
      if (body.number !== undefined && body.number !== next) {
        return { status: 409, answer: { detail: "saved by someone else", errors: [{ where: "number" }] } };
      }
      const hole = { id: server.nextId++, number: next, version: 1, entries: body.entries };
      game.holes.push(hole);
      return { status: 201, answer: holeBody(hole) };
    });
  }

  function putHole(game, number, request) {
    const hole = game.holes[number - 1];
    if (!hole) return answer(404, { detail: "no hole", errors: [{ where: "hole" }] });
    if (server.finalized[game.edit]) return answer(409, { detail: "finalized", errors: [{ where: "round" }] });
    if (request.headers["If-Match"] !== holeBody(hole).etag) return answer(412, { detail: "changed", errors: [{ where: "If-Match" }] });
    const body = JSON.parse(request.body);
    if (body.number !== undefined) return answer(400, { detail: "unknown field number", errors: [{ where: "number" }] });
    hole.entries = body.entries;
    hole.version += 1;
    return answer(200, holeBody(hole), { ETag: holeBody(hole).etag });
  }

  function route(request) {
    const key = request.headers["Idempotency-Key"];
    if (request.path === "/api/v1/games/" && request.method === "POST") return createGame(request, key);
    const found = /^\/api\/v1\/games\/([^/]+)\/(holes|scoreboard|confirm)\/(?:(\d+)\/)?$/.exec(request.path);
    const game = found && server.games[found[1]];
    if (!game) return answer(404, { detail: "no such game", errors: [{ where: "token" }] });
    if (found[2] === "scoreboard") {
      return answer(200, { version: game.holes.length, holes: game.holes.map(holeBody), playoff_holes: [] }, { ETag: `"game-${game.id}"` });
    }
    if (found[2] === "confirm") return withKey(key, request, () => ({ status: 200, answer: { confirmed: true } }));
    if (found[3]) return putHole(game, Number(found[3]), request);
    return postHole(game, request, key);
  }

  /** The fetch the queue is given: logs every request, applies faults, answers like the API. */
  server.fetch = async (url, init) => {
    const request = { path: url, method: init.method, headers: init.headers, body: init.body };
    server.log.push(request);
    const index = server.faults.findIndex((f) => f.when(request));
    const fault = index >= 0 ? server.faults.splice(index, 1)[0] : null;
    if (fault && fault.what === "offline") throw new TypeError("Failed to fetch");
    if (fault && typeof fault.what === "number") return answer(fault.what, { detail: "fault", errors: [] }, fault.headers);
    const result = route(request);
    if (fault && fault.what === "drop-answer") throw new TypeError("Failed to fetch (answer lost)");
    return result;
  };

  /** The write requests (not the scoreboard reads) in the order they arrived. */
  server.writes = () => server.log.filter((r) => r.method !== "GET");
  return server;
}

module.exports = { fakeGolfServer };
