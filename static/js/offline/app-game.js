// The offline app's game view (issue 32): a game record and its writes turned into what the pages
// show, scored by the rules engine (GolfEngine, the same rules as the server's): each hole's scores,
// dealer and first player, the totals, the match state (winner, tiebreakers, playoff) and the next
// hole. Needs no DOM; tested with the real engine by tests/js/offline-app-game.test.js.
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});

  function model() { return App.model || require("./app-model.js"); }

  // Hole scores already worked out, by ruleset and entries: a scoreboard drawn again after a save
  // scores only the new hole (the budget is 100 ms from Save to the scoreboard on a slow phone).
  var scored = new Map();

  /** Scores of a hole entered on the phone, from the engine: name -> score, or null if refused. */
  function scoreHole(engine, ruleset, hole, rulesKey) {
    var key = (rulesKey || JSON.stringify(ruleset)) + "|" + JSON.stringify([hole.entries, hole.ender, hole.blocks || {}, Boolean(hole.playoff)]);
    if (scored.has(key)) return scored.get(key);
    var scores = null;
    try {
      // A playoff hole among some players is not deck-checked (the server does the same).
      var answer = engine.scoreHole(ruleset, hole.entries, hole.ender, hole.blocks || {}, { checkDecks: !hole.playoff });
      scores = {};
      answer.players.forEach(function (p) { scores[p.name] = p.score; });
    } catch (error) {
      scores = null;
    }
    if (scored.size > 500) scored.clear();
    scored.set(key, scores);
    return scores;
  }

  function withScores(engine, ruleset, hole, rulesKey) {
    if (!hole.scores) hole.scores = scoreHole(engine, ruleset, hole, rulesKey);
    if (hole.conflict && !hole.conflict.scores) hole.conflict.scores = scoreHole(engine, ruleset, hole.conflict, rulesKey);
    return hole;
  }

  /** The holes as the engine's matchState takes them: {number, playoff, scores}. */
  function engineHoles(holes) {
    return holes.filter(function (h) { return h.scores; }).map(function (h) {
      return { number: h.number, playoff: h.playoff, scores: h.scores };
    });
  }

  /** The match state from the engine, in the pages' terms. */
  function matchOf(engine, ruleset, players, regular, playoff, firstDealer, endedEarly) {
    var state = engine.matchState(ruleset, players, engineHoles(regular), firstDealer,
      { playoffHoles: engineHoles(playoff), endedEarly: Boolean(endedEarly) });
    var outcome = state.outcome || {};
    var status = state.status || outcome.status || "in_progress";
    return {
      over: Boolean(state.match_over),
      status: status,
      winners: state.winners || outcome.winners || [],
      shared: Boolean(state.shared_victory) || outcome.status === "shared",
      contenders: state.contenders || outcome.contenders || [],
      steps: outcome.steps || [],
      order: outcome.order || [],
      reason: state.reason || "",
      leaders: state.leaders || [],
      next: state.next_hole || null,
    };
  }

  /** The title of a game: its own, or its players' names ("Ann, Bob and Cy"). */
  function titleOf(record, t) {
    if (record.title) return record.title;
    var names = record.players || [];
    if (names.length > 1) return t("names_and", { names: names.slice(0, -1).join(", "), last: names[names.length - 1] });
    return names.join("");
  }

  /** Everything the scoreboard and hole pages show of a game. */
  function gameView(record, writes, engine, t) {
    var m = model();
    var server = record.server || null;
    var ruleset = record.ruleset || (server && server.ruleset);
    var players = record.players || (server ? server.players.map(function (p) { return p.name; }) : []);
    var firstDealer = record.firstDealer || 0;
    var merged = m.mergeHoles(server, writes);
    var count = players.length;
    var rulesKey = JSON.stringify(ruleset);
    merged.holes.forEach(function (hole) {
      withScores(engine, ruleset, hole, rulesKey);
      var seat = m.dealerSeat(count, firstDealer, hole.number, engine);
      hole.dealerSeat = seat;
      hole.dealer = players[seat];
      hole.first = players[(seat + 1) % count];
      hole.low = m.lowest(hole, players);
    });
    merged.playoffHoles.forEach(function (hole) {
      withScores(engine, ruleset, hole, rulesKey);
      // A playoff hole is dealt as the hole after the regular ones (the server deals it so).
      hole.dealerSeat = m.dealerSeat(count, firstDealer, merged.holes.length + hole.number, engine);
      hole.low = m.lowest(hole, players);
    });
    var running = m.runningTotals(players, merged.holes);
    var match = matchOf(engine, ruleset, players, merged.holes, merged.playoffHoles, firstDealer, server && server.ended_early);
    var next = match.next ? {
      number: match.next.number, playoff: Boolean(match.next.is_playoff), players: match.next.players || players,
      dealer: match.next.dealer, first: match.next.first_player,
      dealerSeat: match.next.dealer_seat, firstSeat: match.next.first_player_seat,
    } : null;
    var summary = m.pendingSummary(writes);
    var href = function (rest) { return m.gameHref(record, rest); };
    return {
      id: record.id, record: record, title: titleOf(record, t), players: players, ruleset: ruleset,
      rulesetLabel: record.rulesetLabel || "", tableLabel: record.table ? record.table.label || "" : "",
      managed: Boolean(record.managed), holes: merged.holes, playoffHoles: merged.playoffHoles,
      otherConflicts: (writes || []).filter(function (w) { return w.state === "conflict" && w.kind !== "hole" && w.kind !== "hole-edit"; }),
      totals: running.totals, cumulative: running.cumulative, match: match, leaders: match.leaders,
      next: next, summary: summary, href: href, canEdit: true, holesTotal: ruleset ? ruleset.holes : null,
      shareHref: record.editToken ? "/games/e/" + record.editToken + "/share/" : "",
      confirmHref: record.managed && record.editToken && match.over && match.status !== "sudden_death" ? "/games/e/" + record.editToken + "/#confirm" : "",
    };
  }

  App.game = { gameView: gameView, scoreHole: scoreHole, titleOf: titleOf, engineHoles: engineHoles };
  if (typeof module !== "undefined" && module.exports) module.exports = App.game;
})(typeof globalThis !== "undefined" ? globalThis : this);
