// GolfSync: the phone's queue of writes, sent to the server exactly once (issue 32, item 4).
//
// The interface: enqueue, flush, pending, resolve, onChange, start (below), and:
// - Load four scripts, in this order (pages: <script>; the service worker: importScripts):
//   vendor/idb-keyval-6.3.0.min.js, js/offline/store.js, js/offline/sync-http.js,
//   js/offline/sync-resolve.js, js/offline/sync.js (sync-http: requests and the lock; sync-resolve:
//   the player's choice on a conflict).
// - Change a game record with `GolfStore.updateGame(id, change)` (one IndexedDB transaction, safe
//   with other tabs and the service worker); `putGame` is for a new record. Records also carry
//   `links` (the server's, from the create), `sent` (the last 50 writes acknowledged or dropped:
//   {key, kind, holeNumber, status, replayed, at, outcome: "sent" | "kept-server"}), `holeEtags`.
// - Added: `GolfSync.prepare(input)` (the write enqueue stores, not stored), `status()`,
//   `refresh(gameId)`, `heartbeat()`, `stop()`, `configure({...})` (tests), `forgetGame(gameId)`,
//   `resolve(key, "keep-mine", {body})` (the player's corrected version: how a refused create-game
//   is sent again), `CONFLICT_CODES`, `WAIT_CODES`,
//   `flush({backgroundSync: true})`; a refused write carries `conflict: {code, at}` and `answer`.
// - A correction queued offline: enqueue({gameId, kind: "hole-edit", method: "PUT", path:
//   "/api/v1/games/{token}/holes/<n>/", holeNumber: n, ifMatch: "{etag}", body: {entries, ender}})
//   ("{etag}" is the hole's ETag when it is sent, learnt from its POST's answer or the scoreboard).
//
// How the queue behaves
// - A write is queued by `enqueue({gameId, kind, method, path, body, holeNumber, key?})`. Its key
//   (the Idempotency-Key) is made when the player pressed Save (pass it, or enqueue makes one) and
//   never changes: every retry of that write sends the same key, so the server records it once. A
//   hole POST gets `number: holeNumber` in its body when it has none, so that a hole another phone
//   saved meanwhile is refused (409) instead of being recorded as the next hole.
// - `flush()` sends waiting writes one at a time in global `seq` order (the order they were made),
//   never two flushes at once (navigator.locks across tabs and the service worker; where a browser
//   lacks it, a localStorage lease with expiry among its tabs). `{token}` in a path is the game's edit token at send time: a game
//   started offline gets it from the answer to its "create-game" write; until then its writes wait.
// - Retried later (the write stays "waiting", same key; the flush stops there, as nothing after it
//   should overtake it): no answer (network error, timeout), 5xx, 429, 408; and 403 in a service
//   worker, which cannot read the CSRF cookie (a page sends it again). Tries back off: 15 s, 30 s,
//   1 min, 2 min, then every 5 min, or later when the server's Retry-After says so; reset by any
//   success and by the `online` event.
// - Success: any 2xx, a replayed answer (`Idempotent-Replayed: true`) included. The write leaves
//   the queue and the game's `local`, goes to the game's `sent` history; after the game's writes of
//   this flush the game's `server` copy is read again from GET /api/v1/games/{token}/scoreboard/.
// - Conflict (state "conflict", the server's answer kept in `answer`, with `conflict.code` below):
//   every other 4xx: 400 (cannot succeed as sent), 401/403/404 (link refused or revoked), 409
//   (another phone saved that hole, the match is over, the round finalized...), 412 (changed
//   elsewhere), 422 (key reused with another body). The game's later writes wait behind it (other
//   games go on) until the player chooses with `resolve(key, "keep-mine" | "keep-server")`:
//   keep-server drops the phone's write; keep-mine sends the phone's version again as a new write
//   (new key): a hole the server has is corrected by PUT .../holes/{n}/ with If-Match of the hole's
//   ETag read from the server, a hole it lacks is posted again, another write is sent again. When the
//   server refuses that too (round finalized), the new write is a conflict in its turn: the choice
//   stays open. Nothing is ever dropped without the player choosing keep-server.
// - Every request carries `X-Golf-Pending: <n>`: this game's writes still on the phone (waiting or
//   in conflict), not counting the write the request carries; `X-CSRFToken` when there is a
//   csrftoken cookie (or one a page remembered, in the service worker); same-origin credentials.
// - Triggers (`start()`, in a page): page load, the `online` event, the tab becoming visible, a
//   timer (15 s, backing off), Background Sync ("golf-sync", where the browser has it; the service
//   worker calls `GolfSync.flush({backgroundSync: true})` in its sync event, after importScripts of
//   the four scripts above). A heartbeat every 30 s: a tournament table's game whose
//   writes are still on the phone has its scoreboard read (with X-Golf-Pending), so the director
//   sees the phone is alive and holding writes.
// - `status()` and `onChange(callback)`: per game the counts waiting and in conflict, the hole
//   numbers waiting, the time last heard from the server; the page words them (codes only here).
//
// Texts the page shows (it words them, translated; this code answers only codes):
// - status().problem: "offline" (no connection: will send when it returns), "server-busy" (the
//   server failed: trying again), "rate-limited" (asked to wait), "needs-page" (open the app to
//   send), "busy-elsewhere" (another tab is sending); status().nextTryAt; per game `waiting`
//   ("%(n)s holes not yet sent", holesWaiting for which), `conflict` ("%(n)s refused: choose"),
//   `lastHeardAt` ("last heard from the server at %(time)s"); a game started offline whose create
//   is not yet answered has no server link yet.
// - write.conflict.code, beside write.answer.body.detail (the server's words, already in the
//   player's language): "hole-saved-elsewhere", "refused-by-game" (match over, round finalized,
//   rules frozen...), "changed-elsewhere", "not-allowed", "link-not-found", "invalid", "key-reused",
//   "needs-version", "refused"; the choice: "Keep mine" / "Keep the server's".
// - resolve() codes: "kept-mine", "kept-server", "queued" (kept, will be sent), "offline" (connect
//   to compare with the server first), "server-unreadable", "refused" (the server refused yours too:
//   choose again), "cannot-resend" (correct it first), "cannot-drop-create", "not-a-conflict".
// - game.sent lines: outcome "sent" (replayed: true = "it had already arrived") or "kept-server".
(function (root) {
  "use strict";

  var GolfStore = root.GolfStore || (typeof require === "function" ? require("./store.js") : null);
  var Http = root.GolfSyncHttp || (typeof require === "function" ? require("./sync-http.js") : null);
  var Resolve = root.GolfSyncResolve || (typeof require === "function" ? require("./sync-resolve.js") : null);

  var TIMER_MS = 15000;
  var HEARTBEAT_MS = 30000;
  var BACKOFF_MAX_MS = 300000;
  var SYNC_TAG = "golf-sync";

  var config = {};
  var listeners = [];
  var running = null;
  var failures = 0;
  var lastProblem = null;
  var nextTryAt = null;
  var started = null;
  var channel = null;

  function env(name) { return config[name] !== undefined ? config[name] : Http.defaults(root)[name]; }
  function nowIso() { return new Date(env("now")()).toISOString(); }
  function offline() { return Boolean(root.navigator && root.navigator.onLine === false); }

  /** The write `enqueue(input)` stores, not yet stored (a page draws it while it is stored). */
  function prepare(input) {
    if (!input || !input.gameId || !input.kind || !input.path) throw new Error("GolfSync.enqueue: gameId, kind, path");
    var body = input.body || {};
    var numbered = input.kind === "hole" && (input.method || "POST") === "POST" && input.holeNumber != null && body.number === undefined;
    return Object.assign({ method: "POST", holeNumber: null, ifMatch: null }, input, {
      key: input.key || GolfStore.newKey(), state: "waiting", tries: 0, lastError: null, answer: null,
      conflict: null, createdAt: input.createdAt || nowIso(), body: numbered ? Object.assign({}, body, { number: input.holeNumber }) : body,
    });
  }

  /** Queue `input` (see the top of this file); answers the stored write. A key already queued
   * (the same Save sent twice) keeps the first write. */
  function enqueue(input) {
    return GolfStore.writes.add(prepare(input)).then(function (stored) {
      changed();
      if (started) {
        registerBackgroundSync();
        // Offline a flush fails at once (2 stores, 2 redraws): the `online` event and the timer send it.
        if (!offline()) setTimeout(function () { flush(); }, 0);
      }
      return stored;
    });
  }

  /** Read the game's scoreboard (with X-Golf-Pending) into its `server` copy; answers the status. */
  function refresh(gameId) {
    return Promise.all([GolfStore.getGame(gameId), GolfStore.listWrites()]).then(function (read) {
      var game = read[0];
      var token = game && (game.editToken || game.viewToken);
      if (!token) return null;
      var pending = read[1].filter(function (w) { return w.gameId === gameId; }).length;
      return Http.send(config, "GET", "/api/v1/games/" + token + "/scoreboard/", null, Http.headers(config, { pending: pending }))
        .then(function (answer) {
          return GolfStore.updateGame(gameId, function (g) {
            g.lastHeardAt = nowIso();
            if (answer.status === 200) {
              g.server = answer.body;
              g.serverEtag = answer.etag;
              g.holeEtags = GolfStore.serverEtags(answer.body);
            }
            return g;
          }).then(function () { changed(); return answer.status; });
        }, function () { return null; });
    });
  }

  /** Send one write; answers {kind: "sent" | "conflict" | "retry", code}. An `ifMatch` of "{etag}"
   * (a correction queued before the hole reached the server) is the hole's ETag at send time. */
  function sendWrite(write, game, pending) {
    var path = Http.fillPath(write.path, game);
    var ifMatch = write.ifMatch === "{etag}" ? (game.holeEtags || {})[GolfStore.etagSlot(write.path, write.holeNumber)] : write.ifMatch;
    write.state = "sending";
    write.tries = (write.tries || 0) + 1;
    return GolfStore.writes.save(write).then(function () {
      return Http.headersFor(config, Object.assign({}, write, { ifMatch: ifMatch }), pending);
    }).then(function (headers) {
      return Http.send(config, write.method, path, write.body, headers);
    }).then(function (answer) {
      return settle(write, answer, Http.classify(answer, !!config.inWorker || Http.inWorker(root)));
    }, function () {
      write.state = "waiting";
      write.lastError = { status: null, body: null, code: "offline" };
      return GolfStore.writes.save(write).then(function () { return { kind: "retry", code: "offline" }; });
    });
  }

  /** Record what the answer means for the write (see classify). */
  function settle(write, answer, verdict) {
    if (verdict.kind === "sent") return GolfStore.writes.acknowledge(write, answer).then(function () { return verdict; });
    if (verdict.kind === "conflict" && Resolve.mayBeOwnEcho(write, answer)) {
      // A correction whose answer was lost: its retry finds the hole's version moved (412), by
      // itself when the server's hole is now exactly the phone's version.
      return refresh(write.gameId).then(function () { return GolfStore.getGame(write.gameId); }).then(function (game) {
        if (!Resolve.holeMatches(game, write)) return conflict(write, answer, verdict);
        var ok = { kind: "sent", code: "replayed" };
        return GolfStore.writes.acknowledge(write, { status: answer.status, body: null, replayed: true }).then(function () { return ok; });
      });
    }
    if (verdict.kind === "conflict") return conflict(write, answer, verdict);
    write.state = "waiting";
    write.lastError = { status: answer.status, body: answer.body, code: verdict.code };
    verdict.retryAfterMs = answer.retryAfterMs || null;
    return GolfStore.writes.save(write).then(function () { return verdict; });
  }

  function conflict(write, answer, verdict) {
    write.state = "conflict";
    write.lastError = { status: answer.status, body: answer.body, code: verdict.code };
    write.answer = { status: answer.status, body: answer.body };
    write.conflict = { code: verdict.code, at: nowIso() };
    return GolfStore.writes.save(write, function (g) { g.lastHeardAt = nowIso(); return g; }).then(function () { return verdict; });
  }

  /** One pass over the queue in seq order; answers the report (see flush). */
  async function pass(report, tried) {
    var writes = await GolfStore.listWrites();
    var held = {};
    var done = {};
    for (var i = 0; i < writes.length; i += 1) {
      var write = writes[i];
      if (write.state === "conflict") { held[write.gameId] = true; continue; }
      if (held[write.gameId] || tried[write.key]) { held[write.gameId] = true; continue; }
      var game = await GolfStore.getGame(write.gameId);
      if (!game || Http.fillPath(write.path, game) === null) { held[write.gameId] = true; continue; }
      await Http.renewLease(config, root);
      var pending = writes.filter(function (w) { return w.gameId === write.gameId && !done[w.key] && w.key !== write.key; }).length;
      var verdict = await sendWrite(write, game, pending);
      tried[write.key] = true;
      if (verdict.kind === "retry") {
        report.stopped = verdict.code;
        report.retryAfterMs = verdict.retryAfterMs || null;
        return false;
      }
      done[write.key] = true;
      report.touched[write.gameId] = true;
      report[verdict.kind === "sent" ? "sent" : "conflicts"].push(write.key);
      if (verdict.kind === "conflict") held[write.gameId] = true;
    }
    var now = await GolfStore.listWrites(); // writes queued while this pass was sending
    return now.some(function (w) { return !tried[w.key] && w.state !== "conflict" && !held[w.gameId]; });
  }

  async function runQueue() {
    var report = { sent: [], conflicts: [], stopped: null, touched: {} };
    var tried = {};
    for (var round = 0; round < 5; round += 1) {
      if (!(await pass(report, tried))) break; // again only for writes queued during the pass
    }
    for (var gameId of Object.keys(report.touched)) await refresh(gameId);
    failures = report.stopped ? failures + 1 : 0;
    lastProblem = report.stopped;
    nextTryAt = report.stopped ? env("now")() + Math.max(backoffMs(), report.retryAfterMs || 0) : null;
    delete report.touched;
    changed();
    return report;
  }

  /** The wait before the next timer try: 15 s, doubled by each failure in a row, 5 min at most. */
  function backoffMs() {
    return Math.min(TIMER_MS * Math.pow(2, Math.max(0, failures - 1)), BACKOFF_MAX_MS);
  }

  /** Send what waits (one flush at a time, across tabs). Answers {sent: [keys], conflicts: [keys],
   * stopped: null | "offline" | "server-busy" | "rate-limited" | "needs-page" | "busy-elsewhere"}.
   * `{backgroundSync: true}` rejects when writes still wait, so the browser's sync tries again. */
  function flush(options) {
    if (!running) {
      running = Http.withLock(config, root, runQueue).then(function (report) {
        running = null;
        return report;
      }, function (error) {
        running = null;
        throw error;
      });
    }
    if (!(options && options.backgroundSync)) return running;
    return running.then(function (report) {
      if (report.stopped) throw new Error("golf-sync: writes still waiting (" + report.stopped + ")");
      return report;
    });
  }

  /** Writes of `gameId` still on the phone (waiting, sending or in conflict), in seq order. */
  function pending(gameId) {
    return GolfStore.listWrites().then(function (writes) {
      return writes.filter(function (w) { return gameId == null || w.gameId === gameId; });
    });
  }

  /** Counts per game for the page's banner: {games: {id: {waiting, conflict, holesWaiting,
   * lastHeardAt}}, waiting, conflict, lastHeardAt, problem (a WAIT_CODES code or null), nextTryAt}. */
  function status() {
    return Promise.all([GolfStore.listGames(), GolfStore.listWrites()]).then(function (read) {
      var all = { games: {}, waiting: 0, conflict: 0, lastHeardAt: null, problem: lastProblem,
        nextTryAt: nextTryAt ? new Date(nextTryAt).toISOString() : null };
      read[0].forEach(function (game) {
        all.games[game.id] = { waiting: 0, conflict: 0, holesWaiting: [], lastHeardAt: game.lastHeardAt || null };
        if (game.lastHeardAt && (!all.lastHeardAt || game.lastHeardAt > all.lastHeardAt)) all.lastHeardAt = game.lastHeardAt;
      });
      read[1].forEach(function (w) {
        var one = all.games[w.gameId];
        if (!one) return;
        var kind = w.state === "conflict" ? "conflict" : "waiting";
        one[kind] += 1;
        all[kind] += 1;
        if (kind === "waiting" && w.holeNumber != null) one.holesWaiting.push(w.holeNumber);
      });
      return all;
    });
  }

  /** The channel that tells the other tabs (and pages, from the service worker) of a change. */
  function tabsChannel() {
    if (!channel && root.BroadcastChannel && (root.document || Http.inWorker(root))) {
      channel = new root.BroadcastChannel(SYNC_TAG);
      channel.onmessage = tellListeners;
    }
    return channel;
  }

  function changed() {
    if (tabsChannel()) channel.postMessage("changed");
    tellListeners();
  }

  function tellListeners() {
    if (!listeners.length) return;
    status().then(function (now) {
      listeners.forEach(function (callback) {
        try { callback(now); } catch (error) { setTimeout(function () { throw error; }, 0); }
      });
    }, function () {});
  }

  /** Call `callback(status)` after every change (this tab's or another's); answers an unsubscribe. */
  function onChange(callback) {
    listeners.push(callback);
    return function () { listeners = listeners.filter(function (c) { return c !== callback; }); };
  }

  function registerBackgroundSync() {
    var sw = root.navigator && root.navigator.serviceWorker;
    if (!sw || !sw.ready) return;
    sw.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register(SYNC_TAG);
    }).catch(function () {});
  }

  /** The tournament tables' games still holding writes: their scoreboards read (X-Golf-Pending). */
  function heartbeat() {
    if (offline()) return Promise.resolve([]);
    return Promise.all([GolfStore.listGames(), GolfStore.listWrites()]).then(function (read) {
      var holding = read[0].filter(function (game) {
        return game.table && (game.editToken || game.viewToken) && read[1].some(function (w) { return w.gameId === game.id; });
      });
      return Promise.all(holding.map(function (game) { return refresh(game.id); }));
    });
  }

  function tick() {
    (offline() ? Promise.resolve() : flush()).catch(function () {}).then(function () { // offline: the online event flushes
      var wait = nextTryAt ? Math.max(nextTryAt - env("now")(), 1000) : TIMER_MS; // backoff, Retry-After
      if (started) started.timer = setTimeout(tick, wait);
    });
  }

  /** The triggers (in a page): load, online, visible again, the timer, Background Sync, heartbeat. */
  function start() {
    if (started) return;
    started = {};
    tabsChannel();
    if (root.addEventListener) root.addEventListener("online", function () { failures = 0; flush(); });
    if (root.document) {
      root.document.addEventListener("visibilitychange", function () { if (root.document.visibilityState === "visible") flush(); });
      var token = Http.cookieCsrfToken(root);
      if (token) GolfStore.rememberCsrfToken(token).catch(function () {});
    }
    started.heartbeat = setInterval(function () { heartbeat().catch(function () {}); }, HEARTBEAT_MS);
    pending().then(function (writes) { if (writes.length) registerBackgroundSync(); });
    tick();
  }

  /** Undo `start()` (tests). */
  function stop() {
    if (!started) return;
    clearTimeout(started.timer);
    clearInterval(started.heartbeat);
    started = null;
  }

  var GolfSync = {
    SYNC_TAG: SYNC_TAG,
    CONFLICT_CODES: Http.CONFLICT_CODES,
    WAIT_CODES: Http.WAIT_CODES,
    /** Inject fetch, now, locks, lease storage, csrfToken, timeoutMs, inWorker (tests, tools). */
    configure: function (options) { config = Object.assign({}, options || {}); failures = 0; lastProblem = null; },
    enqueue: enqueue,
    prepare: prepare,
    flush: flush,
    pending: pending,
    status: status,
    refresh: refresh,
    heartbeat: heartbeat,
    onChange: onChange,
    /** The player's choice on a conflict: see static/js/offline/sync-resolve.js. */
    resolve: function (key, choice, options) { return Resolve.resolve(GolfSync, key, choice, options); },
    /** Forget a game and its writes still on the phone (the player's explicit choice only). */
    forgetGame: function (gameId) { return GolfStore.forgetGame(gameId).then(function (n) { changed(); return n; }); },
    start: start,
    stop: stop,
  };

  if (typeof module === "object" && module.exports) {
    module.exports = GolfSync;
  } else {
    root.GolfSync = GolfSync;
  }
})(typeof self !== "undefined" ? self : globalThis);
