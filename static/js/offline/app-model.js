// The offline app's model (issue 32): pure functions, no DOM, no storage. From a game record
// (GolfStore's shape, see the top of store.js) and the phone's writes for it, they work out the holes the
// phone should show (the server's copy with the phone's waiting writes on top), the routes of the
// offline shell, the API bodies of a hole form, and what is still on the phone.
// Tested with `node --test tests/js/` (tests/js/offline-app-model.test.js).
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});
  var HOLE_KINDS = ["hole", "hole-edit"];
  var UNSENT = ["waiting", "sending", "conflict"];

  /** A fresh Idempotency-Key: a UUID (36 characters, never under 16). */
  function newKey() {
    var c = root.crypto;
    if (c && typeof c.randomUUID === "function") return c.randomUUID();
    var bytes = new Uint8Array(16);
    c.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  /** What the shell should draw for a URL: {view, gameId|token, number, playoff}.
   * Views: "home", "start", "board", "hole-new", "hole-edit", "confirm". Local games live under
   * /offline/#/g/<id>/..., server games at their own /games/e/<token>/... links. */
  function routeOf(pathname, hash) {
    var path = String(pathname || "/");
    var fragment = String(hash || "").replace(/^#/, "");
    if (/^\/games\/new\/?$/.test(path) || fragment === "/new/" || fragment === "/new") return { view: "start" };
    var server = /^\/games\/e\/([A-Za-z0-9_-]+)\/(.*)$/.exec(path);
    // A table's scorecard is confirmed at the game's own link with #confirm: the server has no such
    // page, so a reload with a connection shows the game page (its table page confirms online).
    if (server) return Object.assign({ token: server[1] }, fragment === "confirm" ? { view: "confirm" } : subRoute(server[2]));
    // A table's page (its link is its game's edit token) opened with nothing stored: the game's board.
    var table = /^\/tournaments\/table\/([A-Za-z0-9_-]+)\/$/.exec(path);
    if (table) return { token: table[1], view: fragment === "confirm" ? "confirm" : "board" };
    var local = /^\/g\/([A-Za-z0-9_-]+)\/(.*)$/.exec(fragment);
    if (local) return Object.assign({ gameId: local[1] }, subRoute(local[2]));
    return { view: "home" };
  }

  function subRoute(rest) {
    var part = String(rest || "").replace(/[?#].*$/, "");
    var match = /^(holes|playoff)\/(new|\d+)\/?/.exec(part);
    if (match) {
      var playoff = match[1] === "playoff";
      if (match[2] === "new") return { view: "hole-new", playoff: playoff };
      return { view: "hole-edit", playoff: playoff, number: parseInt(match[2], 10) };
    }
    if (/^confirm\/?/.test(part)) return { view: "confirm" };
    return { view: "board" };
  }

  /** The link of a page of a game: the server's once it has one, else the offline shell's. */
  function gameHref(record, rest) {
    var tail = rest || "";
    if (record.editToken) return "/games/e/" + record.editToken + "/" + tail;
    return "/offline/#/g/" + record.id + "/" + tail;
  }

  /** The writes still on the phone (waiting, being sent, or refused), in their order. */
  function unsent(writes) {
    return (writes || []).filter(function (w) { return UNSENT.indexOf(w.state) >= 0; })
      .sort(function (a, b) { return a.seq - b.seq; });
  }

  /** Counts of a game's writes by state, for the banner: {holes, writes, conflicts}. */
  function pendingSummary(writes) {
    var left = unsent(writes);
    var holes = {};
    left.forEach(function (w) { if (HOLE_KINDS.indexOf(w.kind) >= 0) holes[(w.playoff ? "p" : "") + w.holeNumber] = true; });
    // Why the first write still waits, when the server was reached but failed (5xx, 429): the
    // connection is there, so "sent when the connection returns" would be wrong.
    var tried = left.filter(function (w) { return w.state === "waiting" && w.lastError; })[0];
    var code = tried ? tried.lastError.code : null;
    return {
      holes: Object.keys(holes).length,
      writes: left.length,
      conflicts: left.filter(function (w) { return w.state === "conflict"; }).length,
      serverFailing: code === "server-busy" || code === "rate-limited",
    };
  }

  /** A server hole line (the scoreboard's `holes[i]`) as the model's hole. */
  function serverHole(line, playoff) {
    var entries = {};
    var blocks = {};
    var scores = {};
    var typed = {};
    (line.entries || []).forEach(function (e) {
      entries[e.name] = e.typed ? e.typed_total : e.cards;
      if (e.blocks_marked) blocks[e.name] = e.blocks_marked;
      scores[e.name] = e.score;
      typed[e.name] = Boolean(e.typed);
    });
    return {
      number: line.number, playoff: playoff, entries: entries, ender: line.ender || null, blocks: blocks,
      scores: scores, typed: typed, state: "sent", key: null, server: null, version: line.version, etag: line.etag || null,
    };
  }

  /** A hole write's body as the model's hole (scores worked out later by the engine). */
  function writtenHole(write) {
    var body = write.body || {};
    var entries = {};
    var blocks = Object.assign({}, body.blocks_marked || {});
    Object.keys(body.entries || {}).forEach(function (name) {
      var value = body.entries[name];
      if (value && typeof value === "object" && !Array.isArray(value)) {
        entries[name] = "cards" in value ? value.cards : value.total;
        if (value.blocks_marked) blocks[name] = value.blocks_marked;
      } else {
        entries[name] = value;
      }
    });
    var typed = {};
    Object.keys(entries).forEach(function (name) { typed[name] = typeof entries[name] === "number"; });
    return {
      number: write.holeNumber, playoff: Boolean(write.playoff), entries: entries, ender: body.ender || null,
      blocks: blocks, scores: null, typed: typed, state: write.state, key: write.key, write: write, server: null,
    };
  }

  /** The holes to show: the server's copy, then each unacknowledged hole write on top, in order.
   * A refused write ("conflict") does not replace the server's hole: it rides on it (`mine`), so
   * the page can show both. Returns {holes, playoffHoles}, each sorted by number. */
  function mergeHoles(server, writes) {
    var regular = {};
    var playoff = {};
    ((server && server.holes) || []).forEach(function (h) { regular[h.number] = serverHole(h, false); });
    ((server && server.playoff_holes) || []).forEach(function (h) { playoff[h.number] = serverHole(h, true); });
    (writes || []).slice().sort(function (a, b) { return a.seq - b.seq; }).forEach(function (write) {
      if (HOLE_KINDS.indexOf(write.kind) < 0 || write.holeNumber == null) return;
      var book = write.playoff ? playoff : regular;
      var current = book[write.holeNumber];
      if (write.state === "sent" && current && current.state === "sent") return; // already in the copy
      var mine = writtenHole(write);
      if (write.state === "conflict" && current) {
        current.conflict = mine;
        return;
      }
      book[write.holeNumber] = mine;
    });
    return { holes: sorted(regular), playoffHoles: sorted(playoff) };
  }

  function sorted(book) {
    return Object.keys(book).map(function (k) { return book[k]; })
      .sort(function (a, b) { return a.number - b.number; });
  }

  /** The seat dealing hole `number` (1-based): the deal moves one seat clockwise each hole. */
  function dealerSeat(count, firstDealer, number, engine) {
    if (engine && typeof engine.dealerForHole === "function") return engine.dealerForHole(count, firstDealer, number);
    return (((firstDealer + number - 1) % count) + count) % count;
  }

  /** Running totals: name -> [total after hole 1, after hole 2, ...] and the totals. */
  function runningTotals(players, holes) {
    var cumulative = {};
    var totals = {};
    players.forEach(function (name) { cumulative[name] = []; totals[name] = 0; });
    holes.forEach(function (hole) {
      players.forEach(function (name) {
        var score = hole.scores && hole.scores[name];
        if (typeof score === "number") totals[name] += score;
        cumulative[name].push(totals[name]);
      });
    });
    return { totals: totals, cumulative: cumulative };
  }

  /** The lowest score of a hole (for the "best" mark), or null. */
  function lowest(hole, players) {
    var values = players.map(function (n) { return hole.scores ? hole.scores[n] : undefined; })
      .filter(function (v) { return typeof v === "number"; });
    return values.length ? Math.min.apply(null, values) : null;
  }

  App.model = {
    newKey: newKey,
    routeOf: routeOf,
    gameHref: gameHref,
    unsent: unsent,
    pendingSummary: pendingSummary,
    serverHole: serverHole,
    writtenHole: writtenHole,
    mergeHoles: mergeHoles,
    dealerSeat: dealerSeat,
    runningTotals: runningTotals,
    lowest: lowest,
  };
  if (typeof module !== "undefined" && module.exports) module.exports = App.model;
})(typeof globalThis !== "undefined" ? globalThis : this);
