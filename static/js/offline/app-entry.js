// The offline hole page (issue 32): score a hole or correct one with no connection. The cards go in
// on static/js/grid-entry.js's keypad (or a typed total, blocks marked by hand), the scores are
// previewed by GolfEngine as the scorer types, and the online form's refusals are shown next to the
// field. Save queues the write (its Idempotency-Key made at that moment) and shows the scoreboard.
// Correcting a hole still waiting on the phone edits that queued write in place (its place in the
// queue kept); correcting a sent hole queues a correction (PUT).
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});
  var views = App.views || (App.views = {});

  /** The players of a hole's form, as the server's form takes them: a recorded hole's own players,
   * else the next hole's (only the tied players for a playoff hole). */
  function playersOf(view, hole) {
    if (hole) return view.players.filter(function (name) { return hole.entries[name] !== undefined || (hole.conflict && hole.conflict.entries[name] !== undefined); });
    return view.next && view.next.players ? view.next.players : view.players;
  }

  function pageOf(state, view, route) {
    var ruleset = view.ruleset;
    var editing = route.view === "hole-edit";
    var list = route.playoff ? view.playoffHoles : view.holes;
    var hole = editing ? list.filter(function (h) { return h.number === route.number; })[0] : null;
    var number = editing ? route.number : view.next ? view.next.number : list.length + 1;
    var seats = view.players;
    var dealerSeat = hole && hole.dealerSeat != null ? hole.dealerSeat : view.next ? view.next.dealerSeat
      : App.model.dealerSeat(seats.length, state.record.firstDealer || 0, number, root.GolfEngine);
    var players = playersOf(view, hole);
    var shown = hole && hole.conflict ? hole.conflict : hole;
    var dealer = seats[dealerSeat];
    var first = seats[(dealerSeat + 1) % seats.length];
    return {
      editing: editing, playoff: Boolean(route.playoff), number: number, hole: hole, players: players,
      shape: { rows: ruleset.rows, cols: ruleset.cols }, entries: shown ? shown.entries : null,
      blocks: shown ? shown.blocks : null, ender: shown ? shown.ender : null,
      dealerSeat: players.indexOf(dealer), firstSeat: players.indexOf(first), dealer: dealer, first: first,
      hasBlocks: Boolean(ruleset.four_of_a_kind_block), hasEnderPenalty: ruleset.ender_penalty != null,
      holesTotal: ruleset.holes, boardHref: view.href(""), bannerHtml: App.render.banner(view.summary, App.state.t),
    };
  }

  function formValues(form) {
    var values = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name) return;
      if (el.type === "radio") { if (el.checked) values[el.name] = el.value; } else values[el.name] = el.value;
    });
    return values;
  }

  /** The hole form's checker: `check(showMissing)` reads the form, asks the engine, shows the
   * preview and each player's problems; answers the hole's body when it can be saved, else null.
   * Pressing Save fires the last field's `change`, then the submit: the same values are checked
   * once, and a box is rewritten only when its HTML changed (each rewrite costs a style and layout
   * pass, and Save to the scoreboard has 100 ms on a slow phone). */
  function checker(form, page, view, t) {
    var last = null;
    var shown = {};
    function put(selector, html) {
      if (shown[selector] === html) return;
      shown[selector] = html;
      form.querySelector(selector).innerHTML = html;
    }
    return function check(showMissing) {
      var values = formValues(form);
      var key = JSON.stringify(values);
      // Missing fields are shown only on Save: the same values with nothing missing look the same.
      if (last && last.key === key && (last.showMissing === showMissing || last.complete)) return last.result;
      var read = App.form.readHole(values, page.players, page.shape, t);
      var outcome = scored(read, page, view);
      put("#preview-box", App.hole.preview(outcome.rows, outcome.problems.general, t));
      page.players.forEach(function (_name, seat) {
        var messages = (outcome.problems.bySeat[seat] || []).concat(showMissing ? read.errors[seat] || [] : []);
        put('[data-errors-for="' + seat + '"]', App.hole.fieldErrors(messages));
        form.querySelector("#player-" + seat).classList.toggle("has-error", messages.length > 0);
      });
      var problems = outcome.problems;
      var ok = !Object.keys(read.errors).length && !Object.keys(problems.bySeat).length && !problems.general.length;
      last = { key: key, showMissing: showMissing, complete: !Object.keys(read.errors).length, result: ok ? read : null };
      return last.result;
    };
  }

  /** The engine's scores of the hole as read: the preview's rows and the problems by seat. */
  function scored(read, page, view) {
    var problems = { bySeat: {}, general: [] };
    var scores = {};
    try {
      var ender = read.ender && read.partial[read.ender] !== undefined ? read.ender : null;
      var answer = root.GolfEngine.scoreHole(view.ruleset, read.partial, ender, read.blocks, { checkDecks: !page.playoff });
      answer.players.forEach(function (p) { scores[p.name] = p; });
    } catch (error) {
      problems = App.form.spreadProblems(error.problems || [{ message: String(error.message || error) }], page.players);
    }
    var before = page.editing ? totalsWithout(view, page) : view.totals;
    var rows = page.players.map(function (name, seat) {
      var s = scores[name];
      return { name: name, score: s ? s.score : null, adjustments: s ? s.adjustments : [], bad: Boolean(problems.bySeat[seat]),
        matchTotal: s && !page.playoff ? (before[name] || 0) + s.score : null };
    });
    return { rows: rows, problems: problems };
  }

  function totalsWithout(view, page) {
    var totals = Object.assign({}, view.totals);
    if (page.hole && page.hole.scores) page.players.forEach(function (n) { totals[n] -= page.hole.scores[n] || 0; });
    return totals;
  }

  function apiPath(page, number) {
    var family = page.playoff ? "playoff-holes/" : "holes/";
    return "/api/v1/games/{token}/" + family + (number ? number + "/" : "");
  }

  /** The write for this save: a new hole, the queued write edited, or a correction of a sent hole. */
  function writeFor(state, page, read) {
    var hole = page.hole;
    var queued = hole && (hole.conflict ? null : hole.write);
    if (queued && (queued.state === "waiting" || queued.state === "sending")) {
      var body = App.form.holeBody(read, queued.kind === "hole" ? page.number : null);
      return { edit: queued, write: Object.assign({}, queued, { body: body }) };
    }
    var correction = page.editing;
    return { write: {
      key: App.model.newKey(), gameId: state.record.id, kind: correction ? "hole-edit" : "hole",
      method: correction ? "PUT" : "POST", path: apiPath(page, correction ? page.number : null),
      body: App.form.holeBody(read, correction ? null : page.number), holeNumber: page.number, playoff: page.playoff,
      // A correction changes the hole as this phone last read it (If-Match: its ETag): if another
      // phone changed it meanwhile, the server refuses (412) and the player is shown both.
      ifMatch: correction && hole ? hole.etag || null : null,
    } };
  }

  /** Change a queued write in place; while the sync is trying to send it (state "sending": with no
   * connection the try fails at once), wait a moment and try again. False once it was sent. */
  function editQueued(write, triesLeft) {
    return App.data.updateWrite(write).then(function (done) {
      if (done !== "sending") return done;
      if (triesLeft <= 0) return false;
      return new Promise(function (resolve) { setTimeout(resolve, 200); }).then(function () { return editQueued(write, triesLeft - 1); });
    });
  }

  /** A hole the server refused, entered again: "Keep mine" with this version (GolfSync.resolve reads
   * the server's hole first, so it needs the connection; without it the choice stays open). */
  function keepCorrected(state, page, read) {
    var key = page.hole.conflict.key;
    return Promise.resolve(root.GolfSync.resolve(key, "keep-mine", { body: App.form.holeBody(read, null) })).then(function (answer) {
      return Promise.resolve(App.go(page.boardHref)).then(function () { views.note(views.resolveNote(answer, state.t)); });
    });
  }

  /** Save: a new hole is drawn on the scoreboard at once, from memory, while it is stored (storing
   * took 35 to 50 ms of the budget's 100 ms from Save to the scoreboard on a slow phone); a change
   * of a hole still queued is stored first (the queue may be sending it: it may go as a correction). */
  function save(state, page, read, prepared) {
    if (page.hole && page.hole.conflict) return keepCorrected(state, page, read);
    var chosen = writeFor(state, page, read);
    if (!chosen.edit) return saveNew(state, page, chosen.write, prepared);
    return editQueued(chosen.write, 5).then(function (done) {
      // The queued hole was being sent meanwhile: the change goes as a correction of its own.
      if (done === false) return App.data.enqueue(writeFor(state, Object.assign({}, page, { hole: null }), read).write);
      return done === true ? chosen.write : done;
    }).then(function (write) {
      measure("golf:save-to-stored");
      state.writes = withWrite(state.writes, write);
      App.data.flushSoon();
      return App.go(page.boardHref, false, true);
    }).then(function () { measure("golf:save-to-board"); });
  }

  /** A new hole: the scoreboard drawn with it "waiting" (in memory, with a provisional place in
   * the queue), then stored. Should storing fail, the hole is not saved and must not look so: the
   * hole page comes back as the scorer left it (its nodes kept), with the reason. */
  function saveNew(state, page, input, prepared) {
    var write = App.data.prepare(input);
    var box = App.root();
    var left = { href: location.href, title: document.title, nodes: Array.prototype.slice.call(box.childNodes) };
    state.preparedBoard = prepared && prepared.record === state.record && prepared.writes === state.writes &&
      prepared.offline === offline() ? prepared.board : null;
    state.writes = withQueued(state.writes, write);
    var storing = App.data.enqueue(write); // started first: a board that fails to draw loses no hole
    // The board shows the hole before it is stored (tens of ms): a tab closed in that moment is
    // asked to stay, so a hole shown as saved is never lost.
    var stay = function (event) { event.preventDefault(); event.returnValue = ""; };
    window.addEventListener("beforeunload", stay);
    storing.then(function () { window.removeEventListener("beforeunload", stay); },
      function () { window.removeEventListener("beforeunload", stay); });
    var drawn = null;
    try { drawn = App.go(page.boardHref, false, true); } catch (error) { if (root.console) console.error(error); }
    measure("golf:save-to-board"); // Save pressed to the scoreboard drawn, for the benchmark and the tests
    return storing.then(function (stored) {
      measure("golf:save-to-stored");
      state.writes = withWrite(state.writes, stored);
      App.data.flushSoon();
      if (!drawn) return App.show(); // drawn from the phone's storage instead
    }, function (error) {
      state.writes = state.writes.filter(function (w) { return w.key !== write.key; });
      history.replaceState(null, "", left.href);
      state.route = App.model.routeOf(location.pathname, location.hash);
      box.replaceChildren.apply(box, left.nodes);
      document.title = left.title;
      if (root.GridEntry) root.GridEntry.bind(box);
      box.querySelectorAll("[data-offline-not-kept]").forEach(function (old) { old.remove(); });
      var alert = document.createElement("p");
      alert.className = "message error";
      alert.setAttribute("role", "alert");
      alert.setAttribute("data-offline-not-kept", "");
      alert.textContent = state.t("not_kept");
      box.insertBefore(alert, box.firstChild);
      if (root.console) console.error(error);
    });
  }

  /** The writes with `write` queued last (a provisional seq: the store gives the real one). */
  function withQueued(writes, write) {
    var last = writes.reduce(function (most, w) { return Math.max(most, w.seq || 0); }, 0);
    return withWrite(writes, Object.assign({ seq: last + 1 }, write));
  }

  /** The scoreboard a Save of `read` would draw, made while the scorer has not pressed Save yet
   * (idle time on the phone), so that Save only shows it: its HTML does not depend on the write's
   * key or time, only on the game as it is now (checked when Save uses it). */
  function prepareBoard(state, page, read) {
    var write = App.data.prepare(writeFor(state, page, read).write);
    var board = views.boardPage(Object.assign({}, state, { writes: withQueued(state.writes, write) }));
    // Parsed too, off the page (no style or layout): Save moves the nodes in.
    var holder = document.createElement("div");
    holder.innerHTML = board.html;
    board.nodes = document.createDocumentFragment();
    board.nodes.append.apply(board.nodes, Array.prototype.slice.call(holder.childNodes));
    return { record: state.record, writes: state.writes, offline: offline(), board: board };
  }

  function offline() { return Boolean(root.navigator && root.navigator.onLine === false); }

  function withWrite(writes, write) {
    return writes.filter(function (w) { return w.key !== write.key; }).concat([write]);
  }

  function measure(name) {
    if (root.performance && performance.measure) performance.measure(name, "golf:save");
  }

  function holeView(state) {
    var t = state.t;
    var view = views.gameView(state);
    var page = pageOf(state, view, state.route);
    var box = views.mount(views.offlineNote(t) + App.hole.holePage(page, t),
      t(page.playoff ? "playoff_hole" : "hole_n", { n: page.number }) + " \u00b7 " + view.title);
    var keypad = document.getElementById("offline-keypad").content.cloneNode(true);
    var joker = keypad.querySelector("#keypad-joker");
    if (joker && !view.ruleset.jokers) joker.hidden = true;
    box.querySelector("[data-keypad-slot]").appendChild(keypad);
    if (root.GridEntry) root.GridEntry.bind(box);
    var form = box.querySelector("[data-offline-hole-form]");
    wireNegate(form);
    var check = checker(form, page, view, t);
    var ahead = boardAhead(state, page);
    var refresh = function () { ahead.after(check(false)); };
    form.addEventListener("input", refresh);
    form.addEventListener("change", refresh);
    form.addEventListener("grid-entry:change", refresh);
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (root.performance && performance.mark) performance.mark("golf:save");
      var read = check(true);
      if (!read) { focusFirstError(form); return; }
      state.busy = true;
      save(state, page, read, ahead.take(read)).finally(function () { state.busy = false; });
    });
    refresh();
  }

  /** The board of a new hole made ahead, in idle time, once the form can be saved (Save to the
   * scoreboard has 100 ms on a slow phone; making it took 10 to 15 ms of them). */
  function boardAhead(state, page) {
    var made = null;
    var waiting = null;
    var idle = root.requestIdleCallback || function (run) { return setTimeout(run, 50); };
    var cancel = root.cancelIdleCallback || clearTimeout;
    return {
      after: function (read) {
        if (waiting !== null) cancel(waiting);
        waiting = null;
        if (!read || page.editing || (made && made.read === read)) return;
        made = null;
        waiting = idle(function () {
          waiting = null;
          try { made = Object.assign({ read: read }, prepareBoard(state, page, read)); } catch (error) { made = null; }
        });
      },
      take: function (read) {
        if (waiting !== null) cancel(waiting);
        var ready = made && made.read === read ? made : null;
        waiting = made = null; // its nodes go into the page: drawn once
        return ready;
      },
    };
  }

  function focusFirstError(form) {
    var bad = form.querySelector(".has-error input");
    if (bad) bad.focus();
  }

  /** Phone number pads often lack a minus sign: the ± button flips a typed total's sign. */
  function wireNegate(form) {
    form.querySelectorAll("[data-negate]").forEach(function (button) {
      button.addEventListener("click", function () {
        var input = document.getElementById(button.getAttribute("data-negate"));
        var value = input.value.trim();
        input.value = value.charAt(0) === "-" ? value.slice(1) : "-" + value;
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    });
  }

  views["hole-new"] = holeView;
  views["hole-edit"] = holeView;
  App.entry = { writeFor: writeFor, pageOf: pageOf };
})(typeof globalThis !== "undefined" ? globalThis : this);
