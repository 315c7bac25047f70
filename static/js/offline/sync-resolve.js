// GolfSyncResolve: the player's choice on a write the server refused (issue 32, item 5). Load it
// before sync.js; GolfSync.resolve(key, "keep-mine" | "keep-server") calls it.
// keep-server drops the phone's write (only ever on that choice) and reads the server's copy;
// keep-mine sends the phone's version again as a new write with a new Idempotency-Key: a hole the
// server has is corrected (PUT .../holes/{n}/ with If-Match of the hole's ETag just read from the
// server: if someone changes it again meanwhile, 412 and the choice is offered again), a hole it
// lacks is posted again, any other write is sent again. A refusal of that (the round finalized)
// leaves the new write in conflict: the choice stays open. Codes, never English (the page words them).
(function (root) {
  "use strict";

  var GolfStore = root.GolfStore || (typeof require === "function" ? require("./store.js") : null);

  function isPlayoff(write) { return String(write.path).indexOf("/playoff-holes/") >= 0; }

  /** The hole `number` in the game's server copy (regular or playoff), or null. */
  function serverHole(game, number, playoff) {
    var holes = (game.server && (playoff ? game.server.playoff_holes : game.server.holes)) || [];
    return holes.find(function (h) { return h.number === number; }) || null;
  }

  function withoutNumber(body) {
    var copy = Object.assign({}, body || {});
    delete copy.number;
    return copy;
  }

  /** A 412 to a correction that was sent before without an answer: maybe its own first copy moved
   * the hole's version (the server has no key for a PUT; its ETag is what makes it safe). */
  function mayBeOwnEcho(write, answer) {
    return answer.status === 412 && write.method !== "POST" && write.holeNumber != null &&
      !!write.lastError && write.lastError.code === "offline";
  }

  function sameCards(a, b) {
    return JSON.stringify((a || []).map(function (row) { return row.map(String); })) === JSON.stringify(b || []);
  }

  /** Whether the server's entry `e` is what the phone sent as `mine` (grid, total or object). */
  function sameEntry(e, mine) {
    if (typeof mine === "number") return e.typed && e.typed_total === mine;
    if (Array.isArray(mine)) return !e.typed && sameCards(mine, e.cards);
    if (!mine || typeof mine !== "object") return false;
    if ((mine.blocks_marked || 0) !== (e.blocks_marked || 0)) return false;
    return mine.cards ? !e.typed && sameCards(mine.cards, e.cards) : e.typed && e.typed_total === mine.total;
  }

  /** Whether the server copy's hole is the phone's version of `write` (its players and ender). */
  function holeMatches(game, write) {
    var held = game && serverHole(game, write.holeNumber, isPlayoff(write));
    var body = write.body || {};
    if (!held || !body.entries) return false;
    if (body.ender !== undefined && (body.ender || null) !== (held.ender || null)) return false;
    return Object.keys(body.entries).every(function (name) {
      var e = held.entries.find(function (x) { return x.name === name; });
      return !!e && sameEntry(e, body.entries[name]);
    });
  }

  /** The write that sends the phone's version of `write` (not a create) again under `key`. */
  function replacementFor(write, game, key) {
    var next = {
      key: key, gameId: write.gameId, seq: write.seq, holeNumber: write.holeNumber, replaces: write.key,
      state: "waiting", tries: 0, lastError: null, answer: null, conflict: null, createdAt: write.createdAt,
      kind: write.kind, method: write.method, path: write.path, body: write.body, ifMatch: write.ifMatch || null,
    };
    if ((write.kind === "hole" || write.kind === "hole-edit") && write.holeNumber != null) {
      var playoff = isPlayoff(write);
      var family = "/api/v1/games/{token}/" + (playoff ? "playoff-holes/" : "holes/");
      var held = serverHole(game, write.holeNumber, playoff);
      if (held) {
        return Object.assign(next, {
          kind: "hole-edit", method: "PUT", path: family + write.holeNumber + "/",
          body: withoutNumber(write.body), ifMatch: held.etag,
        });
      }
      return Object.assign(next, {
        kind: "hole", method: "POST", path: family,
        body: Object.assign(withoutNumber(write.body), { number: write.holeNumber }), ifMatch: null,
      });
    }
    return next;
  }

  /** A refused create sent again with the body the player corrected (a new key). */
  async function createAgain(sync, write, body) {
    if (!body) return { ok: false, code: "cannot-resend" };
    var next = Object.assign({}, write, {
      key: GolfStore.newKey(), body: body, replaces: write.key, state: "waiting", tries: 0, lastError: null,
      answer: null, conflict: null,
    });
    return sendReplacement(sync, write, next);
  }

  async function sendReplacement(sync, write, next) {
    await GolfStore.writes.replace(write, next);
    await sync.flush();
    var after = await GolfStore.getWrite(next.key);
    if (!after) return { ok: true, code: "kept-mine", key: next.key };
    if (after.state === "conflict") return { ok: false, code: "refused", key: next.key, answer: after.answer };
    return { ok: true, code: "queued", key: next.key };
  }

  async function keepMine(sync, write, options) {
    if (write.kind === "create-game") return createAgain(sync, write, options.body);
    var read = await sync.refresh(write.gameId); // the server's current hole and its ETag
    if (read == null) return { ok: false, code: "offline" };
    if (read !== 200) return { ok: false, code: "server-unreadable", status: read };
    var game = await GolfStore.getGame(write.gameId);
    var next = replacementFor(write, game, GolfStore.newKey());
    if (options.body) next.body = options.body;
    return sendReplacement(sync, write, next);
  }

  /** The player's choice on the conflict `key`: answers {ok, code, key?, answer?} where code is
   * "kept-server", "kept-mine" (the server took it), "queued" (it waits to be sent), or, the choice
   * staying open: "not-a-conflict", "offline", "server-unreadable", "cannot-resend", "refused",
   * "cannot-drop-create". `options.body`: the player's corrected version (needed to send a refused
   * create-game again; the server has no version of a game it refused to create, so keep-server
   * cannot apply: forgetting that game is GolfSync.forgetGame, on the player's word). */
  async function resolve(sync, key, choice, options) {
    if (choice !== "keep-mine" && choice !== "keep-server") throw new Error("GolfSync.resolve: " + choice);
    var write = await GolfStore.getWrite(key);
    if (!write || write.state !== "conflict") return { ok: false, code: "not-a-conflict" };
    if (choice === "keep-mine") return keepMine(sync, write, options || {});
    if (write.kind === "create-game") return { ok: false, code: "cannot-drop-create" };
    await GolfStore.writes.drop(write);
    await sync.refresh(write.gameId);
    await sync.flush(); // the game's later writes were held behind this one
    return { ok: true, code: "kept-server" };
  }

  var GolfSyncResolve = {
    resolve: resolve, replacementFor: replacementFor, mayBeOwnEcho: mayBeOwnEcho, holeMatches: holeMatches,
  };

  if (typeof module === "object" && module.exports) {
    module.exports = GolfSyncResolve;
  } else {
    root.GolfSyncResolve = GolfSyncResolve;
  }
})(typeof self !== "undefined" ? self : globalThis);
