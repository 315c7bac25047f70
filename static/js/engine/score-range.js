// The phone's rules engine, part 7 of 10: the score range: the lowest and highest grid score a
// ruleset allows, searched within RANGE_SEARCH_LIMIT steps (scoring/rules/score_range.py). Loaded
// after grid.js; golf-engine.js lists the load order and assembles GolfEngine.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  var parts = node ? require("./grid.js") : root.GolfEngineParts;
  var { own, sortBy, RANKS, JOKER, range } = parts;

  var RANGE_SEARCH_LIMIT = 60000; // golfclub/core/limits.py
  // --- the score range ------------------------------------------------------------------------------
  function GaveUp(grid) { this.grid = grid; }
  function rankGroups(rs, decks, size, sign) {
    var naturals = sortBy(RANKS.filter(r => r !== JOKER), r => -sign * rs.values[r]).slice(0, size);
    var groups = [], limit = {};
    naturals.forEach(r => {
      var last = groups[groups.length - 1];
      if (last && rs.values[last[0]] === rs.values[r]) last.push(r); else groups.push([r]);
      limit[r] = 4 * decks;
    });
    if (rs.jokers > 0) { groups.push([JOKER]); limit[JOKER] = rs.jokers * decks; }
    return [groups, limit];
  }
  function climb(engine, size, sign, groups, limit) {
    var alphabet = [].concat.apply([], groups), bestScore = -Infinity, bestGrid = [];
    var countOf = (grid, rank) => { return grid.filter(r => r === rank).length; };
    for (var start = 0; start < Math.min(2, alphabet.length); start++) {
      var grid = range(size).map(i => alphabet[(start + i) % alphabet.length]);
      if (grid.some(r => countOf(grid, r) > limit[r])) grid = range(size).map(i => alphabet[i % alphabet.length]);
      var score = sign * engine.totalOfRanks(grid), improved = true, passes = 0;
      while (improved && passes < 3) {
        improved = false; passes++;
        for (var cell = 0; cell < size; cell++) {
          for (var a = 0; a < alphabet.length; a++) {
            var rank = alphabet[a];
            if (rank === grid[cell] || countOf(grid, rank) >= limit[rank]) continue;
            var trial = grid.slice(); trial[cell] = rank;
            var trialScore = sign * engine.totalOfRanks(trial);
            if (trialScore > score) { grid = trial; score = trialScore; improved = true; }
          }
        }
      }
      if (score > bestScore) { bestScore = score; bestGrid = grid; }
    }
    return [bestScore, bestGrid];
  }
  function extreme(engine, decks, highest) {
    var rs = engine.rs, size = engine.size, sign = highest ? 1 : -1;
    var rg = rankGroups(rs, decks, size, sign), groups = rg[0], limit = rg[1], reach = {};
    groups.forEach(ranks => {
      ranks.forEach(r => {
        var options = [sign * rs.values[r], sign * engine.finder.kept[r]];
        if (rs.four_of_a_kind_block !== null && r !== JOKER) options.push(sign * rs.four_of_a_kind_block.points / 4);
        reach[r] = Math.max.apply(null, options);
      });
    });
    var bestAny = Math.max.apply(null, Object.keys(reach).map(r => reach[r]));
    var best = climb(engine, size, sign, groups, limit), soFar = [], counts = {}, opened = groups.map(() => 0), scored = 0;
    Object.keys(limit).forEach(r => { counts[r] = 0; });
    function search(cell, reached) {
      scored++;
      if (scored > RANGE_SEARCH_LIMIT) throw new GaveUp();
      if (reached + (size - cell) * bestAny <= best[0]) return;
      if (cell === size) {
        var score = sign * engine.totalOfRanks(soFar);
        if (score > best[0]) best = [score, soFar.slice()];
        return;
      }
      for (var g = 0; g < groups.length; g++) {
        var ranks = groups[g];
        for (var i = 0; i < Math.min(opened[g] + 1, ranks.length); i++) {
          var rank = ranks[i];
          if (counts[rank] >= limit[rank]) continue;
          counts[rank]++; soFar.push(rank);
          var was = opened[g];
          opened[g] = Math.max(was, i + 1);
          search(cell + 1, reached + reach[rank]);
          opened[g] = was; soFar.pop(); counts[rank]--;
        }
      }
    }
    try { search(0, 0); } catch (e) {
      if (!(e instanceof GaveUp)) throw e;
      return [sign * Math.floor(size * bestAny), best[1], false];
    }
    return [sign * best[0], best[1], true];
  }
  /** The lowest and highest grid score with `decks` packs: {low, high, low_grid, high_grid, exact}. */
  function gridScoreRange(engine, decks) {
    if (!own(engine.ranges, decks)) {
      var rows = ranks => { return range(engine.rows).map(r => ranks.slice(r * engine.cols, (r + 1) * engine.cols)); };
      var low = extreme(engine, decks, false), high = extreme(engine, decks, true);
      engine.ranges[decks] = { low: low[0], high: high[0], low_grid: rows(low[1]), high_grid: rows(high[1]), exact: low[2] && high[2] };
    }
    return engine.ranges[decks];
  }

  Object.assign(parts, { gridScoreRange });
  parts.loaded.push("score-range");
  if (node) module.exports = parts;
})(typeof self !== "undefined" ? self : this);
