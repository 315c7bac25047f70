// The phone's rules engine, part 5 of 10: lines and matches: the lines a ruleset matches along and
// the set of matches that gives the lowest score (scoring/rules/lines.py, matching.py). Loaded
// after decks.js; golf-engine.js lists the load order and assembles GolfEngine.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  var parts = node ? require("./decks.js") : root.GolfEngineParts;
  var { sum, bits, lowBit, sortBy, RANKS, JOKER } = parts;

  // --- lines and matches ----------------------------------------------------------------------------
  function combinations(items, k) {
    var out = [];
    (function walk(start, chosen) {
      if (chosen.length === k) { out.push(chosen.slice()); return; }
      for (var i = start; i < items.length; i++) { chosen.push(items[i]); walk(i + 1, chosen); chosen.pop(); }
    })(0, []);
    return out;
  }
  var range = n => { var out = []; for (var i = 0; i < n; i++) out.push(i); return out; };
  function line(kind, cells, rule) {
    return { kind: kind, cells: cells, mask: cells.reduce((m, c) => m | (1 << c), 0), rule: rule };
  }
  function candidateLines(rows, cols, kinds) {
    var has = k => kinds.indexOf(k) >= 0, lines = [];
    if (has("anywhere")) return combinations(range(rows * cols), 2).map(p => line("anywhere", p, "seed 001"));
    var c, r;
    if (rows === 2) {
      if (has("columns")) for (c = 0; c < cols; c++) lines.push(line("column", [c, cols + c], "2.3"));
      if (has("rows")) for (r = 0; r < 2; r++) combinations(range(cols), 2).forEach(p => { lines.push(line("row", [r * cols + p[0], r * cols + p[1]], "9.1")); });
      if (has("diagonals") && cols === 2) lines.push(line("diagonal", [0, 3], "seed 001"), line("diagonal", [1, 2], "seed 001"));
      return lines;
    }
    if (has("columns")) for (c = 0; c < cols; c++) lines.push(line("column", range(rows).map(i => i * cols + c), "seed 001"));
    if (has("rows")) for (r = 0; r < rows; r++) lines.push(line("row", range(cols).map(i => r * cols + i), "seed 001"));
    if (has("diagonals") && rows === cols) {
      lines.push(line("diagonal", range(rows).map(i => i * cols + i), "seed 001"));
      lines.push(line("diagonal", range(rows).map(i => i * cols + cols - 1 - i), "seed 001"));
    }
    return lines;
  }
  var byCells = found => { return sortBy(found, f => f.line.cells); };
  function cellsByRank(ranks, free) {
    var out = new Map();
    ranks.forEach((rank, cell) => {
      if ((free >> cell) & 1) { if (out.has(rank)) out.get(rank).push(cell); else out.set(rank, [cell]); }
    });
    return out;
  }
  function Finder(rs) {
    var self = this;
    this.size = rs.rows * rs.cols;
    this.lines = candidateLines(rs.rows, rs.cols, rs.match_lines);
    this.wild = rs.jokers_wild;
    this.kept = {}; this.weight = {};
    RANKS.forEach(r => {
      self.kept[r] = rs.negative_matches === "keep" ? Math.min(rs.values[r], 0) : 0;
      self.weight[r] = rs.values[r] - self.kept[r];
    });
    this.pairs = this.lines.every(l => l.cells.length === 2);
    this.anywhere = rs.match_lines.indexOf("anywhere") >= 0;
    this.pairLine = {};
    this.neighbours = range(this.size).map(() => []);
    if (this.pairs) {
      this.lines.forEach(l => {
        self.pairLine[l.cells.join()] = l;
        self.neighbours[l.cells[0]].push(l.cells[1]);
        self.neighbours[l.cells[1]].push(l.cells[0]);
      });
    }
  }
  var found = (l, rank, wild, points, gain) => { return { line: l, rank: rank, wild: wild, points: points, gain: gain }; };
  Finder.prototype.pairOf = function (a, b) { return this.pairLine[(a < b ? [a, b] : [b, a]).join()]; };
  Finder.prototype.present = function (ranks, free) {
    if (this.pairs) return this.presentPairs(ranks, free);
    var self = this, out = [];
    this.lines.forEach(l => {
      if ((l.mask & free) !== l.mask) return;
      var lineRanks = l.cells.map(c => ranks[c]);
      var naturals = new Set(self.wild ? lineRanks.filter(r => r !== JOKER) : lineRanks);
      if (naturals.size > 1) return;
      var rank = naturals.size ? naturals.values().next().value : JOKER;
      var jokers = rank !== JOKER ? l.cells.filter(c => ranks[c] === JOKER) : [];
      out.push(found(l, rank, jokers, sum(lineRanks.map(r => self.kept[r])), sum(lineRanks.map(r => self.weight[r]))));
    });
    return out;
  };
  Finder.prototype.presentPairs = function (ranks, free) {
    var self = this, cellsOf = cellsByRank(ranks, free), out = [];
    cellsOf.forEach((cells, rank) => {
      for (var i = 0; i < cells.length; i++) {
        for (var j = i + 1; j < cells.length; j++) {
          var l = self.pairLine[cells[i] + "," + cells[j]];
          if (l) out.push(found(l, rank, [], 2 * self.kept[rank], 2 * self.weight[rank]));
        }
      }
    });
    if (this.wild && cellsOf.has(JOKER)) {
      cellsOf.get(JOKER).forEach(joker => {
        self.neighbours[joker].forEach(other => {
          var rank = ranks[other];
          if (rank === JOKER || !((free >> other) & 1)) return;
          out.push(found(self.pairOf(joker, other), rank, [joker], self.kept[rank] + self.kept[JOKER], self.weight[rank] + self.weight[JOKER]));
        });
      });
    }
    return out.length > 1 ? byCells(out) : out;
  };
  /** The matches that count among the free cells, and whether several sets were possible. */
  Finder.prototype.choose = function (ranks, free) {
    if (this.anywhere) return this.chooseAnywhere(ranks, free);
    var present = this.present(ranks, free);
    if (present.length < 2) return [present, false];
    var used = 0;
    for (var i = 0; i < present.length; i++) {
      if (used & present[i].line.mask) return [this.pairs ? bestPairMatching(present, this.weight) : bestLineSet(present), true];
      used |= present[i].line.mask;
    }
    return [present, false];
  };
  Finder.prototype.chooseAnywhere = function (ranks, free) {
    var cellsOf = cellsByRank(ranks, free), weight = this.weight, jokers = [];
    if (this.wild && cellsOf.has(JOKER)) { jokers = cellsOf.get(JOKER); cellsOf.delete(JOKER); }
    var counted = [], naturals = 0, J = jokers.length;
    cellsOf.forEach((cells, rank) => { counted.push([rank, cells.length]); naturals += cells.length; });
    var choice = counted.some(c => c[1] > 2) || (J > 0 && J + naturals > 2);
    if (!J) return [this.anywherePairs(cellsOf, jokers, new Set(), false), choice];
    var gains = sortBy(counted.map(c => [c[1] % 2 ? weight[c[0]] : -weight[c[0]], c[0]]), g => -g[0]);
    var base = J * weight[JOKER] + sum(counted.map(c => weight[c[0]] * (c[1] - c[1] % 2)));
    var bestA = null, running = 0;
    for (var flips = 0; flips <= Math.min(J, gains.length); flips++) {
      if (flips) running += gains[flips - 1][0];
      if ((J - flips) % 2 === 0 && (bestA === null || base + running > bestA[0])) bestA = [base + running, flips];
    }
    var odd = counted.filter(c => c[1] % 2).length, bestB = null;
    if (odd <= J - 1 && (J - 1 - odd) % 2 === 0) bestB = (J - 1) * weight[JOKER] + sum(counted.map(c => weight[c[0]] * c[1]));
    var flipped, spare;
    if (bestA === null || (bestB !== null && bestB > bestA[0])) {
      flipped = new Set(counted.filter(c => c[1] % 2).map(c => c[0]));
      spare = true;
    } else {
      flipped = new Set(gains.slice(0, bestA[1]).map(g => g[1]));
      spare = false;
    }
    return [this.anywherePairs(cellsOf, jokers, flipped, spare), choice];
  };
  Finder.prototype.anywherePairs = function (cellsOf, jokers, flipped, spare) {
    var self = this, out = [], kept = this.kept, weight = this.weight;
    jokers = jokers.slice();
    cellsOf.forEach((all, rank) => {
      var cells = all;
      if (cells.length === 1 && !flipped.has(rank)) return;
      if (flipped.has(rank)) {
        cells = cells.slice(0, -1);
        var natural = all[all.length - 1], joker = jokers.shift();
        out.push(found(self.pairOf(joker, natural), rank, [joker], kept[rank] + kept[JOKER], weight[rank] + weight[JOKER]));
      }
      for (var i = 0; i < cells.length - 1; i += 2) out.push(found(self.pairOf(cells[i], cells[i + 1]), rank, [], 2 * kept[rank], 2 * weight[rank]));
    });
    if (spare) jokers.pop();
    for (var i = 0; i < jokers.length - 1; i += 2) out.push(found(self.pairOf(jokers[i], jokers[i + 1]), JOKER, [], 2 * kept[JOKER], 2 * weight[JOKER]));
    return out.length > 1 ? byCells(out) : out;
  };
  var cellsOfMask = mask => { var out = []; while (mask) { out.push(lowBit(mask)); mask &= mask - 1; } return out; };
  /** The maximal set of disjoint pairs with the largest saving (matching.py best_pair_matching). */
  function bestPairMatching(present, weight) {
    var partners = new Map(), near = new Map(), rankOf = {};
    present.forEach(f => {
      var a = f.line.cells[0], b = f.line.cells[1];
      [[a, b], [b, a]].forEach(pair => {
        if (partners.has(pair[0])) { partners.get(pair[0]).push([pair[1], f]); near.set(pair[0], near.get(pair[0]) | (1 << pair[1])); } else {
          partners.set(pair[0], [[pair[1], f]]); near.set(pair[0], 1 << pair[1]);
        }
      });
      if (f.wild.length) {
        rankOf[a] = f.wild.indexOf(a) >= 0 ? JOKER : f.rank;
        rankOf[b] = f.wild.indexOf(b) >= 0 ? JOKER : f.rank;
      } else rankOf[a] = rankOf[b] = f.rank;
    });
    var free = 0, twins = {}, groups = new Map(), sameParts = new Map();
    near.forEach((mask, cell) => {
      free |= 1 << cell;
      var key = rankOf[cell] + "|" + (mask | (1 << cell));
      groups.set(key, (groups.get(key) || 0) | (1 << cell));
      if (sameParts.has(mask)) sameParts.get(mask).push(cell); else sameParts.set(mask, [cell]);
    });
    near.forEach((mask, cell) => { twins[cell] = groups.get(rankOf[cell] + "|" + (mask | (1 << cell))); });
    var dropped = 0, forced = 0;
    sameParts.forEach((cells, shared) => {
      var room = bits(shared);
      if (cells.length > room) {
        sortBy(cells, c => -weight[rankOf[c]]).slice(room).forEach(c => { dropped |= 1 << c; });
        forced |= shared;
      }
    });
    if (forced & dropped) dropped = forced = 0;
    free &= ~dropped;
    var memo = new Map();
    function best(free, must) {
      if (!free) return [0, []];
      var key = free * 65536 + must;
      if (memo.has(key)) return memo.get(key);
      var bit = free & -free, cell = lowBit(free), result = null, tried = 0;
      partners.get(cell).forEach(p => {
        var other = p[0], f = p[1], otherBit = 1 << other;
        if (!(free & otherBit) || (tried & twins[other])) return;
        tried |= otherBit;
        var restFree = free & ~bit & ~otherBit, rest = best(restFree, (must | twins[cell]) & restFree);
        if (rest !== null && (result === null || rest[0] + f.gain > result[0])) result = [rest[0] + f.gain, [f].concat(rest[1])];
      });
      if (!(must & bit)) {
        var leftFree = free & ~bit, leftMust = must | (near.get(cell) & leftFree);
        if (cellsOfMask(leftMust).every(c => near.get(c) & leftFree & ~(1 << c))) {
          var rest = best(leftFree, leftMust);
          if (rest !== null && (result === null || rest[0] > result[0])) result = rest;
        }
      }
      memo.set(key, result);
      return result;
    }
    return byCells(best(free, forced)[1]);
  }
  /** The maximal set of disjoint lines (any length) with the largest saving (3x3 lines of three). */
  function bestLineSet(present) {
    var byCell = new Map(), free = 0;
    present.forEach(f => {
      free |= f.line.mask;
      f.line.cells.forEach(c => { if (!byCell.has(c)) byCell.set(c, []); byCell.get(c).push(f); });
    });
    byCell.forEach((options, c) => { byCell.set(c, sortBy(options, f => -f.gain)); });
    var memo = new Map();
    function best(free, unmatched) {
      if (!free) return [0, []];
      var key = free * 65536 + unmatched;
      if (memo.has(key)) return memo.get(key);
      var bit = free & -free, cell = lowBit(free), result = null;
      byCell.get(cell).forEach(f => {
        var mask = f.line.mask;
        if ((mask & free) === mask) {
          var rest = best(free & ~mask, unmatched);
          if (rest !== null && (result === null || rest[0] + f.gain > result[0])) result = [rest[0] + f.gain, [f].concat(rest[1])];
        }
      });
      var left = unmatched | bit;
      if (byCell.get(cell).every(f => f.line.mask & ~left)) {
        var rest = best(free & ~bit, left);
        if (rest !== null && (result === null || rest[0] > result[0])) result = rest;
      }
      memo.set(key, result);
      return result;
    }
    return byCells(best(free, 0)[1]);
  }

  Object.assign(parts, { combinations, range, Finder });
  parts.loaded.push("matching");
  if (node) module.exports = parts;
})(typeof self !== "undefined" ? self : this);
