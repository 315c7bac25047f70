// GolfSyncHttp: how GolfSync talks to the server and keeps one flush at a time (issue 32, item 4).
// Load it before sync.js (a page: <script> in that order; the service worker: importScripts). It
// builds the requests (headers, the edit token filled in), reads answers, tells a success from a
// refusal to retry or a conflict, and holds the cross-tab lock. No window or document at load.
(function (root) {
  "use strict";

  var LOCK_NAME = "golf-sync";
  var LEASE_KEY = "golf-sync-lease";
  var LEASE_MS = 60000; // longer than a send's timeout; renewed before every send
  var TIMEOUT_MS = 20000; // a send that hangs longer is a network error (retried, same key)

  /** Why a write became a conflict (the page words each; `answer.body.detail` is the server's own
   * text, already in the player's language). */
  var CONFLICT_CODES = {
    400: "invalid", 401: "not-allowed", 403: "not-allowed", 404: "link-not-found",
    409: "refused-by-game", 412: "changed-elsewhere", 422: "key-reused", 428: "needs-version",
  };
  /** Why writes still wait: no connection, the server failing or asking to wait, a service worker
   * refused for want of the CSRF token, another tab sending. */
  var WAIT_CODES = ["offline", "server-busy", "rate-limited", "needs-page", "busy-elsewhere"];

  var owner = null;
  var leaseHeld = null;

  /** What a page or service worker has, for whatever `configure` did not inject. */
  function defaults(scope) {
    var storage = null;
    try { storage = scope.localStorage || null; } catch (error) { storage = null; }
    return {
      fetch: scope.fetch ? scope.fetch.bind(scope) : null,
      now: Date.now,
      locks: scope.navigator && scope.navigator.locks ? scope.navigator.locks : null,
      lease: storage,
      baseUrl: "",
      timeoutMs: TIMEOUT_MS,
    };
  }

  function get(config, name) { return config[name] !== undefined ? config[name] : defaults(root)[name]; }

  /** `path` with "{token}" replaced by the game's edit token; null while the game has none. */
  function fillPath(path, game) {
    if (path.indexOf("{token}") < 0) return path;
    if (!game || !game.editToken) return null;
    return path.split("{token}").join(encodeURIComponent(game.editToken));
  }

  function inWorker(scope) {
    return typeof scope.WorkerGlobalScope !== "undefined" && scope instanceof scope.WorkerGlobalScope;
  }

  /** The csrftoken cookie's value in a page, else null. */
  function cookieCsrfToken(scope) {
    if (!scope.document || typeof scope.document.cookie !== "string") return null;
    var found = /(?:^|;\s*)csrftoken=([^;]+)/.exec(scope.document.cookie);
    return found ? decodeURIComponent(found[1]) : null;
  }

  /** The headers of a read: X-Golf-Pending. */
  function headers(config, options) {
    return { Accept: "application/json", "X-Golf-Pending": String(options.pending || 0) };
  }

  /** The headers of a write: JSON, its Idempotency-Key, X-Golf-Pending, If-Match, X-CSRFToken. */
  function headersFor(config, write, pending) {
    var result = headers(config, { pending: pending });
    result["Content-Type"] = "application/json";
    result["Idempotency-Key"] = write.key;
    if (write.ifMatch) result["If-Match"] = write.ifMatch;
    var token = config.csrfToken ? config.csrfToken() : cookieCsrfToken(root);
    var remembered = token || !root.GolfStore ? Promise.resolve(token) : root.GolfStore.csrfToken();
    return Promise.resolve(remembered).then(function (csrf) {
      if (csrf) result["X-CSRFToken"] = csrf;
      return result;
    }, function () { return result; });
  }

  /** fetch with a timeout; answers {status, body (JSON or text), etag, replayed}; rejects when no
   * answer came (network error, timeout). */
  function send(config, method, path, body, requestHeaders) {
    var fetcher = get(config, "fetch");
    var abort = typeof AbortController === "function" ? new AbortController() : null;
    var timer = abort ? setTimeout(function () { abort.abort(); }, get(config, "timeoutMs")) : null;
    return fetcher(get(config, "baseUrl") + path, {
      method: method,
      headers: requestHeaders,
      body: body == null ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
      signal: abort ? abort.signal : undefined,
    }).then(function (response) {
      return response.text().then(function (text) {
        var parsed = text;
        try { parsed = text ? JSON.parse(text) : null; } catch (error) { parsed = text; }
        return {
          status: response.status,
          body: parsed,
          etag: response.headers.get("ETag"),
          replayed: response.headers.get("Idempotent-Replayed") === "true",
          retryAfterMs: retryAfterMs(response.headers.get("Retry-After")),
        };
      });
    }).finally(function () { if (timer) clearTimeout(timer); });
  }

  /** A Retry-After header in milliseconds (seconds, or an HTTP date), else null. */
  function retryAfterMs(header) {
    if (!header) return null;
    var seconds = Number(header);
    if (isFinite(seconds)) return Math.max(0, seconds * 1000);
    var when = Date.parse(header);
    return isNaN(when) ? null : Math.max(0, when - Date.now());
  }

  /** What an answer means for its write: {kind: "sent" | "retry" | "conflict", code}. */
  function classify(answer, worker) {
    var status = answer.status;
    if (status >= 200 && status < 300) return { kind: "sent", code: answer.replayed ? "replayed" : "sent" };
    if (status === 408) return { kind: "retry", code: "offline" };
    if (status === 429) return { kind: "retry", code: "rate-limited" };
    if (status >= 500) return { kind: "retry", code: "server-busy" };
    if (status === 403 && worker) return { kind: "retry", code: "needs-page" };
    if (status === 409) {
      var errors = answer.body && answer.body.errors;
      var where = errors && errors[0] && errors[0].where;
      return { kind: "conflict", code: where === "number" ? "hole-saved-elsewhere" : "refused-by-game" };
    }
    return { kind: "conflict", code: CONFLICT_CODES[status] || "refused" };
  }

  function myOwner() {
    if (!owner) owner = String(Math.random()).slice(2) + "-" + Date.now();
    return owner;
  }

  function readLease(storage) {
    try { return JSON.parse(storage.getItem(LEASE_KEY) || "null"); } catch (error) { return null; }
  }

  /** Take the localStorage lease unless another tab holds one that has not expired. */
  function takeLease(config, storage) {
    var now = get(config, "now")();
    var me = config.owner || myOwner();
    var held = readLease(storage);
    if (held && held.owner !== me && held.until > now) return false;
    storage.setItem(LEASE_KEY, JSON.stringify({ owner: me, until: now + LEASE_MS }));
    var check = readLease(storage); // another tab writing at the same moment: the last one wins
    if (!check || check.owner !== me) return false;
    leaseHeld = { storage: storage, owner: me };
    return true;
  }

  /** Keep the lease while a flush goes on (before each send). */
  function renewLease(config) {
    if (!leaseHeld) return Promise.resolve();
    var held = readLease(leaseHeld.storage);
    if (held && held.owner === leaseHeld.owner) {
      var until = get(config, "now")() + LEASE_MS;
      leaseHeld.storage.setItem(LEASE_KEY, JSON.stringify({ owner: leaseHeld.owner, until: until }));
    }
    return Promise.resolve();
  }

  function dropLease() {
    if (!leaseHeld) return;
    var held = readLease(leaseHeld.storage);
    if (held && held.owner === leaseHeld.owner) leaseHeld.storage.removeItem(LEASE_KEY);
    leaseHeld = null;
  }

  var BUSY = { sent: [], conflicts: [], stopped: "busy-elsewhere" };

  /** Run `work()` holding the one flush lock of the origin: navigator.locks where present, else a
   * localStorage lease with expiry, else (a worker without locks) alone. Busy: answers BUSY. */
  function withLock(config, scope, work) {
    var locks = get(config, "locks");
    if (locks) {
      return locks.request(LOCK_NAME, { ifAvailable: true }, function (lock) {
        return lock ? work() : Object.assign({}, BUSY);
      });
    }
    var storage = get(config, "lease");
    if (!storage) return work();
    if (!takeLease(config, storage)) return Promise.resolve(Object.assign({}, BUSY));
    return Promise.resolve().then(work).finally(dropLease);
  }

  var GolfSyncHttp = {
    LOCK_NAME: LOCK_NAME,
    LEASE_KEY: LEASE_KEY,
    CONFLICT_CODES: CONFLICT_CODES,
    WAIT_CODES: WAIT_CODES,
    defaults: defaults,
    fillPath: fillPath,
    inWorker: inWorker,
    cookieCsrfToken: cookieCsrfToken,
    headers: headers,
    headersFor: headersFor,
    send: send,
    classify: classify,
    withLock: withLock,
    renewLease: renewLease,
  };

  if (typeof module === "object" && module.exports) {
    module.exports = GolfSyncHttp;
  } else {
    root.GolfSyncHttp = GolfSyncHttp;
  }
})(typeof self !== "undefined" ? self : globalThis);
