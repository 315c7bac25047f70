/* Golf club's service worker, served at /sw.js (scoring/web/pwa_views.py) after its configuration:
 *   self.GOLF_SW_CONFIG = {version, precache, syncScripts, startPages, shell, notice, staticUrl}
 *
 * What it does (docs/offline.md for players, docs/performance.md for the download budget):
 * - install: stores the static files a phone needs offline (the server's list, by rule) in a cache
 *   of this version, then, without failing install when one is missing, the offline shell
 *   (/offline/), the "You are offline" page and the start pages (home, new game, calculator, rules),
 *   asked without cookies (the anonymous visitor's pages; no answer may change the visitor's cookies).
 * - navigations: network first. A page a table needs (KEPT_PAGES) is stored when it answers 2xx;
 *   if the network fails, or hangs for NETWORK_TIMEOUT_MS (hall Wi-Fi often hangs rather than
 *   fails), the stored copy, else for a game or table address the offline shell (it draws the game
 *   from the phone's own storage), else the "You are offline" page. Other navigations (downloads,
 *   dashboards, /admin/, /accounts/) go to the network with no timeout (a PDF may take seconds)
 *   and are never stored; only a failed one gets the "You are offline" page.
 * - static files: cache first (hashed names in production: a changed file is a new address);
 *   offline, an old hashed address (named by a page stored before an update) gets the current file
 *   of the same name.
 * - everything else (POSTs, htmx requests and their 304s, /api/, conditional requests): untouched;
 *   /accounts/ and /admin/ pages go to the network, never stored (offline: the "You are offline" page).
 * - sync event "golf-sync": GolfSync.flush() when the offline queue's scripts are there.
 * - messages: {type: "skip-waiting"}, {type: "forget-pages"} (sent when someone logs out).
 *
 * Classic script; under node (tests/js/sw.test.js) it only exports its pure helpers.
 */
