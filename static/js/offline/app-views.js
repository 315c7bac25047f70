// The offline app's pages (issue 32): home (this phone's games), the scoreboard (with conflicts
// shown beside the server's version), and the confirmation of a tournament table's scorecard.
// The start wizard and the hole page are in app-start.js and app-entry.js. Each view draws into the
// shell's [data-offline-app] from `state` (see app.js) and wires its buttons.
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});
  var views = App.views || (App.views = {});

  /** Replace the page by `html` (a string, or nodes parsed ahead: a DocumentFragment). */
  function mount(html, title) {
    var box = App.root();
    if (typeof html === "string") box.innerHTML = html;
    else box.replaceChildren(html);
    if (title) document.title = title + " \u00b7 " + App.state.t("golf_club");
    return box;
  }

  function offlineNote(t) {
    return root.navigator && root.navigator.onLine === false ? '<p class="message" data-offline-now>' + App.render.esc(t("offline_now")) + "</p>" : "";
  }

  /** The view of the current game (scores from the engine), or null. */
  views.gameView = function (state) {
    return App.game.gameView(state.record, state.writes, root.GolfEngine, state.t);
  };

  /** Home: start a game, and the games kept on this phone (those with unsent writes first). */
  views.home = function (state) {
    var t = state.t;
    return Promise.resolve(root.GolfStore.listGames()).then(function (games) {
      return Promise.all((games || []).map(function (record) {
        return App.data.writesOf(record).then(function (writes) {
          return { record: record, summary: App.model.pendingSummary(writes) };
        });
      }));
    }).then(function (items) {
      items.sort(function (a, b) { return b.summary.writes - a.summary.writes; });
      var list = items.map(function (item) {
        return { title: App.game.titleOf(item.record, t), href: App.model.gameHref(item.record, ""), summary: item.summary };
      });
      mount(offlineNote(t) + '<h1>' + App.render.esc(t("games_on_phone")) + "</h1>" +
        '<p><a class="button primary" href="/offline/#/new/">' + App.render.esc(t("start_game")) + "</a></p>" +
        App.render.gameList(list, t), t("games_on_phone"));
    });
  };

  views.unknown = function (state) {
    mount('<p class="message error">' + App.render.esc(state.t("unknown_game")) + "</p>", state.t("scoreboard"));
  };

  /** The scoreboard's HTML and title for `state` (what `views.board` draws). */
  views.boardPage = function (state) {
    var view = views.gameView(state);
    return { html: offlineNote(state.t) + App.render.board(view, state.t), title: view.title, view: view };
  };

  /** The scoreboard: banner, conflicts, outcome, next hole, scorecard with dealers and states.
   * `state.preparedBoard` (a Save's board made while the hole was typed: app-entry.js) is drawn as is. */
  views.board = function (state) {
    var page = state.preparedBoard || views.boardPage(state);
    state.preparedBoard = null;
    var box = mount(page.nodes || page.html, page.title);
    // The turn timer above the next hole (static/js/turn-timer.js), from the phone's copy of the game.
    if (root.GolfTurnTimer) root.GolfTurnTimer.inShell(box, page.view || views.gameView(state));
    box.querySelectorAll("[data-resolve]").forEach(function (button) {
      button.addEventListener("click", function () { resolve(button); });
    });
  };

  /** "Keep the server's" / "Keep mine": the player's choice goes to GolfSync.resolve. A choice that
   * needs the server (reading its version first) waits for a connection: the page says so. */
  function resolve(button) {
    var t = App.state.t;
    button.disabled = true;
    var key = button.getAttribute("data-key");
    var refused = (App.state.writes || []).filter(function (w) { return w.key === key; })[0];
    var options = refused && refused.kind === "create-game" ? { body: refused.body } : undefined;
    return Promise.resolve(root.GolfSync.resolve(key, button.getAttribute("data-resolve"), options)).then(function (answer) {
      return Promise.resolve(App.show()).then(function () { note(resolveNote(answer, t)); });
    });
  }

  /** What to tell the player after a choice that could not be carried out yet. */
  function resolveNote(answer, t) {
    var code = answer && answer.code;
    if (code === "offline" || code === "server-unreadable") return t("choose_needs_connection");
    if (code === "refused") return t("choice_refused");
    return "";
  }

  /** A tournament table's players attest the scorecard (or disagree), queued like a hole. */
  views.confirm = function (state) {
    var t = state.t;
    var view = views.gameView(state);
    var template = document.getElementById("offline-confirm");
    var box = mount('<p class="back-link"><a href="' + App.render.esc(view.href("")) + '">\u2190 ' + App.render.esc(t("scoreboard")) + "</a></p>" +
      "<h1>" + App.render.esc(t("confirm_scorecard")) + "</h1>" + App.render.banner(view.summary, t) +
      '<div data-confirm-slot></div><div id="scoreboard">' + App.render.scorecard(view, t) + "</div>", t("confirm_scorecard"));
    box.querySelector("[data-confirm-slot]").appendChild(template.content.cloneNode(true));
    var select = box.querySelector("[data-confirm-names]");
    select.innerHTML = '<option value="">' + App.render.esc(t("choose")) + "</option>" +
      view.players.map(function (n) { return '<option value="' + App.render.esc(n) + '">' + App.render.esc(n) + "</option>"; }).join("");
    var form = box.querySelector("[data-offline-confirm]");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var disagree = event.submitter && event.submitter.value === "1";
      if (!select.value) { showError(form, t("choose_name")); return; }
      var write = {
        key: App.model.newKey(), gameId: state.record.id, kind: "confirm", method: "POST",
        path: "/api/v1/games/{token}/confirm/", holeNumber: null,
        // The scorecard the players attested, as this phone shows it: the server refuses the
        // confirmation (409, shown as a conflict) if the game's holes changed meanwhile.
        body: { by: select.value, disagree: Boolean(disagree), note: form.elements.note.value.trim(), scorecard: attested(view) },
      };
      App.data.enqueue(write).then(function () {
        App.data.flushSoon();
        return App.go(view.href(""));
      }).then(function () {
        note(t(disagree ? "disagree_queued" : "confirm_queued", { name: write.body.by }));
      });
    });
  };

  /** Each player's regular hole scores in hole order, as the scorecard shows them. */
  function attested(view) {
    var card = {};
    view.players.forEach(function (name) {
      card[name] = view.holes.map(function (hole) { return hole.scores ? hole.scores[name] : null; });
    });
    return card;
  }

  function showError(form, message) {
    var box = form.querySelector(".field-error") || document.createElement("p");
    box.className = "field-error";
    box.setAttribute("role", "alert");
    box.textContent = message;
    form.insertBefore(box, form.firstChild);
  }

  /** A short message above the page (what was just done). */
  function note(text) {
    var status = document.querySelector("[data-offline-status]");
    if (!status) return;
    status.textContent = text;
    status.hidden = !text;
  }

  views.note = note;
  views.resolveNote = resolveNote;
  views.mount = mount;
  views.offlineNote = offlineNote;
})(typeof globalThis !== "undefined" ? globalThis : this);
