// The phone's rules engine, part 4 of 10: deck checks: more cards of a kind in a grid, or across
// the table, than the packs in play hold (scoring/rules/decks.py). Loaded after ruleset.js;
// golf-engine.js lists the load order and assembles GolfEngine.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  var parts = node ? require("./ruleset.js") : root.GolfEngineParts;
  var { sum, P, fail, RANKS, JOKER, RANK_NAMES, tokenOf, cardName, parseCard, compiled, decksFor } = parts;

  // --- deck checks ----------------------------------------------------------------------------------
  var packs = decks => decks === 1 ? "1 pack holds" : decks + " packs hold";
  var rankCount = (rank, n) => { var name = RANK_NAMES[rank] || rank; return n === 1 ? "1 " + name : n + " " + name + "s"; };
  function count(grid, counts, exact) {
    grid.forEach(row => {
      row.forEach(card => {
        counts[card.rank] = (counts[card.rank] || 0) + 1;
        if (card.suit) { var t = tokenOf(card); exact.set(t, (exact.get(t) || 0) + 1); }
      });
    });
  }
  function excesses(counts, exact, rs, decks) {
    var out = [];
    RANKS.forEach(rank => {
      var n = counts[rank] || 0, limit;
      if (!n) return;
      if (rank === JOKER) limit = decks !== null ? rs.jokers * decks : (rs.jokers ? null : 0);
      else limit = decks !== null ? 4 * decks : null;
      if (limit !== null && n > limit) out.push({ rank: rank, card: null, count: n, limit: limit });
    });
    if (decks !== null) {
      exact.forEach((n, token) => {
        if (n > decks) out.push({ rank: token.slice(0, -1), card: { rank: token.slice(0, -1), suit: token.slice(-1) }, count: n, limit: decks });
      });
    }
    return out;
  }
  function excessMessage(x, rs, decks, scope) {
    if (x.card) return "The " + cardName(x.card) + " (" + tokenOf(x.card) + ") is entered " + x.count + " times" + scope + ", but " + packs(x.limit) + " only " + x.limit + ".";
    if (x.rank === JOKER && rs.jokers === 0) return rankCount(JOKER, x.count) + " entered" + scope + ", but the " + rs.preset + " ruleset plays without jokers.";
    return rankCount(x.rank, x.count) + " entered" + scope + ", but " + packs(decks || 1) + " only " + x.limit + ".";
  }
  var matcher = x => { return x.card ? c => tokenOf(c) === tokenOf(x.card) : c => c.rank === x.rank; };
  function gridCardProblems(grid, rs, decks, where) {
    var counts = {}, exact = new Map();
    count(grid, counts, exact);
    return excesses(counts, exact, rs, decks).map(x => {
      var test = matcher(x), at = where;
      outer: for (var r = 0; r < grid.length; r++) {
        for (var c = 0; c < grid[r].length; c++) if (test(grid[r][c])) { at = where + "[" + (r + 1) + "][" + (c + 1) + "]"; break outer; }
      }
      return P(at, excessMessage(x, rs, decks, ""));
    });
  }
  function tableCardProblems(grids, rs, decks, where) {
    var counts = {}, exact = new Map();
    grids.forEach(g => { count(g[1], counts, exact); });
    return excesses(counts, exact, rs, decks).map(x => {
      var test = matcher(x);
      var holders = grids.map(g => { return [g[0], sum(g[1].map(row => row.filter(test).length))]; })
        .filter(h => h[1]).map(h => h[0] + " " + h[1]).join(", ");
      var message = excessMessage(x, rs, decks, " across the table");
      return P(where, message.slice(0, -1) + " (" + holders + ").");
    });
  }
  var parsedCards = grid => {
    return grid.map(row => { return row.map(t => typeof t === "string" ? parseCard(t) : t); });
  };
  /** Throws a DeckError when one grid holds more cards than the packs allow. */
  function checkGridCards(ruleset, grid, players, where) {
    var engine = compiled(ruleset);
    var problems = gridCardProblems(parsedCards(grid), engine.rs, engine.gridDecks(players), where === undefined ? "grid" : where);
    if (problems.length) fail(problems, "DeckError");
  }
  var pairsOf = grids => { return grids instanceof Map ? Array.from(grids) : Object.keys(grids).map(k => [k, grids[k]]); };
  /** Throws a DeckError when one hole's grids ({name: grid}) hold more cards than the packs. */
  function checkTableCards(ruleset, grids, players, where) {
    var rs = compiled(ruleset).rs, list = pairsOf(grids).map(g => [g[0], parsedCards(g[1])]);
    where = where === undefined ? "grids" : where;
    var decks = decksFor(rs, players === null || players === undefined ? list.length : players), problems = [];
    list.forEach(g => { problems = problems.concat(gridCardProblems(g[1], rs, decks, where + "." + g[0])); });
    if (!problems.length) problems = tableCardProblems(list, rs, decks, where);
    if (problems.length) fail(problems, "DeckError");
  }

  Object.assign(parts, { gridCardProblems, tableCardProblems, checkGridCards, pairsOf, checkTableCards });
  parts.loaded.push("decks");
  if (node) module.exports = parts;
})(typeof self !== "undefined" ? self : this);
