// The home page's list of this phone's games with writes not yet sent (issue 32): read from the
// phone (GolfStore, GolfSync), worded with the page's translated texts, redrawn when the queue
// changes. Works on the home page served from the service worker's copy with no connection too.
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});

  /** The games with writes on the phone: [{title, href, summary}], most unsent first. */
  function unsentGames(games, writes, t) {
    return games.map(function (record) {
      var own = writes.filter(function (w) { return w.gameId === record.id; });
      return { title: App.game.titleOf(record, t), href: App.model.gameHref(record, ""), summary: App.model.pendingSummary(own) };
    }).filter(function (item) { return item.summary.writes > 0; })
      .sort(function (a, b) { return b.summary.writes - a.summary.writes; });
  }

  function draw(box, t) {
    return Promise.all([root.GolfStore.listGames(), root.GolfSync.pending()]).then(function (read) {
      var items = unsentGames(read[0] || [], read[1] || [], t);
      box.hidden = items.length === 0;
      box.querySelector("[data-unsent-list]").innerHTML = items.length ? App.render.gameList(items, t) : "";
    });
  }

  function start() {
    var box = document.querySelector("[data-phone-games]");
    if (!box || !root.GolfStore || !root.GolfSync) return;
    var t = App.loadTexts(document);
    if (root.GolfSync.onChange) root.GolfSync.onChange(function () { draw(box, t).catch(function () {}); });
    if (root.GolfSync.start) root.GolfSync.start();
    draw(box, t).catch(function () { /* no storage: nothing to list */ });
  }

  App.home = { unsentGames: unsentGames };
  if (typeof document !== "undefined" && document.addEventListener) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
  if (typeof module !== "undefined" && module.exports) module.exports = App.home;
})(typeof globalThis !== "undefined" ? globalThis : this);
