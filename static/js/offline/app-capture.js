// The online game pages' part of the offline app (issue 32). On every visit of a game's edit pages
// (/games/e/<token>/...) with a connection, the game (GET /api/v1/games/{token}/ and .../scoreboard/)
// is kept on the phone (GolfStore), so the page opens with no connection later (the service worker
// then serves /offline/ at this same address and the shell draws the game from that copy).
// The server-rendered hole form, when the phone is offline or this game already has writes waiting
// on the phone (they must reach the server first, in order), is not posted: its fields become the
// API's hole body, queued with the form's own idempotency_key (so a save that did reach the server
// is recognised), and the page goes on to the game's scoreboard (drawn offline by the shell, or by
// the server once the queue is sent). The banner says what is still on the phone.
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});

  function tokenOf(pathname) {
    var match = /^\/games\/e\/([A-Za-z0-9_-]+)\//.exec(pathname);
    return match ? match[1] : null;
  }

  function getJson(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); });
  }

  /** The game record to keep, from the API's game and scoreboard and what the page says of it. */
  function recordFrom(found, token, game, board, page) {
    var base = found || { id: token, local: [], sent: [] };
    var record = Object.assign({}, base, {
      editToken: token, viewToken: game.view_token || base.viewToken || null, title: game.title || "",
      players: game.players.map(function (p) { return p.name; }), ruleset: board.ruleset,
      rulesetSpec: base.rulesetSpec || game.preset, firstDealer: game.first_dealer || 0, server: board,
      lastHeardAt: new Date().toISOString(),
    });
    if (page) {
      record.managed = page.getAttribute("data-managed") === "1";
      record.rulesetLabel = page.getAttribute("data-ruleset-label") || record.rulesetLabel || "";
      var label = page.getAttribute("data-table-label") || (base.table && base.table.label) || "";
      record.table = record.managed ? Object.assign({}, base.table || {}, { label: label }) : null;
    }
    return record;
  }

  /** Keep this game on the phone (its server copy refreshed). */
  function capture(token, page) {
    var api = "/api/v1/games/" + encodeURIComponent(token) + "/";
    return Promise.all([getJson(api), getJson(api + "scoreboard/"), root.GolfStore.gameByToken(token)]).then(function (read) {
      var found = read[2];
      if (found) {
        return root.GolfStore.updateGame(found.id, function (current) { return recordFrom(current, token, read[0], read[1], page); });
      }
      return root.GolfStore.putGame(recordFrom(null, token, read[0], read[1], page));
    });
  }

  function formValues(form) {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      if (el.type === "radio" || el.type === "checkbox") { if (el.checked) values[el.name] = el.value; } else values[el.name] = el.value;
    });
    return values;
  }

  /** The players of a server hole form, as the server makes it: a recorded hole's own players,
   * else the next hole's (the tied players only, for a playoff hole). */
  function formPlayers(record, playoff, number) {
    var board = record.server || {};
    if (number != null) {
      var line = ((playoff ? board.playoff_holes : board.holes) || []).filter(function (h) { return h.number === number; })[0];
      if (line) return line.entries.map(function (e) { return e.name; });
    }
    return board.next_hole && board.next_hole.players ? board.next_hole.players : record.players;
  }

  /** The write a server hole form stands for: a new hole (POST) or a correction (PUT). */
  function writeFromForm(form, record, pathname) {
    return writeFromValues(formValues(form), record, pathname);
  }

  /** The same from the form's fields as posted (name -> value), for the page or the service worker. */
  function writeFromValues(values, record, pathname) {
    var edit = /\/(holes|playoff)\/(\d+)\/?$/.exec(pathname);
    var playoff = /\/playoff\//.test(pathname);
    var number = edit ? parseInt(edit[2], 10) : parseInt(values.number, 10);
    var ruleset = record.ruleset;
    var read = App.form.readHole(values, formPlayers(record, playoff, edit ? number : null), { rows: ruleset.rows, cols: ruleset.cols }, function (key) { return key; });
    if (Object.keys(read.errors).length) return null; // the server's form says what is wrong, in words
    var key = values.idempotency_key && values.idempotency_key.length >= 16 ? values.idempotency_key : App.model.newKey();
    var family = "/api/v1/games/{token}/" + (playoff ? "playoff-holes/" : "holes/");
    var board = record.server || {};
    var line = edit ? ((playoff ? board.playoff_holes : board.holes) || []).filter(function (h) { return h.number === number; })[0] : null;
    return {
      ifMatch: line ? line.etag || null : null,
      key: key, gameId: record.id, kind: edit ? "hole-edit" : "hole", method: edit ? "PUT" : "POST",
      path: family + (edit ? number + "/" : ""), body: App.form.holeBody(read, edit ? null : number),
      holeNumber: number, playoff: playoff,
    };
  }

  /** The service worker's fallback (issue 32): a hole form posted while the browser believed it was
   * online, whose request failed. Its fields are queued as the page would have queued them (the
   * form's own idempotency key); answers the scoreboard's address, or rejects when the phone does
   * not hold this game or the form is not one the API takes as it is (the error page then shows). */
  function queueHoleForm(pathname, values) {
    var token = tokenOf(pathname);
    return Promise.resolve(token && root.GolfStore.gameByToken(token)).then(function (record) {
      var write = record && record.ruleset ? writeFromValues(values, record, pathname) : null;
      if (!write) throw new Error("not queued");
      return root.GolfSync.enqueue(write).then(function () { return "/games/e/" + token + "/"; });
    });
  }

  /** What the page knows of this game on the phone (read at load, kept up to date on changes), so
   * that a submit can be decided at once: {record, waiting}. */
  var known = { record: null, waiting: 0 };

  /** The hole form of a server page, saved on the phone when it must not go to the server now:
   * the phone is offline, or this game has writes waiting (the hole must not overtake them). */
  function interceptHoleForm(form, token) {
    form.addEventListener("submit", function (event) {
      var record = known.record;
      if (!record || !record.ruleset || (root.navigator.onLine !== false && known.waiting === 0)) return;
      var write = writeFromForm(form, record, location.pathname);
      if (!write) return; // a form the server must word the problems of: posted as usual
      event.preventDefault();
      root.GolfSync.enqueue(write).then(function () {
        var draft = form.getAttribute("data-draft-key");
        try { if (draft) localStorage.removeItem("golf-draft:" + draft); } catch (e) { /* storage off */ }
        return afterQueued(token);
      });
    });
  }

  /** After queuing: online, the queue is sent first and the server's scoreboard shown; offline, the
   * scoreboard address is opened and the service worker serves the shell there. */
  function afterQueued(token) {
    var board = "/games/e/" + token + "/";
    if (root.navigator.onLine === false) { location.assign(board); return; }
    return Promise.resolve(root.GolfSync.flush()).catch(function () {}).then(function () { location.assign(board); });
  }

  /** Read what the phone holds of this game, then say it in the page's banner (texts from the page). */
  function refreshKnown(box, token) {
    return Promise.all([root.GolfStore.gameByToken(token), root.GolfSync.pending()]).then(function (read) {
      var record = read[0] || null;
      var writes = record ? read[1].filter(function (w) { return w.gameId === record.id; }) : [];
      known.record = record;
      known.waiting = writes.length;
      var words = box.querySelector("[data-offline-pending]");
      if (!words) return;
      var summary = App.model.pendingSummary(writes);
      var n = summary.writes;
      words.hidden = n === 0;
      words.textContent = n ? words.getAttribute(n === 1 ? "data-one" : "data-many").replace("{n}", String(n)) : "";
      // A refusal is chosen on in the offline shell, which shows both versions (this page cannot).
      var refused = box.querySelector("[data-offline-conflicts]");
      refused.hidden = summary.conflicts === 0;
      refused.querySelector("[data-offline-choose]").setAttribute("href", "/offline/#/g/" + encodeURIComponent(record ? record.id : "") + "/");
    });
  }

  function start() {
    var token = tokenOf(location.pathname);
    var page = document.querySelector("[data-offline-capture]");
    if (!token || !page || !root.GolfStore || !root.GolfSync) return;
    var form = document.querySelector("form#hole-form");
    if (form) interceptHoleForm(form, token);
    if (root.GolfSync.start) root.GolfSync.start();
    // Storage may fail (private mode, a page being left): the online page goes on without it.
    var quiet = function () {};
    if (root.GolfSync.onChange) root.GolfSync.onChange(function () { refreshKnown(page, token).catch(quiet); });
    var kept = root.navigator.onLine !== false ? capture(token, page).catch(function () { /* the kept copy stays */ }) : Promise.resolve();
    // data-offline-kept on the capture box: the game is on the phone (tests wait for it).
    kept.then(function () { return refreshKnown(page, token); }).then(function () { page.setAttribute("data-offline-kept", ""); }, quiet);
  }

  App.capture = {
    tokenOf: tokenOf, recordFrom: recordFrom, writeFromForm: writeFromForm, writeFromValues: writeFromValues,
    queueHoleForm: queueHoleForm, capture: capture,
  };
  if (typeof document !== "undefined" && document.addEventListener) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }
  if (typeof module !== "undefined" && module.exports) module.exports = App.capture;
})(typeof globalThis !== "undefined" ? globalThis : this);
