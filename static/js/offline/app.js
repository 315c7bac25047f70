// The offline app (issue 32): the /offline/ shell's controller. It reads the address bar (a server
// game's own /games/e/<token>/... link, or /offline/#/g/<local id>/... for a game started with no
// connection), loads the game from the phone (GolfStore) with its waiting writes (GolfSync), and
// draws the page with GolfOfflineApp.views. Links inside the shell are followed without the network.
// When GolfSync reports a change (a write sent, refused, a game acknowledged), the page is redrawn;
// a game started offline then takes the server's link (history.replaceState).
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});

  /** The page's translated texts: key -> text with {placeholders}. */
  function loadTexts(doc) {
    var texts = {};
    doc.querySelectorAll("#offline-texts [data-t]").forEach(function (el) { texts[el.getAttribute("data-t")] = el.textContent; });
    return function t(key, values) {
      var text = texts[key];
      if (text === undefined) return "";
      return text.replace(/\{(\w+)\}/g, function (all, name) {
        return values && values[name] !== undefined ? String(values[name]) : all;
      });
    };
  }

  /** The phone's storage and queue, (GolfStore, GolfSync: static/js/offline/store.js and sync.js). */
  var data = {
    gameFor: function (route) {
      if (route.gameId) return root.GolfStore.getGame(route.gameId);
      return Promise.resolve(root.GolfStore.gameByToken(route.token)).then(function (found) {
        return found || root.GolfStore.getGame(route.token);
      });
    },
    writesOf: function (record) {
      return Promise.resolve(root.GolfSync.pending(record.id)).then(function (writes) {
        return Array.isArray(writes) ? writes : record.local || [];
      });
    },
    enqueue: function (write) { return root.GolfSync.enqueue(write); },
    /** The write `enqueue` stores, not yet stored (the scoreboard draws it while it is stored). */
    prepare: function (write) { return root.GolfSync.prepare(write); },
    /** A queued write changed before it was sent (a correction of a hole still waiting): same key,
     * same place in the queue. Answers true, "sending" while the sync is sending it, false once gone. */
    updateWrite: function (write) {
      var keys = [root.GolfStore.writeKey(write.key), root.GolfStore.gameKey(write.gameId)];
      return root.GolfStore.transact(keys, function (values) {
        if (!values[0]) return { result: false };
        if (values[0].state !== "waiting") return { result: values[0].state === "sending" ? "sending" : false };
        var stored = Object.assign({}, values[0], { body: write.body });
        var put = {};
        put[keys[0]] = stored;
        if (values[1]) {
          values[1].local = (values[1].local || []).map(function (w) { return w.key === write.key ? stored : w; });
          put[keys[1]] = values[1];
        }
        return { put: put, result: true };
      });
    },
    flushSoon: function () {
      if (offline()) return;
      Promise.resolve().then(function () { return root.GolfSync.flush(); }).catch(function () { /* retried by the sync's own triggers */ });
    },
  };

  var state = { route: null, record: null, writes: [], t: null, busy: false };

  function appRoot() { return document.querySelector("[data-offline-app]"); }

  /** Draw the page the address bar asks for. */
  function show() {
    var m = App.model;
    var route = m.routeOf(location.pathname, location.hash);
    state.route = route;
    if (route.view === "home") return App.views.home(state);
    if (route.view === "start") return App.views.start(state);
    return data.gameFor(route).then(function (record) {
      state.record = record || null;
      if (!record) return App.views.unknown(state);
      return data.writesOf(record).then(function (writes) { return draw(route, record, writes); });
    });
  }

  /** Draw the page of `route` for a game as read from the phone. */
  function draw(route, record, writes) {
    state.record = record;
    state.writes = writes;
    if (record.editToken && route.gameId) return adoptServerLink(record, route);
    return App.views[route.view](state);
  }

  /** The shell may stand in for a server game's page while the phone is online (the page hung past
   * the service worker's limit): its copy may lack what was saved since, so when the page opens
   * online, read the server's scoreboard once; the redraw comes through GolfSync.onChange. */
  function refreshIfOnline() {
    var record = state.record;
    if (!record || !record.editToken || !root.GolfSync || !root.GolfSync.refresh) return;
    if (offline()) return;
    root.GolfSync.refresh(record.id).catch(function () { /* offline after all: the copy stands */ });
  }

  /** A game started on the phone got its server link: the page moves to it (no reload). */
  function adoptServerLink(record, route) {
    var rest = location.hash.replace(/^#\/g\/[^/]+\//, "");
    history.replaceState(null, "", "/games/e/" + record.editToken + "/" + rest);
    state.route = App.model.routeOf(location.pathname, "");
    return App.views[state.route.view](state);
  }

  /** Follow a link of the shell without the network (a game page, the start page, home). With
   * `inMemory`, the current game's record and writes are drawn as they are in `state` (just saved). */
  function go(href, replace, inMemory) {
    if (replace) history.replaceState(null, "", href);
    else history.pushState(null, "", href);
    window.scrollTo(0, 0);
    if (App.views.note) App.views.note("");
    if (inMemory && state.record) {
      state.route = App.model.routeOf(location.pathname, location.hash);
      return Promise.resolve(App.views[state.route.view](state));
    }
    return show();
  }

  function handled(href) {
    var url = new URL(href, location.href);
    if (url.origin !== location.origin) return false;
    if (url.pathname === "/offline/") return true;
    return App.model.routeOf(url.pathname, url.hash).view !== "home";
  }

  function onClick(event) {
    var link = event.target.closest && event.target.closest("a[href]");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
    if (link.hasAttribute("data-offline-share") || !handled(link.href)) return;
    event.preventDefault();
    go(link.getAttribute("href"));
  }

  /** Redraw after the queue changed, unless the scorer is typing a hole (then only the banner), or
   * the page already shows what the phone holds: after a Save the queue reports the write just
   * drawn (a whole redraw cost 25 to 40 ms on a slow phone, at times before Save's first frame). */
  function onSyncChange() {
    if (state.busy) return;
    var typing = document.querySelector("[data-offline-hole-form], [data-offline-start], [data-offline-confirm]");
    if (typing && state.record) {
      return data.gameFor(state.route).then(function (record) {
        if (record && record.editToken && state.route.gameId) {
          state.record = record;
          var rest = location.hash.replace(/^#\/g\/[^/]+\//, "");
          history.replaceState(null, "", "/games/e/" + record.editToken + "/" + rest);
          state.route = App.model.routeOf(location.pathname, "");
        }
      });
    }
    if (typing) return;
    if (!state.record || state.route.view !== "board") return show();
    var route = state.route;
    return data.gameFor(route).then(function (record) {
      if (!record) return show();
      return data.writesOf(record).then(function (writes) {
        // A Save began meanwhile (it draws the board itself), or the page moved on (it drew itself).
        if (state.busy || state.route !== route) return;
        var noteShown = Boolean(document.querySelector("[data-offline-now]"));
        var same = signature(record, writes) === signature(state.record, state.writes) && noteShown === offline();
        if (!same) return draw(route, record, writes);
      });
    });
  }

  /** What a game's board is drawn from: the record (its `local` copy of the writes aside) and the
   * writes (the board also says when there is no connection). */
  function signature(record, writes) {
    return JSON.stringify([Object.assign({}, record, { local: null }), writes]);
  }

  function offline() { return Boolean(root.navigator && root.navigator.onLine === false); }

  /** A redraw whose failure (storage refused) must not end as an unhandled rejection. */
  function quietly(redraw) {
    return function () { return Promise.resolve().then(redraw).catch(function (error) { if (root.console) console.error(error); }); };
  }

  function start() {
    state.t = loadTexts(document);
    document.addEventListener("click", onClick);
    window.addEventListener("popstate", quietly(show));
    window.addEventListener("hashchange", quietly(show));
    if (root.GolfSync && root.GolfSync.onChange) root.GolfSync.onChange(quietly(onSyncChange));
    if (root.GolfSync && root.GolfSync.start) root.GolfSync.start();
    return quietly(show)().then(refreshIfOnline);
  }

  App.data = data;
  App.state = state;
  App.go = go;
  App.show = show;
  App.loadTexts = loadTexts;
  App.root = appRoot;
  if (typeof document !== "undefined" && document.querySelector && document.querySelector("[data-offline-app]")) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
  if (typeof module !== "undefined" && module.exports) module.exports = App;
})(typeof globalThis !== "undefined" ? globalThis : this);
