// The phone's rules engine, part 6 of 10: grid scoring: a ruleset compiled into its engine, a
// grid's total and its full breakdown with the explanation lines (scoring/rules/grid.py,
// grid_results.py). Loaded after matching.js; golf-engine.js lists the load order and assembles
// GolfEngine.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  var parts = node ? require("./matching.js") : root.GolfEngineParts;
  var { own, sum, plural, P, fail, JOKER, tokenOf, parseGrid, values, PRESETS, decksFor, gridCardProblems,
    combinations, range, Finder } = parts;

  // --- grids ----------------------------------------------------------------------------------------
  var OFFICIAL_VALUES = values({ 2: -2 });
  var cite = key => {
    if (key === "project") return "project decision";
    if (key === "ruleset") return "ruleset override";
    return /^[0-9]/.test(key) ? "rule " + key : key;
  };
  var term = n => n >= 0 ? String(n) : "(" + n + ")";
  var article = rank => (rank === "A" || rank === "8" ? "an " : "a ") + rank;
  var pos = p => { return { row: p[0] + 1, col: p[1] + 1 }; };
  var label = p => "row " + (p[0] + 1) + ", column " + (p[1] + 1);
  function valueRule(rs, rank) {
    var value = rs.values[rank];
    if (rs.overrides.indexOf("values") >= 0 && value !== PRESETS[rs.preset].values[rank]) return "ruleset";
    if (rank !== JOKER && value === OFFICIAL_VALUES[rank]) return "2.2";
    if (rs.preset.indexOf("official") === 0) return "5.4";
    return "seed " + rs.source.split(/\s+/)[0].replace(/,+$/, "");
  }
  function largestDisjoint(blocks) {
    for (var size = blocks.length; size > 0; size--) {
      var layouts = combinations(blocks, size).filter(combo => {
        return new Set([].concat.apply([], combo)).size === 4 * size;
      });
      if (layouts.length) return layouts;
    }
    return [[]];
  }
  /** One ruleset compiled: the match finder, values and what a breakdown needs. */
  function Engine(rs) {
    var self = this;
    this.rs = rs;
    this.rows = rs.rows; this.cols = rs.cols; this.size = rs.rows * rs.cols;
    this.positions = range(this.size).map(i => [Math.floor(i / self.cols), i % self.cols]);
    this.finder = new Finder(rs);
    this.value = rs.values;
    this.keep = rs.negative_matches === "keep";
    this.zeroRule = rs.preset === "jokers-54" ? "seed 004" : "seed 001";
    this.block = rs.four_of_a_kind_block;
    this.blockCells = this.block && rs.rows === 2 ? range(rs.cols - 1).map(c => [c, c + 1, rs.cols + c, rs.cols + c + 1]) : [];
    this.ranges = {};
  }
  Engine.prototype.withBlocks = function (ranks) {
    var self = this, everything = (1 << this.size) - 1;
    var candidates = this.blockCells.filter(c => {
      return ranks[c[0]] !== JOKER && ranks[c[0]] === ranks[c[1]] && ranks[c[1]] === ranks[c[2]] && ranks[c[2]] === ranks[c[3]];
    });
    if (!candidates.length) { var plain = this.finder.choose(ranks, everything); return [plain[0], [], plain[1]]; }
    var layouts = largestDisjoint(candidates), best = null;
    layouts.forEach(layout => {
      var free = everything;
      layout.forEach(cells => { cells.forEach(c => { free &= ~(1 << c); }); });
      var chosen = self.finder.choose(ranks, free);
      var rest = sum(range(self.size).filter(c => (free >> c) & 1).map(c => self.value[ranks[c]]));
      var score = layout.length * self.block.points + rest - sum(chosen[0].map(f => f.gain));
      if (best === null || score < best[0]) best = [score, chosen[0], layout, chosen[1] || layouts.length > 1];
    });
    return [best[1], best[2], best[3]];
  };
  Engine.prototype.chosen = function (ranks) {
    if (this.block !== null) return this.withBlocks(ranks);
    var plain = this.finder.choose(ranks, (1 << this.size) - 1);
    return [plain[0], [], plain[1]];
  };
  Engine.prototype.totalOfRanks = function (ranks) {
    var self = this, total = sum(ranks.map(r => self.value[r]));
    var chosen = this.chosen(ranks);
    chosen[1].forEach(cells => { total += self.block.points - sum(cells.map(c => self.value[ranks[c]])); });
    chosen[0].forEach(f => { total -= f.gain; });
    return total;
  };
  Engine.prototype.describe = function (f, ranks) {
    var self = this, l = f.line;
    var positions = l.cells.map(c => self.positions[c]);
    var wild = f.wild.map(c => self.positions[c]);
    var match = { kind: l.kind, positions: positions.map(pos), rank: f.rank, points: f.points, wild: wild.map(pos), rule: wild.length ? "seed 002" : l.rule };
    var shown = l.cells.map(c => ranks[c]);
    var cards = shown.join(shown.length === 2 ? " and " : ", "), where;
    if (l.kind === "column") where = "Column " + (positions[0][1] + 1);
    else if (l.kind === "row" && positions.length === 2) where = "Row " + (positions[0][0] + 1) + ", columns " + (positions[0][1] + 1) + " and " + (positions[1][1] + 1);
    else if (l.kind === "row") where = "Row " + (positions[0][0] + 1);
    else if (l.kind === "diagonal") where = "Diagonal from " + label(positions[0]);
    else where = "Cards at " + positions.map(label).join(" and ");
    var text = where + ": " + cards + " match (" + cite(l.rule) + ")";
    if (wild.length) text += "; the joker at " + wild.map(label).join(" and ") + " stands in for " + article(f.rank) + " (" + cite("seed 002") + ")";
    if (shown.some(r => self.value[r] < 0)) {
      text += this.keep ? "; matched negative cards keep their points: " + f.points + " (" + cite("2.3") + ")." : "; negative cards score 0 when matched (" + cite(this.zeroRule) + ").";
    } else text += ": 0 points.";
    return [match, text];
  };
  /** The full breakdown of a checked grid, given as its cards row by row (GridScore.to_dict()). */
  Engine.prototype.score = function (cards) {
    var self = this, ranks = cards.map(c => c.rank);
    var chosen = this.chosen(ranks), lines = [], terms = [], matches = [], ruleOf = {};
    chosen[0].forEach(f => {
      var described = self.describe(f, ranks);
      matches.push(described[0]); lines.push(described[1]); terms.push(term(f.points));
      f.line.cells.forEach(c => { ruleOf[c] = described[0].rule; });
    });
    var blocks = chosen[1].map(cells => {
      var positions = cells.map(c => self.positions[c]), rank = ranks[cells[0]];
      terms.push(term(self.block.points));
      lines.push("Columns " + (positions[0][1] + 1) + " and " + (positions[1][1] + 1) + ": four " + rank + "s form a block scoring " +
        self.block.points + " in all, and every other player adds " + self.block.others_add + " (" + cite("seed 001") + ").");
      return { positions: positions.map(pos), rank: rank, points: self.block.points, others_add: self.block.others_add, rule: "seed 001" };
    });
    var inBlock = new Set([].concat.apply([], chosen[1]));
    if (chosen[2]) {
      lines.push("Some cards could match in more than one way; the matches that give the lowest score count, " +
        "and each card takes part in one match at most (" + cite("seed 001") + ").");
    }
    var total = 0;
    var scores = cards.map((card, i) => {
      var p = self.positions[i], points, matched = true, rule;
      if (own(ruleOf, i)) { points = self.finder.kept[card.rank]; rule = points ? "2.3" : ruleOf[i]; } else if (inBlock.has(i)) { points = 0; rule = "seed 001"; } else {
        points = self.value[card.rank]; matched = false; rule = valueRule(self.rs, card.rank);
        lines.push("Row " + (p[0] + 1) + ", column " + (p[1] + 1) + ": " + tokenOf(card) + " scores " + points + " (" + cite(rule) + ").");
        terms.push(term(points));
      }
      total += points;
      return { position: pos(p), card: tokenOf(card), rank: card.rank, points: points, matched: matched, rule: rule };
    });
    blocks.forEach(b => { total += b.points; });
    lines.push("Grid score: " + (terms.length ? terms.join(" + ") : "0") + " = " + total + " (" + cite("2.4") + ").");
    return { total: total, matches: matches, blocks: blocks, cards: scores, explanation: lines };
  };
  Engine.prototype.prepare = function (grid, where) {
    var rs = this.rs, parsed = parseGrid(grid, where, rs.jokers > 0);
    if (parsed.length !== rs.rows || parsed[0].length !== rs.cols) {
      fail([P(where, "The " + rs.preset + " ruleset plays " + rs.rows + "x" + rs.cols + " grids (" + rs.rows + " rows of " + rs.cols +
        " cards); this grid has " + parsed.length + " " + plural(parsed.length, "row") + " of " + parsed[0].length + " " + plural(parsed[0].length, "card") + ".")], "GridError");
    }
    return parsed;
  };
  Engine.prototype.gridDecks = function (players) {
    return typeof this.rs.decks === "number" ? this.rs.decks : (players === null || players === undefined ? null : decksFor(this.rs, players));
  };
  Engine.prototype.checked = function (grid, players) {
    var parsed = this.prepare(grid, "grid"), problems = gridCardProblems(parsed, this.rs, this.gridDecks(players), "grid");
    if (problems.length) fail(problems, "DeckError");
    return [].concat.apply([], parsed);
  };

  Object.assign(parts, { cite, Engine });
  parts.loaded.push("grid");
  if (node) module.exports = parts;
})(typeof self !== "undefined" ? self : this);
