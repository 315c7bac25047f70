// GolfStore: what a phone keeps of its games and of the writes it has not yet sent (issue 32).
// Records live in IndexedDB through idb-keyval (static/vendor/idb-keyval-6.3.0.min.js, which must be
// loaded first): they survive a reload, closing the browser and restarting the phone. The backend is
// injected (`GolfStore.use(backend)`), so node tests run on `GolfStore.memoryBackend()`.
//
// Keys: "game:<id>" a game record, "write:<key>" a queued write (its Idempotency-Key), "meta:seq"
// the last global write number, "meta:csrftoken" the last CSRF token a page saw (a service worker
// has no cookies to read it from).
//
// A game record ("game:<id>"):
//   { id: "<edit token>" or "local-<uuid>" (a game started offline keeps its local id),
//     editToken, viewToken (null until the server answered the create), title, players: [names],
//     rulesetSpec: "official" | {...}, ruleset: {...resolved}, rulesetLabel, firstDealer, managed,
//     table: null | {tournament, round, number, confirmUrl},
//     server: null | the last GET /api/v1/games/{token}/scoreboard/ answer, serverEtag, holeEtags,
//     local: [writes not yet acknowledged], lastHeardAt: ISO time of the server's last answer,
//     links: the server's links once it answered the create,
//     sent: the last writes acknowledged, newest last: {key, kind, holeNumber, status, replayed, at, outcome} }
// A write ("write:<key>"), also the queue's entry:
//   { key (the Idempotency-Key, made when Save was pressed), gameId, seq (global order),
//     kind: "create-game" | "hole" | "hole-edit" | "confirm" | ..., method, path ("{token}" filled
//     at send time), body, holeNumber, ifMatch, state: "waiting" | "sending" | "conflict",
//     createdAt, tries, lastError, answer: null | {status, body}, conflict: null | {code, at} }
//
// Several tabs (and the service worker) share the database: change a game with `updateGame` (one
// IndexedDB transaction reads and writes it), never by getGame + putGame, which could undo another
// tab's change made in between. `putGame` is for a new record.
// Works in a page, a service worker (no window or document is touched) and node.
(function (root) {
  "use strict";

  var DB_NAME = "golfclub-offline";
  var STORE_NAME = "kv";
  var SENT_KEPT = 50; // how many acknowledged writes a game keeps for "what reached the server"

  /** A backend on IndexedDB through idb-keyval (`idb` is the global idbKeyval). */
  function idbBackend(idb) {
    var custom = idb.createStore(DB_NAME, STORE_NAME);
    return {
      get: function (key) { return idb.get(key, custom); },
      keys: function () { return idb.keys(custom); },
      getMany: function (keys) { return idb.getMany(keys, custom); },
      transact: function (keys, change) {
        return custom("readwrite", function (objectStore) { return transactIn(objectStore, keys, change); });
      },
    };
  }

  /** Read `keys` and apply `change` to them inside one readwrite transaction of `objectStore`.
   * Requests are chained by callbacks, not promises, so the transaction stays active throughout. */
  function transactIn(objectStore, keys, change) {
    return new Promise(function (resolve, reject) {
      var values = new Array(keys.length);
      var left = keys.length;
      var outcome;
      var tx = objectStore.transaction;
      tx.oncomplete = function () { resolve(outcome && outcome.result); };
      tx.onerror = tx.onabort = function () { reject(tx.error); };
      function apply() {
        try {
          outcome = change(values) || {};
          Object.keys(outcome.put || {}).forEach(function (k) { objectStore.put(outcome.put[k], k); });
          (outcome.del || []).forEach(function (k) { objectStore.delete(k); });
        } catch (error) {
          tx.abort();
          reject(error);
        }
      }
      if (left === 0) return apply();
      keys.forEach(function (key, i) {
        var request = objectStore.get(key);
        request.onsuccess = function () {
          values[i] = request.result;
          left -= 1;
          if (left === 0) apply();
        };
      });
    });
  }

  function copy(value) {
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  }

  /** A backend in memory (node tests, tools): copies values in and out as IndexedDB does.
   * `initial` is an object of key → value (e.g. what `dump()` gave before: a phone "reloaded"). */
  function memoryBackend(initial) {
    var map = new Map(Object.entries(copy(initial || {})));
    return {
      get: function (key) { return Promise.resolve(copy(map.get(key))); },
      keys: function () { return Promise.resolve(Array.from(map.keys())); },
      getMany: function (keys) { return Promise.resolve(keys.map(function (k) { return copy(map.get(k)); })); },
      transact: function (keys, change) {
        return Promise.resolve().then(function () {
          var outcome = change(keys.map(function (k) { return copy(map.get(k)); })) || {};
          Object.keys(outcome.put || {}).forEach(function (k) { map.set(k, copy(outcome.put[k])); });
          (outcome.del || []).forEach(function (k) { map.delete(k); });
          return outcome.result;
        });
      },
      /** Everything stored, as a plain object (to save a test phone's state between runs). */
      dump: function () { return copy(Object.fromEntries(map)); },
    };
  }

  var backend = null;

  function current() {
    if (!backend) {
      if (!root.idbKeyval) throw new Error("GolfStore: load idb-keyval first or call GolfStore.use()");
      backend = idbBackend(root.idbKeyval);
    }
    return backend;
  }

  /** A random UUID (version 4): crypto.randomUUID where it exists, else from getRandomValues. */
  function newKey() {
    var crypto = root.crypto;
    if (crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
    bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 4122 variant
    var hex = Array.from(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function gameKey(id) { return "game:" + id; }
  function writeKey(key) { return "write:" + key; }

  function listByPrefix(prefix) {
    var store = current();
    return store.keys().then(function (keys) {
      var wanted = keys.filter(function (k) { return String(k).indexOf(prefix) === 0; });
      return store.getMany(wanted);
    }).then(function (values) { return values.filter(Boolean); });
  }

  /** A game record with the fields a page may leave out filled in. */
  function normalGame(record) {
    return Object.assign({
      editToken: null, viewToken: null, title: "", players: [], rulesetSpec: "official", ruleset: null,
      firstDealer: 0, managed: false, table: null, server: null, local: [], sent: [], links: null,
      lastHeardAt: null,
    }, record);
  }

  // Writes kept in step with their game: each change of a queued write changes its copy in the
  // game's `local` list in the same transaction (the page shows `local`; GolfSync reads "write:").

  function now() { return new Date().toISOString(); }

  /** Where a hole's ETag is kept in `game.holeEtags`: "3", or "p1" for playoff hole 1. */
  function etagSlot(path, number) {
    return (String(path).indexOf("/playoff-holes/") >= 0 ? "p" : "") + number;
  }

  /** The holes' ETags of a scoreboard answer, by etagSlot. */
  function serverEtags(board) {
    var tags = {};
    ((board && board.holes) || []).forEach(function (h) { tags[String(h.number)] = h.etag; });
    ((board && board.playoff_holes) || []).forEach(function (h) { tags["p" + h.number] = h.etag; });
    return tags;
  }

  /** `game.local` with the write `key` replaced by `write` (null: taken out). */
  function localWith(game, key, write) {
    return (game.local || []).map(function (w) { return w.key === key ? write : w; }).filter(Boolean);
  }

  /** A line of the game's `sent` history ("what reached the server", and what the player dropped). */
  function historyLine(write, answer, outcome) {
    return {
      key: write.key, kind: write.kind, holeNumber: write.holeNumber, status: answer ? answer.status : null,
      replayed: !!(answer && answer.replayed), at: now(), outcome: outcome,
    };
  }

  function withHistory(game, line) {
    game.sent = (game.sent || []).concat([line]).slice(-SENT_KEPT);
    return game;
  }

  /** What an acknowledged write teaches the game: its tokens and links (create-game), a hole's ETag. */
  function learnFromAnswer(game, write, answer) {
    var body = answer && answer.body;
    if (answer) game.lastHeardAt = now();
    if (body && body.etag && write.holeNumber != null) {
      game.holeEtags = Object.assign({}, game.holeEtags);
      game.holeEtags[etagSlot(write.path, write.holeNumber)] = body.etag;
    }
    if (write.kind === "create-game" && body) {
      game.editToken = body.edit_token || game.editToken;
      game.viewToken = body.view_token || game.viewToken;
      game.links = body.links || game.links;
      game.created = body;
    }
    return game;
  }

  var Writes = {
    /** Queue a whole write: the next global seq (unless it has one), into its game's `local`. The
     * same key queued again (a Save sent twice) keeps the first write; answers the stored write. */
    add: function (write) {
      var keys = ["meta:seq", writeKey(write.key), gameKey(write.gameId)];
      return current().transact(keys, function (values) {
        if (values[1]) return { result: values[1] };
        if (!values[2]) throw new Error("GolfStore: no game " + write.gameId);
        write.seq = write.seq != null ? write.seq : (values[0] || 0) + 1;
        values[2].local = (values[2].local || []).concat([write]);
        var put = {};
        put[keys[0]] = Math.max(values[0] || 0, write.seq);
        put[keys[1]] = write;
        put[keys[2]] = values[2];
        return { put: put, result: write };
      });
    },
    /** Store a changed write and its copy in `local`; `changeGame(game)` may change the game too. */
    save: function (write, changeGame) {
      var keys = [writeKey(write.key), gameKey(write.gameId)];
      return current().transact(keys, function (values) {
        var put = {};
        put[keys[0]] = write;
        if (values[1]) {
          values[1].local = localWith(values[1], write.key, write);
          put[keys[1]] = changeGame ? changeGame(values[1]) || values[1] : values[1];
        }
        return { put: put, result: write };
      });
    },
    /** The server took `write` (`answer` {status, body, replayed}): off the queue, into `sent`. */
    acknowledge: function (write, answer) {
      return Writes.remove(write, function (game) {
        return withHistory(learnFromAnswer(game, write, answer), historyLine(write, answer, "sent"));
      });
    },
    /** The player chose the server's version: the write leaves the phone, noted "kept-server". */
    drop: function (write) {
      return Writes.remove(write, function (game) { return withHistory(game, historyLine(write, null, "kept-server")); });
    },
    remove: function (write, changeGame) {
      var keys = [writeKey(write.key), gameKey(write.gameId)];
      return current().transact(keys, function (values) {
        var put = {};
        if (values[1]) {
          values[1].local = localWith(values[1], write.key, null);
          put[keys[1]] = changeGame(values[1]) || values[1];
        }
        return { put: put, del: [keys[0]] };
      });
    },
    /** `next` takes the place of `write` (its seq, its place in `local`). */
    replace: function (write, next) {
      var keys = [writeKey(write.key), writeKey(next.key), gameKey(write.gameId)];
      return current().transact(keys, function (values) {
        var put = {};
        put[keys[1]] = next;
        if (values[2]) {
          values[2].local = localWith(values[2], write.key, next);
          put[keys[2]] = values[2];
        }
        return { put: put, del: [keys[0]] };
      });
    },
  };

  var GolfStore = {
    DB_NAME: DB_NAME,
    SENT_KEPT: SENT_KEPT,
    /** Use `store` (idbBackend or memoryBackend shape) from now on. */
    use: function (store) { backend = store; },
    memoryBackend: memoryBackend,
    idbBackend: idbBackend,
    /** The backend in use (made from idb-keyval on first use). */
    backend: current,
    newKey: newKey,
    /** An id for a game started on the phone: "local-<uuid>" (kept after the server answers). */
    newGameId: function () { return "local-" + newKey(); },
    gameKey: gameKey,
    writeKey: writeKey,
    etagSlot: etagSlot,
    serverEtags: serverEtags,
    /** The queued writes' records, kept in step with their games (used by GolfSync). */
    writes: Writes,
    /** The game record `id`, or undefined. */
    getGame: function (id) { return current().get(gameKey(id)); },
    /** Store a (new) game record whole; answers the record as stored. */
    putGame: function (record) {
      var game = normalGame(record);
      return current().transact([], function () {
        var put = {};
        put[gameKey(game.id)] = game;
        return { put: put, result: game };
      });
    },
    /** Change game `id` atomically: `change(record)` returns the new record (or undefined: no change).
     * Answers the record as stored (undefined when there is no such game). */
    updateGame: function (id, change) {
      return current().transact([gameKey(id)], function (values) {
        if (!values[0]) return { result: undefined };
        var changed = change(values[0]) || values[0];
        var put = {};
        put[gameKey(id)] = changed;
        return { put: put, result: changed };
      });
    },
    /** Every game record on the phone. */
    listGames: function () { return listByPrefix("game:"); },
    /** The game whose local id, edit token or view token is `token`, or undefined. */
    gameByToken: function (token) {
      return GolfStore.listGames().then(function (games) {
        return games.find(function (g) { return g.id === token || g.editToken === token || g.viewToken === token; });
      });
    },
    /** Forget game `id` and every write of it still on the phone (only on the player's word).
     * Answers how many writes went with it. */
    forgetGame: function (id) {
      return GolfStore.listWrites().then(function (writes) {
        var keys = writes.filter(function (w) { return w.gameId === id; }).map(function (w) { return writeKey(w.key); });
        return current().transact([], function () { return { del: keys.concat([gameKey(id)]), result: keys.length }; });
      });
    },
    /** The queued write `key`, or undefined. */
    getWrite: function (key) { return current().get(writeKey(key)); },
    /** Every queued write (not yet acknowledged), in global `seq` order. */
    listWrites: function () {
      return listByPrefix("write:").then(function (writes) {
        return writes.sort(function (a, b) { return a.seq - b.seq; });
      });
    },
    /** Read keys and apply `change(values)` → {put: {key: value}, del: [keys], result} in one
     * transaction (GolfSync uses it to keep a write and its game's `local` list in step). */
    transact: function (keys, change) { return current().transact(keys, change); },
    /** Remember the CSRF token a page read from its cookie, for the service worker's sends. */
    rememberCsrfToken: function (token) {
      return current().transact(["meta:csrftoken"], function (values) {
        return values[0] === token ? {} : { put: { "meta:csrftoken": token } };
      });
    },
    /** The last CSRF token a page remembered, or undefined. */
    csrfToken: function () { return current().get("meta:csrftoken"); },
  };

  if (typeof module === "object" && module.exports) {
    module.exports = GolfStore;
  } else {
    root.GolfStore = GolfStore;
  }
})(typeof self !== "undefined" ? self : globalThis);