(function (scope) {
  "use strict";

  var CONFIG = scope.GOLF_SW_CONFIG || {
    version: "none", precache: [], syncScripts: [], startPages: [],
    shell: "/offline/", notice: "/no-connection/", staticUrl: "/static/"
  };
  var STATIC_CACHE = "golf-static-" + CONFIG.version;
  var PAGES_CACHE = "golf-pages";
  // Long enough for a busy server answering a form's redirect (a copy drawn by the shell lacks the
  // server's message and anything saved since), short enough for a table on hanging Wi-Fi.
  var NETWORK_TIMEOUT_MS = 8000;
  var PAGES_KEPT_AT_MOST = 80;

  // The pages a table needs with no connection: stored when they answer (paths, query strings kept).
  var KEPT_PAGES = [
    /^\/$/,
    /^\/games\/new\/$/,
    /^\/games\/[ev]\/[^/]+\/(?:(?:holes|playoff)\/(?:new|\d+)\/|history\/|(?:holes|playoff)\/\d+\/scores\/)?$/,
    /^\/score\/$/,
    /^\/rules\/(?:official\/)?$/,
    /^\/tournaments\/table\/[^/]+\/$/,
    /^\/tournaments\/player\/[^/]+\/$/
  ];
  // Addresses whose pages the offline shell can stand in for (it reads the game from the phone).
  var SHELL_PAGES = [/^\/games\//, /^\/tournaments\/table\//];
  // Addresses where the shell comes before a stored copy (issue 32): a game's edit pages
  // and "Start a live game". A stored copy of them is the server's page of the last visit: it lacks
  // the holes entered on the phone since, and its forms post to the server; the shell draws the game
  // from the phone's copy with its waiting writes and queues what is entered.
  var SHELL_FIRST = [/^\/games\/e\//, /^\/games\/new\/$/, /^\/offline\/$/];
  // Never touched: the API, the admin, logging in and out.
  var PASSED_THROUGH = [/^\/api\//, /^\/admin\//, /^\/accounts\//];

  function matchesAny(patterns, path) {
    return patterns.some(function (pattern) { return pattern.test(path); });
  }

  /** Whether a navigation to `path` is stored for offline use when it answers. */
  function isKeptPage(path) {
    return !matchesAny(PASSED_THROUGH, path) && matchesAny(KEPT_PAGES, path);
  }

  /** Whether the offline shell may stand in for `path` when nothing of it was stored. */
  function isShellPage(path) {
    return matchesAny(SHELL_PAGES, path);
  }

  /** Whether a static file request (cache first). */
  function isStaticFile(url, origin) {
    return url.origin === origin && url.pathname.indexOf(new URL(CONFIG.staticUrl, origin).pathname) === 0;
  }

  /** Whether an answer may be kept: a complete 2xx page of this site, not a redirect. A Set-Cookie
   * is never visible here nor replayed from a cache; pages that change the session are the login
   * and admin pages, which are never kept (PASSED_THROUGH). */
  function isStorable(response) {
    return Boolean(response) && response.ok && response.status === 200 && response.type === "basic" &&
      !response.redirected && (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
  }

  /** Whether a request carries its own validators (If-None-Match...): answered by the server alone. */
  function isConditional(request) {
    return ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "Range"]
      .some(function (name) { return request.headers.has(name); });
  }

  /** A static file's address without the content hash ManifestStaticFilesStorage puts in its name
   * ("/static/css/app.0123456789ab.css" -> "/static/css/app.css"). */
  function unhashed(path) {
    return path.replace(/\.[0-9a-f]{12}(\.[^./]+)$/, "$1");
  }

  /** `promise`, or a rejection after `ms` if it has not settled by then. */
  function withTimeout(promise, ms) {
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () { reject(new Error("timeout")); }, ms);
      promise.then(function (value) { clearTimeout(timer); resolve(value); },
        function (error) { clearTimeout(timer); reject(error); });
    });
  }

  var helpers = {
    unhashed: unhashed, withTimeout: withTimeout,
    isKeptPage: isKeptPage, isShellPage: isShellPage, isShellFirst: function (path) { return matchesAny(SHELL_FIRST, path); },
    isStaticFile: isStaticFile, isStorable: isStorable,
    NETWORK_TIMEOUT_MS: NETWORK_TIMEOUT_MS
  };
  if (typeof module !== "undefined" && module.exports) {
    module.exports = helpers;
    return;
  }

  function noop() {}

  /** A copy of `response` that a navigation may be answered with (no "redirected" mark). */
  function clean(response) {
    if (!response.redirected) return Promise.resolve(response);
    return response.blob().then(function (body) {
      return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    });
  }

  /** Store `url` in `cache` if it answers 200 now; a missing page never fails the install.
   * Asked without cookies: a page stored at install is the anonymous visitor's (nothing of the
   * account), and its answer cannot set a cookie. (With them, an answer setting a new CSRF cookie
   * while the visitor logs in on the page overwrote the login's, and the next form was refused.) */
  function storePageIfThere(cache, url) {
    return fetch(url, { credentials: "omit", cache: "no-cache" }).then(function (response) {
      if (!response.ok) return undefined;
      return clean(response).then(function (copy) { return cache.put(url, copy); });
    }).catch(noop);
  }

  scope.addEventListener("install", function (event) {
    event.waitUntil(caches.open(STATIC_CACHE).then(function (cache) {
      return cache.addAll(CONFIG.precache).then(function () {
        return Promise.all([CONFIG.shell, CONFIG.notice].map(function (url) { return storePageIfThere(cache, url); }));
      });
    }).then(function () {
      return caches.open(PAGES_CACHE).then(function (pages) {
        return Promise.all(CONFIG.startPages.map(function (url) { return storePageIfThere(pages, url); }));
      });
    }));
  });

  scope.addEventListener("activate", function (event) {
    event.waitUntil(caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("golf-static-") === 0 && name !== STATIC_CACHE;
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return scope.clients.claim(); }));
  });

  /** Keep `response` for `request`, the oldest stored pages dropped past PAGES_KEPT_AT_MOST. */
  function storePage(request, response) {
    return caches.open(PAGES_CACHE).then(function (pages) {
      return pages.delete(request).then(function () { return pages.put(request, response); }).then(function () {
        return pages.keys();
      }).then(function (requests) {
        var extra = requests.slice(0, Math.max(0, requests.length - PAGES_KEPT_AT_MOST));
        return Promise.all(extra.map(function (old) { return pages.delete(old); }));
      });
    });
  }

  /** What to show for `request` with no network: its stored copy, the shell, the offline notice. */
  function offlineAnswer(request) {
    var path = new URL(request.url).pathname;
    var first = matchesAny(SHELL_FIRST, path) ? caches.match(CONFIG.shell, { ignoreVary: true }) : Promise.resolve(undefined);
    return first.then(function (shell) {
      return shell || storedOrShell(request, path);
    });
  }

  function storedOrShell(request, path) {
    return caches.open(PAGES_CACHE).then(function (pages) {
      return pages.match(request, { ignoreVary: true });
    }).then(function (stored) {
      if (stored) return stored;
      var shell = isShellPage(path) ? caches.match(CONFIG.shell, { ignoreVary: true }) : Promise.resolve(undefined);
      return shell.then(function (answer) { return answer || caches.match(CONFIG.notice, { ignoreVary: true }); });
    });
  }

  function answerNavigation(event) {
    var request = event.request;
    var path = new URL(request.url).pathname;
    if (!isKeptPage(path)) {
      return fetch(request).catch(function (error) {
        return offlineAnswer(request).then(function (answer) { if (answer) return answer; throw error; });
      });
    }
    var storing = Promise.resolve();
    var network = fetch(request).then(function (response) {
      if (isStorable(response)) storing = storePage(request, response.clone()).catch(noop);
      return response;
    });
    event.waitUntil(network.then(function () { return storing; }, noop));
    return withTimeout(network, NETWORK_TIMEOUT_MS).catch(function () {
      // Failed or hanging: what the phone has; with nothing at all, keep waiting for the network.
      return offlineAnswer(request).then(function (answer) { return answer || network; });
    });
  }

  // A stored page names the static files of the deployment it was made with; after an update the
  // worker holds the new version of each under a new address. Offline, such an old address gets
  // the current file of the same name, so a page stored before an update keeps its styles and
  // scripts (and no stored page has to be fetched again at each update).
  var CURRENT_BY_NAME = {};
  CONFIG.precache.forEach(function (url) {
    CURRENT_BY_NAME[unhashed(new URL(url, scope.location.href).pathname)] = url;
  });

  function answerStaticFile(request) {
    return caches.match(request).then(function (stored) {
      if (stored) return stored;
      return fetch(request).catch(function (error) {
        var current = CURRENT_BY_NAME[unhashed(new URL(request.url).pathname)];
        if (!current) throw error;
        return caches.match(current).then(function (answer) { if (answer) return answer; throw error; });
      });
    });
  }

  // A game's hole form (new hole, correction, playoff) posted as a page: when the request fails (the
  // phone believed it was online: hall Wi-Fi without internet), the offline app queues the form's
  // fields under its own idempotency key and the scoreboard opens (the shell, offline).
  var HOLE_FORMS = /^\/games\/e\/[^/]+\/(?:holes|playoff)\/(?:new|\d+)\/$/;

  function postHoleForm(event, path) {
    var copy = event.request.clone();
    return fetch(event.request).catch(function (error) {
      var app = scope.GolfOfflineApp && scope.GolfOfflineApp.capture;
      if (!app) throw error;
      return copy.formData().then(function (data) {
        var values = {};
        data.forEach(function (value, name) { values[name] = value; });
        return app.queueHoleForm(path, values);
      }).then(function (board) {
        return Response.redirect(new URL(board, scope.location.origin).href, 303);
      }, function () { throw error; });
    });
  }

  scope.addEventListener("fetch", function (event) {
    var request = event.request;
    var path = new URL(request.url).pathname;
    if (request.method === "POST" && request.mode === "navigate" && HOLE_FORMS.test(path) &&
        new URL(request.url).origin === scope.location.origin) {
      event.respondWith(postHoleForm(event, path));
      return;
    }
    if (request.method !== "GET" || isConditional(request)) return;
    var url = new URL(request.url);
    if (url.origin !== scope.location.origin) return;
    if (matchesAny(PASSED_THROUGH, url.pathname)) {
      // Never stored nor answered from a store; but "Log in" (in every page's header) tapped with
      // no connection gets the "You are offline" page, not the browser's own error.
      if (request.mode === "navigate") event.respondWith(answerNavigation(event));
      return;
    }
    if (request.mode === "navigate") {
      event.respondWith(answerNavigation(event));
    } else if (isStaticFile(url, scope.location.origin)) {
      event.respondWith(answerStaticFile(request));
    }
  });

  // The offline queue loads at start, as service workers must load
  // their scripts: importScripts() of a new script after install is refused. Missing scripts, or
  // scripts that need a page, leave the worker working without Background Sync.
  try {
    if (CONFIG.syncScripts.length) scope.importScripts.apply(scope, CONFIG.syncScripts);
  } catch (error) {
    // Background Sync is a bonus (iPhones lack it): the pages send the queue themselves.
  }

  scope.addEventListener("sync", function (event) {
    if (event.tag !== "golf-sync") return;
    if (scope.GolfSync && typeof scope.GolfSync.flush === "function") {
      // backgroundSync: the queue knows it runs without a page (no CSRF cookie: a 403 waits for one).
      event.waitUntil(Promise.resolve(scope.GolfSync.flush({ backgroundSync: true })));
    }
  });

  scope.addEventListener("message", function (event) {
    var data = event.data || {};
    if (data.type === "skip-waiting") {
      scope.skipWaiting();
    } else if (data.type === "forget-pages") {
      event.waitUntil(caches.delete(PAGES_CACHE));
    }
  });
})(typeof self !== "undefined" ? self : this);
