// "Start a live game" with no connection (issue 32): the online wizard's two screens (rules and
// players, then the first dealer and a title), with the same checks (names as the server checks
// them, the ruleset by GolfEngine). Starting creates the local game record "local-<uuid>" and queues
// its "create-game" write (POST /api/v1/games/), then opens its scoreboard.
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});
  var views = App.views || (App.views = {});
  var DEFAULT_SEATS = 4;

  function limits() {
    var box = App.root();
    return {
      min: parseInt(box.getAttribute("data-min-players"), 10), max: parseInt(box.getAttribute("data-max-players"), 10),
      maxName: parseInt(box.getAttribute("data-max-name"), 10),
    };
  }

  function addSeat(list, value) {
    var row = document.getElementById("offline-player-row").content.cloneNode(true);
    var n = list.children.length + 1;
    var input = row.querySelector("input");
    row.querySelector(".seat").textContent = String(n);
    input.id = "player-" + n;
    input.value = value || "";
    input.setAttribute("aria-label", input.getAttribute("data-label").replace("{n}", String(n)));
    list.appendChild(row);
    return input;
  }

  function showErrors(form, messages) {
    var box = form.querySelector(".form-errors");
    box.innerHTML = messages.map(function (m) { return "<li>" + App.render.esc(m) + "</li>"; }).join("");
    box.hidden = !messages.length;
    if (messages.length) box.scrollIntoView({ block: "nearest" });
  }

  function presetLabel(name) {
    var el = document.querySelector('#offline-presets [data-preset="' + CSS.escape(name) + '"]');
    return el ? el.textContent : name;
  }

  /** Screen 1: the ruleset, house rules, the players in seat order. */
  function playersScreen(state, answers) {
    var box = views.mount(views.offlineNote(state.t), state.t("new_game"));
    box.appendChild(document.getElementById("offline-start-players").content.cloneNode(true));
    var form = box.querySelector('[data-offline-start="players"]');
    var list = form.querySelector("[data-player-list]");
    var names = answers ? answers.raw : [];
    for (var i = 0; i < Math.max(DEFAULT_SEATS, names.length); i += 1) addSeat(list, names[i]);
    if (answers) ["ruleset", "holes", "target_score", "ender_penalty"].forEach(function (f) { form.elements[f].value = answers.choice[f] || ""; });
    var add = form.querySelector("[data-add-player]");
    add.addEventListener("click", function () {
      if (list.children.length < limits().max) addSeat(list, "").focus();
      add.hidden = list.children.length >= limits().max;
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var raw = Array.prototype.map.call(list.querySelectorAll("input"), function (el) { return el.value; });
      var choice = { ruleset: form.elements.ruleset.value, holes: form.elements.holes.value,
        target_score: form.elements.target_score.value, ender_penalty: form.elements.ender_penalty.value };
      var checked = App.form.checkNames(raw, limits(), state.t);
      var spec = App.form.rulesetSpec(choice);
      var resolved = null;
      try { resolved = root.GolfEngine.resolveRuleset(spec); } catch (error) {
        checked.errors = checked.errors.concat((error.problems || []).map(function (p) { return p.message; }));
      }
      if (checked.errors.length) { showErrors(form, checked.errors); return; }
      dealerScreen(state, { raw: raw, choice: choice, names: checked.names, spec: spec, ruleset: resolved });
    });
  }

  /** The ruleset in one line, as the online pages say it: the preset's line, then the house rules. */
  function rulesetLabel(answers, form) {
    var extras = ["holes", "target_score", "ender_penalty"].filter(function (f) { return answers.choice[f]; }).map(function (f) {
      var select = form.elements[f];
      var option = select && select.querySelector('option[value="' + CSS.escape(answers.choice[f]) + '"]');
      var label = document.querySelector('label[for="id_' + f + '"]');
      return (label ? label.textContent.trim() + ": " : "") + (option ? option.textContent.trim() : answers.choice[f]);
    });
    return [presetLabel(answers.choice.ruleset)].concat(extras).join(" \u00b7 ");
  }

  /** Screen 2: the first dealer and a title; "Start the game" creates it on the phone. */
  function dealerScreen(state, answers) {
    var houseRules = document.getElementById("offline-start-players").content;
    var box = views.mount(views.offlineNote(state.t), state.t("new_game"));
    box.appendChild(document.getElementById("offline-start-dealer").content.cloneNode(true));
    var label = rulesetLabel(answers, houseRules);
    box.querySelector("[data-ruleset-label]").textContent = label;
    var list = box.querySelector("[data-dealer-list]");
    list.innerHTML = answers.names.map(function (name, i) {
      return '<li><label><input type="radio" name="first_dealer" value="' + i + '" id="id_first_dealer_' + i + '"' + (i === 0 ? " checked" : "") +
        "> <span>" + (i + 1) + ". " + App.render.esc(name) + "</span></label></li>";
    }).join("");
    var form = box.querySelector('[data-offline-start="dealer"]');
    box.querySelector("[data-start-back]").addEventListener("click", function () { playersScreen(state, answers); });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var dealer = parseInt(form.querySelector('input[name="first_dealer"]:checked').value, 10);
      createGame(state, answers, dealer, form.elements.title.value.trim(), label);
    });
  }

  /** The local game record and its queued create (the server answers with the game's links). */
  function createGame(state, answers, firstDealer, title, label) {
    var id = "local-" + App.model.newKey();
    var record = {
      id: id, editToken: null, viewToken: null, title: title, players: answers.names, rulesetSpec: answers.spec,
      ruleset: answers.ruleset, rulesetLabel: label, firstDealer: firstDealer, managed: false, table: null,
      server: null, local: [], lastHeardAt: null,
    };
    var write = {
      key: App.model.newKey(), gameId: id, kind: "create-game", method: "POST", path: "/api/v1/games/", holeNumber: null,
      body: { players: answers.names, ruleset: answers.spec, first_dealer: firstDealer, title: title },
    };
    return Promise.resolve(root.GolfStore.putGame(record)).then(function () {
      return App.data.enqueue(write);
    }).then(function () {
      App.data.flushSoon();
      return App.go(App.model.gameHref(record, ""));
    });
  }

  views.start = function (state) { playersScreen(state, null); };
  App.start = { createGame: createGame };
})(typeof globalThis !== "undefined" ? globalThis : this);
