// The phone's rules engine, part 8 of 10: hole scoring: one hole for the whole table, typed totals
// checked against the score range, blocks' points for the others and the ender's penalty
// (scoring/rules/hole.py, holes.py). Loaded after score-range.js; golf-engine.js lists the load
// order and assembles GolfEngine.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  var parts = node ? require("./score-range.js") : root.GolfEngineParts;
  var { own, isInt, isObj, strip, sum, plural, str, RulesError, P, fail, compiled, decksFor, gridCardProblems,
    tableCardProblems, pairsOf, cite, gridScoreRange } = parts;

  var TOTAL_LIMIT = 1000, CALCULATOR_API_MAX_PLAYERS = 32;
  // --- holes ----------------------------------------------------------------------------------------
  function entryList(entries, blocksMarked) {
    var marked = blocksMarked || {};
    if (Array.isArray(entries)) return entries.map(e => { return isObj(e) ? { name: e.name, grid: own(e, "grid") ? e.grid : null, total: own(e, "total") ? e.total : null, blocks_marked: own(e, "blocks_marked") ? e.blocks_marked : 0 } : e; });
    if (!isObj(entries) && !(entries instanceof Map)) fail([P("grids", "Players' grids must be given as a list or a mapping name → grid.")], "GridError");
    return pairsOf(entries).map(pair => {
      var name = pair[0], v = pair[1], blocks = own(marked, name) ? marked[name] : 0;
      return isInt(v) ? { name: name, grid: null, total: v, blocks_marked: blocks } : { name: name, grid: v === undefined ? null : v, total: null, blocks_marked: blocks };
    });
  }
  function checkEntry(entry, rs, seen) {
    if (!isObj(entry)) return [P("grids", "Expected a player entry, got " + (Array.isArray(entry) ? "list" : entry === null ? "NoneType" : { string: "str", number: isInt(entry) ? "int" : "float", boolean: "bool" }[typeof entry]) + ".")];
    var name = entry.name, where = "grids." + str(name), problems = [], marked = entry.blocks_marked, total = entry.total;
    if (typeof name !== "string" || !strip(name)) problems.push(P("grids", "Every player needs a name."));
    else if (seen.has(name)) problems.push(P(where, 'Player "' + name + '" is listed twice.'));
    seen.add(name);
    if (entry.grid === null && total === null) problems.push(P(where, "Enter " + str(name) + "'s grid or hole total."));
    else if (entry.grid !== null && total !== null) problems.push(P(where, "Enter " + str(name) + "'s grid or hole total, not both."));
    else if (total !== null && (!isInt(total) || Math.abs(total) > TOTAL_LIMIT)) {
      problems.push(P(where, str(name) + "'s hole total must be a whole number from -" + TOTAL_LIMIT + " to " + TOTAL_LIMIT + "."));
    }
    var most = Math.floor(rs.cols / 2);
    if (!isInt(marked) || marked < 0) problems.push(P(where + ".blocks_marked", "Blocks marked must be a whole number, 0 or more."));
    else if (marked) {
      if (rs.four_of_a_kind_block === null) problems.push(P(where + ".blocks_marked", "This ruleset has no four-of-a-kind block rule: no block to mark."));
      else if (entry.grid !== null) problems.push(P(where + ".blocks_marked", "Blocks are found from the cards when the grid is entered."));
      else if (marked > most) problems.push(P(where + ".blocks_marked", "A " + rs.rows + "x" + rs.cols + " grid holds at most " + most + " " + plural(most, "block") + "."));
    }
    return problems;
  }
  function typedTotalProblem(entry, engine, decks) {
    if (entry.total === null || entry.grid !== null) return null;
    var span = gridScoreRange(engine, decks), rs = engine.rs;
    if (span.low <= entry.total && entry.total <= span.high) return null;
    var added = [];
    if (rs.ender_penalty !== null) added.push("the ender's penalty");
    if (rs.four_of_a_kind_block !== null) added.push("the points of other players' blocks");
    var after = added.length ? " (type the grid's score: the app adds " + added.join(" and ") + ")" : "";
    return P("grids." + str(entry.name), str(entry.name) + "'s hole total " + entry.total + " is impossible: a hole scores between " + span.low + " and " + span.high + " under these rules" + after + ".");
  }
  /** One hole for the whole table (score_hole, answered as POST /api/v1/score-hole/ answers). */
  function scoreHole(ruleset, entries, ender, blocksMarked, options) {
    var engine = compiled(ruleset), rs = engine.rs, checkDecks = !options || options.checkDecks !== false;
    ender = ender === undefined ? null : ender;
    var players = entryList(entries, blocksMarked), problems = [], seen = new Set();
    players.forEach(e => { problems = problems.concat(checkEntry(e, rs, seen)); });
    if (!players.length) problems.push(P("grids", "A hole needs at least one player."));
    if (ender !== null && !seen.has(ender)) {
      problems.push(P("ender", 'The ender "' + str(ender) + '" is not one of the players (' + players.filter(isObj).map(e => str(e.name)).join(", ") + ")."));
    }
    var kind = problems.length ? "GridError" : null, decks = decksFor(rs, players.length), grids = new Map(), deckProblems = [];
    players.forEach(e => {
      if (!isObj(e) || e.grid === null || e.total !== null) return;
      var where = "grids." + str(e.name);
      try { grids.set(e.name, engine.prepare(e.grid, where)); } catch (error) {
        if (!(error instanceof RulesError)) throw error;
        problems = problems.concat(error.problems); kind = kind || error.kind;
        return;
      }
      if (checkDecks) deckProblems = deckProblems.concat(gridCardProblems(grids.get(e.name), rs, decks, where));
    });
    if (checkDecks && !deckProblems.length && !problems.length) deckProblems = tableCardProblems(Array.from(grids), rs, decks, "grids");
    if (deckProblems.length) { problems = problems.concat(deckProblems); kind = kind || "DeckError"; }
    if (!problems.length) {
      var rangeDecks = checkDecks ? decks : decksFor(rs, CALCULATOR_API_MAX_PLAYERS);
      players.forEach(e => { var p = typedTotalProblem(e, engine, rangeDecks); if (p) problems.push(p); });
      kind = problems.length ? "GridError" : null;
    }
    if (problems.length) fail(problems, kind || "RulesError");
    return holeScores(players, grids, engine, ender, decks);
  }
  function holeScores(players, grids, engine, ender, decks) {
    var rs = engine.rs, results = new Map(), base = new Map(), blocks = new Map(), adjustments = new Map();
    grids.forEach((grid, name) => { results.set(name, engine.score([].concat.apply([], grid))); });
    players.forEach(e => {
      var r = results.get(e.name);
      base.set(e.name, r ? r.total : e.total);
      blocks.set(e.name, r ? r.blocks.length : e.blocks_marked);
    });
    blocks.forEach((n, name) => { adjustments.set(name, []); });
    var rule = rs.four_of_a_kind_block;
    if (rule !== null) {
      blocks.forEach((n, owner) => {
        var reason = owner + " has a four-of-a-kind block: +" + rule.others_add + " to every other player (" + cite("seed 001") + ").";
        for (var i = 0; i < n; i++) {
          adjustments.forEach((list, other) => { if (other !== owner) list.push({ kind: "block_others_add", reason: reason, points: rule.others_add, rule: "seed 001" }); });
        }
      });
    }
    var points = name => { return base.get(name) + sum(adjustments.get(name).map(a => a.points)); };
    var soFar = new Map();
    base.forEach((v, name) => { soFar.set(name, points(name)); });
    if (ender !== null) {
      var penalty = enderPenalty(ender, soFar, rs);
      if (penalty) adjustments.get(ender).push(penalty);
    }
    return {
      players: players.map(e => {
        var out = { name: e.name, grid_score: base.get(e.name), typed: !results.has(e.name), adjustments: adjustments.get(e.name).slice(), score: points(e.name) };
        if (results.has(e.name)) out.grid = results.get(e.name);
        return out;
      }),
      ender: ender, decks: decks,
    };
  }
  function enderPenalty(ender, soFar, rs) {
    var penalty = rs.ender_penalty, others = [];
    soFar.forEach((score, name) => { if (name !== ender) others.push([name, score]); });
    if (penalty === null || !others.length) return null;
    var lowest = Math.min.apply(null, others.map(o => o[1])), mine = soFar.get(ender), how;
    if (!(lowest < mine || (rs.ender_penalty_on_tie && lowest === mine))) return null;
    if (lowest === mine) how = "tied for the lowest score";
    else how = "did not have the lowest score (" + others.filter(o => o[1] === lowest).map(o => o[0]).join(" and ") + ": " + lowest + ")";
    if (penalty.kind === "fixed") {
      return { kind: "ender_penalty", reason: ender + " ended the hole and " + how + ": +" + penalty.points + " (" + cite("seed 001") + ").", points: penalty.points, rule: "seed 001" };
    }
    if (lowest <= 0) return null;
    return { kind: "ender_penalty", reason: ender + " ended the hole and " + how + ": adds the lowest score, +" + lowest + " (" + cite("seed 001") + ").", points: lowest, rule: "seed 001" };
  }

  Object.assign(parts, { scoreHole });
  parts.loaded.push("hole");
  if (node) module.exports = parts;
})(typeof self !== "undefined" ? self : this);
