// The rules engine on the phone (issue 32, "The same scores offline as online"): a port of the Python
// engine `scoring/rules/` (docs/engine.md, docs/rules.md) giving exactly its answers, as JSON shaped
// like the API's, so that a table scores with no connection. Pure: no DOM, no dependency, no build.
// Checked against the Python engine by tests/test_offline_engine.py (100,000+ random cases made by
// the Python engine at test time, plus the calls of tests/rules/; docs/engine.md "The phone's copy").
// Size (all its parts): about 87 KB as written (24 KB gzipped), 42 KB minified, most of it the Python's own words.
//
// INTERFACE (names are those of the Python results' to_dict(); positions are 1-based {row, col})
// A ruleset argument is a preset name, {"preset": name, ...overrides}, or a resolved ruleset.
// A grid is rows of card tokens: [["Q", "7", "K"], ["Q", "7", "3"]] ("10h", "T♠", "x", "JK" too).
//
// GolfEngine.resolveRuleset(spec) -> Ruleset.to_dict(): {preset, source, rows, cols,
//   face_up_at_start, decks (n or "auto"), min_decks, jokers, values {rank: points}, match_lines [..],
//   negative_matches, jokers_wild, four_of_a_kind_block null|{points, others_add},
//   ender_penalty null|{kind: "fixed", points}|{kind: "lowest_score"}, ender_penalty_on_tie,
//   hole_end, holes, target_score, tiebreakers [..], overrides [..]}
// GolfEngine.scoreGrid(ruleset, grid, players?) -> {total, matches: [{kind, positions, rank, points,
//   wild, rule}], blocks: [{positions, rank, points, others_add, rule}], cards: [{position, card,
//   rank, points, matched, rule}] (row by row), explanation: [lines]}   (POST /api/v1/score/)
// GolfEngine.gridTotal(ruleset, grid) -> the same total, checked alike (no player count).
// GolfEngine.scoreHole(ruleset, entries, ender?, blocksMarked?, {checkDecks: true}) ->
//   {players: [{name, grid_score, typed, adjustments: [{kind, reason, points, rule}], score,
//   grid?: <scoreGrid answer, for grids entered as cards>}], ender, decks}   (POST /api/v1/score-hole/)
//   entries: an object (or a Map) name -> grid or typed total (integer), in seat order (NB: a JS
//   object puts names that are whole numbers such as "12" first: use a Map or the list form for
//   them), or a list [{name, grid} | {name, total, blocks_marked}]; blocksMarked: {name: blocks
//   marked by hand}. checkDecks false: a playoff hole among some players (the server does the same).
// GolfEngine.checkGridCards(ruleset, grid, players?, where?) / checkTableCards(ruleset, {name: grid},
//   players?, where?) -> undefined, or throw a RulesError of kind "DeckError".
// GolfEngine.matchState(ruleset, players, holes, firstDealer?, {playoffHoles, endedEarly}) ->
//   compute_match_state plus what the scoreboard (GET .../scoreboard/) derives from it:
//   {totals {name: total}, player_totals {name: {total, holes_played, playoff_total, penalty_points,
//   hole_points}}, regular_holes, playoff_holes, match_over, reason, status ("in_progress" |
//   "sudden_death" | "finished"), winners, contenders, shared_victory, leaders, ranks {name: place},
//   outcome null|{order, totals, winners, status, contenders, steps: [{method, players, values,
//   decided, explanation}], explanation}, hole_scores {name: [..]}, playoff_scores, cumulative
//   {name: [running totals]}, holes_won {name: n}, holes_left, playoff_stale, ended_early,
//   holes: [{number, playoff, dealer_seat, first_player_seat, low: [names]}] (each recorded hole, by
//   number, regular first), next_hole null|{number, is_playoff, dealer_seat, dealer,
//   first_player_seat, first_player, players}}
//   players: the seats' names in seat order; holes: [{number, scores {name: score}, playoff?}];
//   options.playoffHoles: more holes, all playoff. firstDealer: the seat that dealt hole 1 (null:
//   the dealer fields are null; a seat outside the table throws a RulesError at "first_dealer").
//   A playoff hole is dealt as hole regular_holes + its number, as the server deals it.
// GolfEngine.rankPlayers(holeScores {name: [..]}, tiebreakers, playoffScores?, penalties?) -> outcome.
// GolfEngine.matchOver(ruleset, holesPlayed, totals) -> [over, reason].
// GolfEngine.dealerForHole(playerCount, firstDealer, holeNumber), firstPlayerForHole(same) -> seat.
// GolfEngine.scoreRange(ruleset, decks?) -> {low, high, low_grid, high_grid, exact}: the lowest and
//   highest grid score (decks: packs in play, default ruleset.decks_for(2 players)). The Python
//   gives a house ruleset 0.2 s (RANGE_SEARCH_SECONDS) before settling for the per-cell bound; this
//   copy has no clock: it stops at the same RANGE_SEARCH_LIMIT steps only, so where the server ran
//   out of time the phone's range is the exact one, inside the server's (exact: false there).
// GolfEngine.parseCard(token, where?, jokers?) -> {rank, suit}; parseGrid(rows, where?, jokers?) ->
//   canonical tokens. GolfEngine.PRESETS (name -> resolved), RANKS, SUITS.
// Errors: every refusal throws GolfEngine.RulesError: .kind is the Python class ("RulesError",
//   "CardError", "GridError", "RulesetError", "DeckError"), .problems = [{where, message}] (English,
//   word for word the Python's), .message the first message, .asDict() = {detail, errors} (the API).
//
// LOAD ORDER (issue 32: modules under 400 lines). The engine is ten classic scripts in this folder
// and this one; each part adds what the later ones use to one shared object, `GolfEngineParts` (on
// the page's global object), and this file, loaded last, builds `GolfEngine` from it. A page loads,
// in this order (templates/offline/_scripts.html; the service worker stores every js/**/*.js):
//   python-ways.js  Python's ways where JavaScript differs; RulesError
//   cards.js        ranks, suits, card tokens and grids parsed
//   ruleset.js      presets, overrides checked, specs resolved and compiled (memoised)
//   decks.js        deck checks: more cards than the packs hold
//   matching.js     the lines of a ruleset and the set of matches scoring lowest
//   grid.js         a grid's total and its breakdown (the compiled Engine)
//   score-range.js  the lowest and highest grid score
//   hole.js         one hole for the whole table
//   tiebreak.js     standings and tiebreaks
//   match.js        dealing, the end of a match, the match state
//   golf-engine.js  this file: the public GolfEngine
// Each part uses only what the parts before it define (ruleset.js's compiled() builds grid.js's
// Engine, at call time only). Under node, a plain require() of this file requires its parts.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  /** The parts, in load order (the list above); under node each is required here, in this order. */
  var PARTS = ["python-ways", "cards", "ruleset", "decks", "matching", "grid", "score-range", "hole", "tiebreak", "match"];
  var parts = node ? PARTS.map(name => require("./" + name + ".js"))[0] : root.GolfEngineParts;
  var missing = PARTS.filter(name => !parts || parts.loaded.indexOf(name) < 0);
  if (missing.length) throw new Error("GolfEngine: load " + missing.join(".js, ") + ".js before golf-engine.js (see its load order).");
  var { RulesError, RANKS, SUITS, tokenOf, parseCard, parseGrid, PRESETS, compiled, copy, resolveRuleset, decksFor,
    checkGridCards, checkTableCards, gridScoreRange, scoreHole, lowScorers, rankPlayers, dealerForHole, firstPlayerForHole,
    matchOver, matchState } = parts;

  // --- the public face ------------------------------------------------------------------------------
  var GolfEngine = {
    RANKS: RANKS.slice(), SUITS: SUITS.slice(), PRESETS: copy(PRESETS), RulesError: RulesError,
    resolveRuleset: resolveRuleset,
    parseCard: parseCard,
    parseGrid: (rows, where, jokers) => { return parseGrid(rows, where, jokers).map(row => row.map(tokenOf)); },
    scoreGrid: (ruleset, grid, players) => { var e = compiled(ruleset); return e.score(e.checked(grid, players)); },
    gridTotal: (ruleset, grid) => { var e = compiled(ruleset); return e.totalOfRanks(e.checked(grid, null).map(c => c.rank)); },
    scoreHole: scoreHole,
    checkGridCards: checkGridCards,
    checkTableCards: checkTableCards,
    scoreRange: (ruleset, decks) => { var e = compiled(ruleset); return copy(gridScoreRange(e, decks === undefined || decks === null ? decksFor(e.rs, 2) : decks)); },
    matchState: matchState,
    rankPlayers: rankPlayers,
    matchOver: matchOver,
    dealerForHole: dealerForHole,
    firstPlayerForHole: firstPlayerForHole,
    lowScorers: lowScorers,
    decksFor: (ruleset, players) => decksFor(compiled(ruleset).rs, players),
  };
  root.GolfEngine = GolfEngine;
  if (node) module.exports = GolfEngine;
})(typeof self !== "undefined" ? self : this);
