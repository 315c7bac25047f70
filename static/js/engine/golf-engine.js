// The rules engine on the phone (issue 32, "The same scores offline as online"): a port of the Python
// engine `scoring/rules/` (docs/engine.md, docs/rules.md) giving exactly its answers, as JSON shaped
// like the API's, so that a table scores with no connection. Pure: no DOM, no dependency, no build.
// Checked against the Python engine by tests/test_offline_engine.py (100,000+ random cases made by
// the Python engine at test time, plus the calls of tests/rules/; docs/engine.md "The phone's copy").
// Size: about 87 KB as written (24 KB gzipped), 42 KB minified, most of it the Python's own words.
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
(root => {
  "use strict";

  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"];
  var SUITS = ["S", "H", "D", "C"];
  var JOKER = "X";
  var RANGE_SEARCH_LIMIT = 60000; // golfclub/core/limits.py
  var MAX_DECKS = 8, VALUE_LIMIT = 100, TOTAL_LIMIT = 1000, CALCULATOR_API_MAX_PLAYERS = 32;
  var RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King", X: "Joker" };
  var SUIT_NAMES = { S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs" };
  var SUIT_ALIAS = { S: "S", H: "H", D: "D", C: "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C" };
  var SUIT_SYMBOLS = "♠♥♦♣♤♡♢♧";
  var RANK_ALIAS = { T: "10", JK: "X" };
  RANKS.forEach(r => { RANK_ALIAS[r] = r; });
  var HELP = "use A, 2-10 (or T), J, Q, K or X/JK for a joker, optionally followed by a suit S, H, D, C";
  var HELP_NO_JOKERS = "use A, 2-10 (or T), J, Q or K, optionally followed by a suit S, H, D, C";
  var MATCH_LINES = ["columns", "rows", "diagonals", "anywhere"];
  var NEGATIVE_MATCHES = ["keep", "zero"];
  var HOLE_ENDS = ["all_face_up", "knock", "either"];
  var TIEBREAKERS = ["countback", "most_holes_won", "sudden_death", "shared"];
  var SHAPES = ["2x2", "2x3", "2x4", "2x5", "3x3"];
  var SETTABLE = ["rows", "cols", "face_up_at_start", "decks", "min_decks", "jokers", "values",
    "match_lines", "negative_matches", "jokers_wild", "four_of_a_kind_block", "ender_penalty",
    "ender_penalty_on_tie", "hole_end", "holes", "target_score", "tiebreakers"];

  // --- Python's ways, where JavaScript differs ------------------------------------------------------
  /** o[k] = v, also for a player called "__proto__" (an assignment would set the prototype). */
  var put = (o, k, v) => { Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true }); return v; };
  var own = (o, k) => o !== null && typeof o === "object" && Object.prototype.hasOwnProperty.call(o, k);
  var isInt = v => typeof v === "number" && Number.isInteger(v);
  var isObj = v => v !== null && typeof v === "object" && !Array.isArray(v);
  var PY_SPACE = "[\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  var STRIP = new RegExp("^" + PY_SPACE + "+|" + PY_SPACE + "+$", "g");
  var RSTRIP = new RegExp(PY_SPACE + "+$");
  var strip = s => s.replace(STRIP, "");
  var sum = list => { return list.reduce((a, b) => a + b, 0); };
  var plural = (n, word) => word + (n !== 1 ? "s" : "");
  var bits = mask => { var n = 0; while (mask) { mask &= mask - 1; n++; } return n; };
  var lowBit = mask => 31 - Math.clz32(mask & -mask);
  /** Python's order of strings (by code point; JavaScript's < compares UTF-16 units). */
  function cmpStr(a, b) {
    var i = 0, j = 0;
    while (i < a.length && j < b.length) {
      var x = a.codePointAt(i), y = b.codePointAt(j);
      if (x !== y) return x < y ? -1 : 1;
      i += x > 0xffff ? 2 : 1; j += y > 0xffff ? 2 : 1;
    }
    return (a.length - i) - (b.length - j) > 0 ? 1 : (i < a.length ? 1 : (j < b.length ? -1 : 0));
  }
  /** Python's comparison of numbers, strings and tuples (arrays). */
  function cmp(a, b) {
    if (Array.isArray(a)) {
      for (var i = 0; i < a.length && i < b.length; i++) { var c = cmp(a[i], b[i]); if (c) return c; }
      return a.length - b.length;
    }
    if (typeof a === "string") return cmpStr(a, b);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  /** Python's sorted(items, key=...): stable, ascending. */
  function sortBy(items, key) {
    return items.map((v, i) => [key(v), i, v])
      .sort((a, b) => cmp(a[0], b[0]) || a[1] - b[1])
      .map(e => e[2]);
  }
  function floatRepr(v) {
    var exp = Math.floor(Math.log10(Math.abs(v)));
    var text = String(v);
    if (exp >= -4 && exp < 16 && !/e/.test(text)) return text;
    var parts = v.toExponential().split("e");
    var e = parseInt(parts[1], 10);
    return parts[0] + "e" + (e < 0 ? "-" : "+") + (Math.abs(e) < 10 ? "0" : "") + Math.abs(e);
  }
  /** Python's repr() of a JSON value. */
  function repr(v) {
    if (v === null || v === undefined) return "None";
    if (v === true) return "True";
    if (v === false) return "False";
    if (typeof v === "number") return isInt(v) ? String(v) : floatRepr(v);
    if (typeof v === "string") {
      var q = v.indexOf("'") >= 0 && v.indexOf('"') < 0 ? '"' : "'";
      return q + v.replace(/[\\'"\n\r\t\x00-\x1f\x7f]/g, c => {
        if (c === "\\") return "\\\\";
        if (c === '"' || c === "'") return c === q ? "\\" + c : c;
        var named = { "\n": "\\n", "\r": "\\r", "\t": "\\t" }[c];
        return named || "\\x" + ("0" + c.charCodeAt(0).toString(16)).slice(-2);
      }) + q;
    }
    if (Array.isArray(v)) return "[" + v.map(repr).join(", ") + "]";
    return "{" + Object.keys(v).map(k => repr(k) + ": " + repr(v[k])).join(", ") + "}";
  }
  /** Python's str() of a JSON value, as an f-string shows it. */
  var str = v => typeof v === "string" ? v : repr(v);

  // --- errors ---------------------------------------------------------------------------------------
  /** A refusal: `problems` [{where, message}], `kind` the Python error class's name. */
  function RulesError(problems, kind) {
    if (typeof problems === "string") problems = [{ where: "input", message: problems }];
    this.problems = problems;
    this.kind = kind || "RulesError";
    this.name = "RulesError";
    this.message = problems[0].message;
  }
  RulesError.prototype = Object.create(Error.prototype);
  RulesError.prototype.constructor = RulesError;
  RulesError.prototype.asDict = function () {
    return { detail: this.message, errors: this.problems.map(p => { return { where: p.where, message: p.message }; }) };
  };
  RulesError.prototype.toString = function () { return this.problems.map(p => p.message).join("; "); };
  var P = (where, message) => { return { where: where, message: message }; };
  var fail = (problems, kind) => { throw new RulesError(problems, kind); };

  // --- cards ----------------------------------------------------------------------------------------
  var tokenOf = card => card.rank + (card.suit || "");
  var cardName = card => {
    var rank = RANK_NAMES[card.rank] || card.rank;
    return card.suit ? rank + " of " + SUIT_NAMES[card.suit] : rank;
  };
  function positionText(where) {
    if (where.slice(-1) === "]" && where.split("[").length >= 3) {
      var parts = where.split("["), n = parts.length;
      var row = parts[n - 2].replace(/\]+$/, ""), col = parts[n - 1].replace(/\]+$/, "");
      if (!/^\s*[+-]?\d+\s*$/.test(row) || !/^\s*[+-]?\d+\s*$/.test(col)) return "";
      return " at row " + parseInt(row, 10) + ", column " + parseInt(col, 10);
    }
    return "";
  }
  function parseToken(text) {
    var token = strip(text).toUpperCase();
    if (!token) return null;
    if (own(RANK_ALIAS, token)) return { rank: RANK_ALIAS[token], suit: null };
    var rankText = token.slice(0, -1).replace(RSTRIP, ""), suitText = token.slice(-1);
    if (!own(SUIT_ALIAS, suitText) || !own(RANK_ALIAS, rankText)) return null;
    var rank = RANK_ALIAS[rankText];
    return rank === JOKER ? null : { rank: rank, suit: SUIT_ALIAS[suitText] };
  }
  /** One card token -> {rank, suit}; throws a CardError naming the token and its place. */
  function parseCard(token, where, jokers) {
    where = where === undefined ? "card" : where;
    if (typeof token !== "string") {
      fail([P(where, "Expected a card token" + positionText(where) + ", got " + repr(token) + ".")], "CardError");
    }
    var card = parseToken(token);
    if (card) return card;
    var help = jokers === false ? HELP_NO_JOKERS : HELP, shown = strip(token), up = shown.toUpperCase();
    var message;
    if (!shown) message = "Missing card" + positionText(where) + ": " + help + ".";
    else if (["XS", "XH", "XD", "XC", "JKS", "JKH", "JKD", "JKC"].indexOf(up) >= 0 ||
      ((up[0] === "X" || up.slice(0, 2) === "JK") && SUIT_SYMBOLS.indexOf(shown.slice(-1)) >= 0)) {
      message = 'Jokers take no suit: "' + shown + '"' + positionText(where) + ' should be "X".';
    } else message = 'Unknown card "' + shown + '"' + positionText(where) + ": " + help + ".";
    return fail([P(where, message)], "CardError");
  }
  /** Rows of tokens -> rows of cards; every bad card named (CardError), or a bad shape (GridError). */
  function parseGrid(rows, where, jokers) {
    where = where === undefined ? "grid" : where;
    if (!Array.isArray(rows)) fail([P(where, "A grid is a list of rows, each a list of cards.")], "GridError");
    if (!rows.length) fail([P(where, "The grid has no rows.")], "GridError");
    var problems = [], parsed = [], lengths = [];
    rows.forEach((row, i) => {
      var r = i + 1;
      if (!Array.isArray(row)) { problems.push(P(where + "[" + r + "]", "Row " + r + " is not a list of cards.")); return; }
      lengths.push([r, row.length]);
      parsed.push(row.map((token, j) => {
        try { return parseCard(token, where + "[" + r + "][" + (j + 1) + "]", jokers); } catch (e) {
          if (!(e instanceof RulesError)) throw e;
          problems.push.apply(problems, e.problems);
          return null;
        }
      }).filter(Boolean));
    });
    var shape = null, counts = lengths.map(l => l[1]);
    if (counts.some(n => n !== counts[0])) {
      shape = P(where, "All rows must have the same number of cards; got " +
        lengths.map(l => "row " + l[0] + ": " + l[1]).join(", ") + ".");
    } else if (lengths.length && counts[0] === 0) shape = P(where, "The grid's rows are empty.");
    if (shape || (problems.length && problems[0].where.split("[").length === 2)) {
      fail((shape ? [shape] : []).concat(problems), "GridError");
    }
    if (problems.length) fail(problems, "CardError");
    return parsed;
  }

  // --- rulesets -------------------------------------------------------------------------------------
  function values(changes) {
    var base = { A: 1, J: 10, Q: 10, K: 0, X: -2 }, out = {};
    for (var n = 2; n <= 10; n++) base[String(n)] = n;
    RANKS.forEach(r => { out[r] = own(changes, r) ? changes[r] : base[r]; });
    return out;
  }
  var OFFICIAL = { preset: "official", source: "000 §2, §5.1", rows: 2, cols: 3, face_up_at_start: 2,
    decks: 1, min_decks: 1, jokers: 0, values: values({ 2: -2 }), match_lines: ["columns"],
    negative_matches: "keep", jokers_wild: false, four_of_a_kind_block: null, ender_penalty: null,
    ender_penalty_on_tie: false, hole_end: "all_face_up", holes: 9, target_score: null,
    tiebreakers: ["countback", "most_holes_won", "sudden_death"], overrides: [] };
  var like = (base, changes) => { return Object.assign({}, base, changes); };
  var BASIC = like(OFFICIAL, { preset: "basic", source: "001, 002", decks: "auto", values: values({}),
    tiebreakers: ["countback", "shared"] });
  var PRESETS = {};
  [OFFICIAL,
    like(OFFICIAL, { preset: "official-quick", source: "000 §5.2", cols: 2, holes: 6 }),
    like(OFFICIAL, { preset: "official-extended", source: "000 §5.3", holes: 18 }),
    like(OFFICIAL, { preset: "official-jokers", source: "000 §5.4", values: values({}), jokers: 2 }),
    like(BASIC, { preset: "jokers-54", source: "004", jokers: 2, negative_matches: "zero",
      tiebreakers: ["countback", "sudden_death"] }),
    BASIC,
    like(BASIC, { preset: "harder", source: "001 scoring guide", values: values({ J: 11, Q: 12, K: 13 }) }),
    like(BASIC, { preset: "four-card", source: "001 part 2", cols: 2, match_lines: ["columns", "rows"], hole_end: "knock" }),
    like(BASIC, { preset: "eight-card", source: "001 part 4, 002", cols: 4, min_decks: 2 }),
    like(BASIC, { preset: "ten-card", source: "001 part 4", cols: 5, min_decks: 2 }),
    like(BASIC, { preset: "nine-card", source: "001 part 4, 002", rows: 3, cols: 3, face_up_at_start: 3,
      min_decks: 2, match_lines: ["columns", "rows"] }),
    like(BASIC, { preset: "anywhere-pairs", source: "001 part 4", match_lines: ["anywhere"] }),
  ].forEach(r => { PRESETS[r.preset] = r; });

  /** How a wrong value reads in a message (Python's _type_name). */
  function typeName(v) {
    if (v === null || v === undefined) return "null";
    if (typeof v === "boolean") return "true/false";
    if (typeof v === "number") return Math.abs(v) < 1e9 ? repr(v) : "a number";
    if (typeof v === "string") return '"' + v + '"';
    return Array.isArray(v) ? "a list" : "an object";
  }
  function Checker(base) { this.base = base; this.problems = []; }
  Checker.prototype.fail = function (name, message) { this.problems.push(P("ruleset." + name, message)); };
  Checker.prototype.integer = function (name, v, low, high, nullable) {
    if (v === null && nullable) return null;
    if (!isInt(v)) {
      this.fail(name, name + " must be a whole number" + (nullable ? " or null" : "") + ", not " + typeName(v) + ".");
      return this.base[name];
    }
    if (v < low || v > high) { this.fail(name, name + " must be between " + low + " and " + high + "; got " + v + "."); return this.base[name]; }
    return v;
  };
  Checker.prototype.boolean = function (name, v) {
    if (typeof v !== "boolean") { this.fail(name, name + " must be true or false, not " + typeName(v) + "."); return this.base[name]; }
    return v;
  };
  Checker.prototype.choice = function (name, v, choices) {
    if (typeof v !== "string" || choices.indexOf(v) < 0) {
      this.fail(name, name + " must be one of " + choices.map(c => '"' + c + '"').join(", ") + "; got " + typeName(v) + ".");
      return this.base[name];
    }
    return v;
  };
  Checker.prototype.decks = function (v) {
    if (v === "auto") return v;
    if (!isInt(v) || v < 1 || v > MAX_DECKS) {
      this.fail("decks", "decks must be a whole number from 1 to " + MAX_DECKS + ' or "auto"; got ' + typeName(v) + ".");
      return this.base.decks;
    }
    return v;
  };
  Checker.prototype.jokers = function (v) {
    if (!isInt(v) || (v !== 0 && v !== 2)) { this.fail("jokers", "jokers must be 0 or 2 (jokers per pack); got " + typeName(v) + "."); return this.base.jokers; }
    return v;
  };
  Checker.prototype.values = function (v) {
    if (!isObj(v)) { this.fail("values", "values must be an object of rank → points, not " + typeName(v) + "."); return this.base.values; }
    var merged = Object.assign({}, this.base.values), self = this;
    Object.keys(v).forEach(key => {
      var points = v[key], alias = strip(key).toUpperCase(), rank = own(RANK_ALIAS, alias) ? RANK_ALIAS[alias] : null;
      if (rank === null) return self.fail("values." + key, '"' + key + '" in values is not a rank: use A, 2-10, J, Q, K or X (the joker).');
      if (!isInt(points)) return self.fail("values." + rank, "The value of " + rank + " must be a whole number, not " + typeName(points) + ".");
      if (points < -VALUE_LIMIT || points > VALUE_LIMIT) {
        return self.fail("values." + rank, "The value of " + rank + " must be between -" + VALUE_LIMIT + " and " + VALUE_LIMIT + "; got " + points + ".");
      }
      merged[rank] = points;
    });
    return values(merged);
  };
  Checker.prototype.knownWords = function (where, items, allowed, unknown, repeated, repeatsAllowed) {
    var known = [], self = this;
    items.forEach(item => {
      if (typeof item !== "string" || allowed.indexOf(item) < 0) self.fail(where, unknown.replace("{}", () => typeName(item)));
      else if (known.indexOf(item) >= 0) { if (!repeatsAllowed) self.fail(where, repeated.replace("{}", () => item)); } else known.push(item);
    });
    return known;
  };
  Checker.prototype.match_lines = function (v) {
    var items = typeof v === "string" ? [v] : v;
    if (!Array.isArray(items)) { this.fail("match_lines", "match_lines must be a list of line kinds, not " + typeName(v) + "."); return this.base.match_lines; }
    var lines = this.knownWords("match_lines", items, MATCH_LINES, 'Unknown match line {}: use "columns", "rows", "diagonals" or "anywhere".', "", true);
    if (lines.indexOf("anywhere") >= 0 && lines.length > 1) {
      this.fail("match_lines", '"anywhere" already covers every line: it cannot be combined with others.');
      return this.base.match_lines;
    }
    return MATCH_LINES.filter(l => lines.indexOf(l) >= 0);
  };
  Checker.prototype.block = function (v) {
    if (v === null) return null;
    if (!isObj(v)) {
      this.fail("four_of_a_kind_block", 'four_of_a_kind_block must be null or {"points": N, "others_add": N}, not ' + typeName(v) + ".");
      return this.base.four_of_a_kind_block;
    }
    var ok = true, numbers = {}, self = this;
    Object.keys(v).forEach(key => {
      if (key !== "points" && key !== "others_add") { self.fail("four_of_a_kind_block." + key, 'Unknown key "' + key + '": use "points" and "others_add".'); ok = false; }
    });
    ["points", "others_add"].forEach(key => {
      var n = own(v, key) ? v[key] : null;
      if (!isInt(n) || n < -VALUE_LIMIT || n > VALUE_LIMIT) {
        self.fail("four_of_a_kind_block." + key, "four_of_a_kind_block." + key + " must be a whole number from -" + VALUE_LIMIT + " to " + VALUE_LIMIT + "; got " + typeName(n) + ".");
        ok = false;
      } else numbers[key] = n;
    });
    return ok ? { points: numbers.points, others_add: numbers.others_add } : this.base.four_of_a_kind_block;
  };
  Checker.prototype.ender = function (v) {
    if (v === null) return null;
    var shapes = 'null, {"kind": "fixed", "points": N} or {"kind": "lowest_score"}', self = this;
    if (!isObj(v)) { this.fail("ender_penalty", "ender_penalty must be " + shapes + ", not " + typeName(v) + "."); return this.base.ender_penalty; }
    var kind = own(v, "kind") ? v.kind : null;
    if (kind !== "fixed" && kind !== "lowest_score") {
      this.fail("ender_penalty.kind", 'ender_penalty.kind must be "fixed" or "lowest_score"; got ' + typeName(kind) + ".");
      return this.base.ender_penalty;
    }
    var extra = Object.keys(v).filter(k => k !== "kind" && k !== "points");
    extra.forEach(k => { self.fail("ender_penalty." + k, 'Unknown key "' + k + '" in ender_penalty: use ' + shapes + "."); });
    var points = own(v, "points") ? v.points : null;
    if (kind === "fixed") {
      if (!isInt(points) || points < 0 || points > VALUE_LIMIT) {
        this.fail("ender_penalty.points", "A fixed ender penalty needs points, a whole number from 0 to " + VALUE_LIMIT + "; got " + typeName(points) + ".");
        return this.base.ender_penalty;
      }
      return extra.length ? null : { kind: "fixed", points: points };
    }
    if (points !== null) {
      this.fail("ender_penalty.points", "A lowest_score ender penalty takes no points: it adds the lowest score.");
      return this.base.ender_penalty;
    }
    return extra.length ? null : { kind: "lowest_score" };
  };
  Checker.prototype.tiebreakers = function (v) {
    if (!Array.isArray(v)) { this.fail("tiebreakers", "tiebreakers must be a list, not " + typeName(v) + "."); return this.base.tiebreakers; }
    return this.knownWords("tiebreakers", v, TIEBREAKERS,
      'Unknown tiebreaker {}: use "countback", "most_holes_won", "sudden_death" or "shared".', 'Tiebreaker "{}" is listed twice.', false);
  };
  var LIMITS = { rows: [2, 3], cols: [2, 5], face_up_at_start: [0, 9], min_decks: [1, MAX_DECKS], holes: [1, 99, true], target_score: [1, 10000, true] };
  function check(checker, name, v) {
    if (own(LIMITS, name)) return checker.integer(name, v, LIMITS[name][0], LIMITS[name][1], LIMITS[name][2]);
    if (name === "negative_matches") return checker.choice(name, v, NEGATIVE_MATCHES);
    if (name === "hole_end") return checker.choice(name, v, HOLE_ENDS);
    if (name === "jokers_wild" || name === "ender_penalty_on_tie") return checker.boolean(name, v);
    if (name === "four_of_a_kind_block") return checker.block(v);
    if (name === "ender_penalty") return checker.ender(v);
    return checker[name](v);
  }
  var same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
  function canonical(v) {
    if (!isObj(v)) return Array.isArray(v) ? v.map(canonical) : v;
    var out = {};
    Object.keys(v).sort().forEach(k => { put(out, k, canonical(v[k])); });
    return out;
  }
  function apply(base, overrides) {
    var checker = new Checker(base), changes = {};
    Object.keys(overrides).forEach(name => {
      if (name === "source" || name === "overrides") return;
      if (SETTABLE.indexOf(name) < 0) {
        checker.problems.push(P("ruleset." + name, 'Unknown ruleset parameter "' + name + '". Known parameters: ' + SETTABLE.join(", ") + "."));
        return;
      }
      changes[name] = check(checker, name, overrides[name]);
    });
    var result = like(base, changes);
    checkCombination(result, changes, checker);
    if (checker.problems.length) fail(checker.problems, "RulesetError");
    result.overrides = SETTABLE.filter(name => !same(result[name], base[name]));
    return result;
  }
  function checkCombination(rs, changes, checker) {
    var shape = rs.rows + "x" + rs.cols;
    if (SHAPES.indexOf(shape) < 0) {
      checker.fail(own(changes, "cols") ? "cols" : "rows", "Grid shape " + shape + " is not supported: use 2x2, 2x3, 2x4, 2x5 or 3x3 (rows x columns).");
      return;
    }
    if (rs.match_lines.indexOf("diagonals") >= 0 && shape !== "2x2" && shape !== "3x3") {
      checker.fail("match_lines", "Diagonal matches exist only on 2x2 and 3x3 grids, not on " + shape + ".");
    }
    if (rs.four_of_a_kind_block !== null && rs.rows !== 2) {
      checker.fail("four_of_a_kind_block", "A four-of-a-kind block fills two columns of a 2-row grid: not on 3x3.");
    }
    if (rs.face_up_at_start > rs.rows * rs.cols) {
      checker.fail("face_up_at_start", "face_up_at_start (" + rs.face_up_at_start + ") is more than the " + rs.rows * rs.cols + " cards of a " + shape + " grid.");
    }
  }
  function preset(name, where) {
    var found = PRESETS[name.toLowerCase()];
    if (!own(PRESETS, name.toLowerCase())) fail([P(where, 'Unknown ruleset preset "' + name + '". Presets: ' + Object.keys(PRESETS).join(", ") + ".")], "RulesetError");
    return found;
  }
  function resolveSpec(spec) {
    if (typeof spec === "string") return preset(strip(spec), "ruleset");
    if (!isObj(spec)) fail([P("ruleset", 'A ruleset is a preset name or an object {"preset": ...}, not ' + typeName(spec) + ".")], "RulesetError");
    var name = own(spec, "preset") ? spec.preset : "official";
    if (typeof name !== "string") fail([P("ruleset.preset", "preset must be a preset name, not " + typeName(name) + ".")], "RulesetError");
    var base = preset(strip(name), "ruleset.preset"), overrides = {};
    Object.keys(spec).forEach(k => { if (k !== "preset") put(overrides, k, spec[k]); });
    return Object.keys(overrides).length ? apply(base, overrides) : base;
  }
  var specs = new Map(), engines = new Map();
  /** The resolved ruleset's compiled engine (with its score ranges), memoised by the spec's JSON and
   * by the resolved ruleset's, so that a preset's name and its to_dict() share one engine. */
  function compiled(spec) {
    var key = JSON.stringify(spec), found = specs.get(key);
    if (found) return found;
    var rs = resolveSpec(spec), rsKey = JSON.stringify(canonical(rs));
    found = engines.get(rsKey);
    if (!found) {
      if (engines.size >= 512) engines.clear();
      found = new Engine(rs);
      engines.set(rsKey, found);
    }
    if (specs.size >= 2048) specs.clear();
    specs.set(key, found);
    return found;
  }
  var copy = v => JSON.parse(JSON.stringify(v));
  /** A preset name, {"preset", ...overrides} or a resolved ruleset -> the resolved ruleset (to_dict). */
  function resolveRuleset(spec) { return copy(compiled(spec).rs); }
  function decksFor(rs, players) {
    return typeof rs.decks === "number" ? rs.decks : Math.max(rs.min_decks, Math.floor(Math.max(players, 0) / 4) + 1);
  }

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

  // --- matches: dealing, match end, tiebreaks -------------------------------------------------------
  function checkSeats(firstDealer, holeNumber, players) {
    var problems = [];
    if (!isInt(players) || players < 1) problems.push(P("players", "A match needs at least one player."));
    else if (!isInt(firstDealer) || firstDealer < 0 || firstDealer >= players) problems.push(P("first_dealer", "The first dealer must be a seat from 0 to " + (players - 1) + "."));
    if (!isInt(holeNumber) || holeNumber < 1) problems.push(P("hole_number", "Holes are numbered from 1."));
    if (problems.length) fail(problems, "RulesError");
  }
  var mod = (a, n) => ((a % n) + n) % n;
  /** The seat (0-based, clockwise) dealing hole `holeNumber` (1-based): the deal passes clockwise. */
  function dealerForHole(playerCount, firstDealer, holeNumber) {
    checkSeats(firstDealer, holeNumber, playerCount);
    return mod(firstDealer + holeNumber - 1, playerCount);
  }
  /** The seat playing first in the hole: the dealer's left. */
  function firstPlayerForHole(playerCount, firstDealer, holeNumber) {
    return mod(dealerForHole(playerCount, firstDealer, holeNumber) + 1, playerCount);
  }
  /** [over, reason]: the holes are played, or someone reached the target score. */
  function matchOver(ruleset, holesPlayed, totals) {
    var rs = compiled(ruleset).rs;
    if (rs.target_score !== null) {
      var reached = sortBy(Object.keys(totals).filter(n => totals[n] >= rs.target_score), n => n);
      if (reached.length) {
        return [true, reached.map(n => n + " (" + totals[n] + ")").join(" and ") + " " + (reached.length > 1 ? "reach" : "reaches") + " the target score of " + rs.target_score + " (seed 001)."];
      }
    }
    if (rs.holes !== null) {
      if (holesPlayed >= rs.holes) return [true, "All " + rs.holes + " holes are played (" + cite("2.5") + ")."];
      var left = rs.holes - holesPlayed;
      return [false, left + " " + plural(left, "hole") + " to play."];
    }
    if (rs.target_score !== null) return [false, "The match ends after a hole in which anyone reaches " + rs.target_score + "."];
    return [false, "The match has no set length: it ends when the players decide."];
  }
  var joined = names => names.length === 1 ? names[0] : names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
  /** Split a group by ascending key, keeping the order within a part. */
  function splitByKey(group, key) {
    var parts = [];
    sortBy(group, key).forEach(name => {
      var last = parts[parts.length - 1];
      if (last && cmp(key(last[0]), key(name)) === 0) last.push(name); else parts.push([name]);
    });
    return parts;
  }
  function lowScorers(scores) {
    var names = Object.keys(scores);
    if (!names.length) return [];
    var lowest = Math.min.apply(null, names.map(n => scores[n]));
    return names.filter(n => scores[n] === lowest);
  }
  var step = (method, players, values, decided, explanation) => {
    var shown = {};
    values.forEach(v => { put(shown, v[0], v[1]); });
    return { method: method, players: players, values: shown, decided: decided, explanation: explanation };
  };
  function keySplit(name, group, data, key, column, describe) {
    var values = group.map(n => [n, column(n)]), parts = splitByKey(group, key);
    var text = describe(joined(group), values), decided = parts[0].length === 1;
    if (decided) text += ": " + parts[0][0] + " ranks ahead";
    else if (parts.length === 1) text += ": still level";
    else text += ": " + joined(parts[0]) + " stay level ahead";
    return { parts: parts, step: step(name, group, values, decided, text + " (" + cite("4.2") + ")."), holds: "" };
  }
  var countbackKey = (data, n) => { return sortBy((data.regular[n] || []).slice(), s => s); };
  var METRICS = {
    countback: { firstOnly: false, split: (group, data) => {
      var key = n => countbackKey(data, n);
      return keySplit("countback", group, data, key, n => key(n).join(", "), (names, values) => {
        return names + " tie; countback compares their hole scores from the lowest (" + values.map(v => v[0] + ": " + v[1]).join("; ") + ")";
      });
    } },
    most_holes_won: { firstOnly: false, split: (group, data) => {
      var won = n => data.won[n] || 0;
      return keySplit("most_holes_won", group, data, n => -won(n), n => String(won(n)), (names, values) => {
        return names + " tie; most holes won (" + values.map(v => v[0] + " " + v[1]).join(", ") + ")";
      });
    } },
    sudden_death: { firstOnly: true, split: (group, data) => {
      var common = data.playoff.filter(h => { return group.every(n => own(h.scores, n)); });
      var winner = null, played = common.length;
      for (var i = 0; i < common.length; i++) {
        var scores = {};
        group.forEach(n => { put(scores, n, common[i].scores[n]); });
        var lows = lowScorers(scores);
        if (lows.length === 1) { winner = lows[0]; played = i + 1; break; }
      }
      var values = group.map(n => { return [n, common.slice(0, played).map(h => String(h.scores[n])).join(", ")]; });
      var names = joined(group);
      if (winner === null) {
        var shown = played ? " (" + values.map(v => v[0] + ": " + v[1]).join("; ") + ")" : "";
        return { parts: [group], holds: "playoff", step: step("sudden_death", group, values, false, names + " tie; sudden death: no playoff hole has a single lowest score yet" + shown + " (" + cite("4.2") + ").") };
      }
      return { parts: [[winner], group.filter(n => n !== winner)], holds: "",
        step: step("sudden_death", group, values, true, names + " tie; sudden death: " + winner + " scores lowest on playoff hole " + played + " (" + cite("4.2") + ").") };
    } },
    shared: { firstOnly: true, split: (group, data, first) => {
      return { parts: [group], holds: "shared", step: step("shared", group, [], true, joined(group) + " tie and share " + (first ? "the victory" : "their place") + " (" + cite("4.2") + ").") };
    } },
  };
  function settle(state, group, methods, first) {
    if (group.length === 1 || !methods.length) return [group];
    var metric = METRICS[methods[0]], rest = methods.slice(1);
    if (metric.firstOnly && !first) return settle(state, group, rest, first);
    var result = metric.split(group, state.data, first);
    state.steps.push(result.step);
    if (result.holds) { state.held[JSON.stringify(group)] = result.holds; return [group]; }
    var settled = [];
    result.parts.forEach((part, i) => { settled = settled.concat(settle(state, part, rest, first && i === 0)); });
    return settled;
  }
  function holesFromSequences(names, holeScores, playoffScores) {
    var holes = [];
    [[false, holeScores, names], [true, playoffScores || {}, Object.keys(playoffScores || {})]].forEach(pair => {
      var byPlayer = pair[1], names = pair[2];
      var n = Math.max.apply(null, [0].concat(names.map(k => byPlayer[k].length)));
      for (var i = 0; i < n; i++) {
        var scores = {};
        names.forEach(k => { if (i < byPlayer[k].length) put(scores, k, byPlayer[k][i]); });
        holes.push({ number: i + 1, scores: scores, playoff: pair[0] });
      }
    });
    return holes;
  }
  function holesWon(holes, players) {
    var won = {};
    players.forEach(n => { put(won, n, 0); });
    holes.forEach(h => { if (!h.playoff) lowScorers(h.scores).forEach(n => { put(won, n, (own(won, n) ? won[n] : 0) + 1); }); });
    return won;
  }
  function sumTotals(players, holes, penalties) {
    var points = new Map(), played = new Map(), playoff = new Map(), pen = penalties || {};
    var init = (m, n) => { if (!m.has(n)) m.set(n, 0); };
    players.forEach(n => { points.set(n, 0); played.set(n, 0); playoff.set(n, 0); });
    holes.forEach(h => {
      Object.keys(h.scores).forEach(n => {
        var s = h.scores[n];
        if (h.playoff) { init(points, n); init(played, n); playoff.set(n, (playoff.get(n) || 0) + s); } else {
          points.set(n, (points.get(n) || 0) + s); played.set(n, (played.get(n) || 0) + 1); init(playoff, n);
        }
      });
    });
    Object.keys(pen).forEach(n => { init(points, n); init(played, n); init(playoff, n); });
    var out = new Map();
    points.forEach((p, n) => {
      var extra = own(pen, n) ? pen[n] : 0;
      out.set(n, { total: p + extra, holes_played: played.get(n), playoff_total: playoff.get(n), penalty_points: extra, hole_points: p });
    });
    return out;
  }
  function validateRanking(holeScores, tiebreakers, playoffScores, penalties) {
    var problems = [], whole = list => list.every(isInt);
    if (!Object.keys(holeScores).length) problems.push(P("hole_scores", "Standings need at least one player."));
    Object.keys(holeScores).forEach(n => { if (!whole(holeScores[n])) problems.push(P("hole_scores." + n, n + "'s hole scores must be whole numbers.")); });
    tiebreakers.forEach(m => { if (!own(METRICS, m)) problems.push(P("tiebreakers", 'Unknown tiebreaker "' + str(m) + '".')); });
    Object.keys(playoffScores || {}).forEach(n => {
      if (!own(holeScores, n)) problems.push(P("playoff_scores." + n, '"' + n + '" is not a player of this match.'));
      else if (!whole(playoffScores[n])) problems.push(P("playoff_scores." + n, n + "'s playoff scores must be whole numbers."));
    });
    Object.keys(penalties || {}).forEach(n => {
      if (!own(holeScores, n)) problems.push(P("penalties." + n, '"' + n + '" is not a player here.'));
      else if (!isInt(penalties[n])) problems.push(P("penalties." + n, n + "'s penalty points must be a whole number."));
    });
    if (problems.length) fail(problems, "RulesError");
  }
  /** Rank the field by total, ties broken by the tiebreakers in order (MatchOutcome.to_dict()). */
  function rankPlayers(holeScores, tiebreakers, playoffScores, penalties) {
    return rankNamed(Object.keys(holeScores), holeScores, tiebreakers, playoffScores, penalties);
  }
  // `names`: the players in seat order (a JS object puts names such as "12" first, Python does not).
  function rankNamed(names, holeScores, tiebreakers, playoffScores, penalties) {
    validateRanking(holeScores, tiebreakers, playoffScores, penalties);
    var holes = holesFromSequences(names, holeScores, playoffScores), sums = sumTotals(names, holes, penalties), totals = {};
    names.forEach(n => { put(totals, n, sums.get(n).total); });
    var regular = {};
    names.forEach(n => { put(regular, n, []); });
    holes.forEach(h => { if (!h.playoff) Object.keys(h.scores).forEach(n => { (own(regular, n) ? regular[n] : put(regular, n, [])).push(h.scores[n]); }); });
    var playoff = sortBy(holes.filter(h => h.playoff), h => [h.number, ""]);
    var state = { data: { regular: regular, won: holesWon(holes, names), playoff: playoff }, steps: [], held: {} };
    var total = n => totals[n];
    var explanation = ["Totals, lowest wins (rule 2.5): " + sortBy(names, total).map(n => n + " " + totals[n]).join(", ") + "."];
    var order = [];
    splitByKey(names, total).forEach((group, place) => {
      var before = state.steps.length;
      order = order.concat(settle(state, group, tiebreakers, place === 0));
      state.steps.slice(before).forEach(s => { explanation.push(s.explanation); });
    });
    var leaders = order[0], held = state.held[JSON.stringify(leaders)], status;
    if (held === "shared") status = "shared";
    else if (held === "playoff") status = "sudden_death";
    else status = leaders.length === 1 ? "won" : "tied";
    var winners = status === "won" || status === "shared" ? leaders : [];
    var contenders = status === "sudden_death" || status === "tied" ? leaders : [];
    if (status === "won") explanation.push(joined(winners) + " wins.");
    else if (status === "shared") explanation.push(joined(winners) + " share the victory (" + cite("4.2") + ").");
    else if (status === "sudden_death") explanation.push(joined(contenders) + " play sudden-death holes until one scores lowest (" + cite("4.2") + ").");
    else explanation.push(joined(contenders) + " remain tied: no tiebreaker separates them.");
    return { order: order, totals: totals, winners: winners.slice(), status: status, contenders: contenders.slice(), steps: state.steps, explanation: explanation };
  }

  // --- the match state ------------------------------------------------------------------------------
  function scoresByPlayer(names, holes) {
    var byNumber = sortBy(holes, h => h.number), out = {};
    names.forEach(n => { put(out, n, byNumber.filter(h => own(h.scores, n)).map(h => h.scores[n])); });
    return out;
  }
  var holeOf = (h, playoff) => { return { number: h.number, scores: h.scores, playoff: playoff || !!h.playoff }; };
  /** compute_match_state, plus what the scoreboard derives from it (see the interface above). */
  function matchState(ruleset, players, holes, firstDealer, options) {
    options = options || {};
    var rs = compiled(ruleset).rs, names = players.slice();
    var recorded = (holes || []).map(h => holeOf(h, false)).concat((options.playoffHoles || []).map(h => holeOf(h, true)));
    var regular = recorded.filter(h => !h.playoff), playoff = recorded.filter(h => h.playoff);
    var sums = sumTotals(names, recorded), totals = {}, playerTotals = {};
    names.forEach(n => { put(totals, n, sums.get(n).total); put(playerTotals, n, sums.get(n)); });
    var holeScores = scoresByPlayer(names, regular), playoffScores = {}, byPlayoff = scoresByPlayer(names, playoff);
    names.forEach(n => { if (byPlayoff[n].length) put(playoffScores, n, byPlayoff[n]); });
    var numbers = list => { return new Set(list.map(h => h.number)).size; };
    var regularCount = numbers(regular), ended = matchOver(rs, regularCount, totals), over = ended[0], reason = ended[1];
    var early = !!options.endedEarly && !over && regularCount > 0;
    if (early) {
      over = true;
      reason = "The players ended the match early, after hole " + regularCount + (rs.holes !== null ? " of " + rs.holes : "") + ": the holes played decide it (project decision).";
    }
    var outcome = null, status = "in_progress", winners = [], contenders = [];
    if (over && names.length) {
      outcome = rankNamed(names, holeScores, rs.tiebreakers, Object.keys(playoffScores).length ? playoffScores : null);
      if (outcome.status === "sudden_death") { status = "sudden_death"; contenders = outcome.contenders.slice(); } else {
        status = "finished";
        winners = outcome.winners.length ? outcome.winners.slice() : (outcome.order[0] || []).slice();
      }
    }
    var stale = false;
    if (playoff.length) {
      var first = Math.min.apply(null, playoff.map(h => h.number)), playedFirst = new Set(), tied = new Set();
      playoff.forEach(h => { if (h.number === first) Object.keys(h.scores).forEach(n => { playedFirst.add(n); }); });
      if (over && names.length) {
        var regularOnly = rankNamed(names, holeScores, rs.tiebreakers, null);
        if (regularOnly.status === "sudden_death") regularOnly.contenders.forEach(n => { tied.add(n); });
      }
      stale = playedFirst.size !== tied.size || Array.from(tied).some(n => !playedFirst.has(n));
    }
    var state = { totals: totals, player_totals: playerTotals, regular_holes: regularCount, playoff_holes: numbers(playoff), match_over: over, reason: reason,
      outcome: outcome, status: status, winners: winners, contenders: contenders, hole_scores: holeScores, playoff_scores: playoffScores, playoff_stale: stale, ended_early: early };
    return scoreboardParts(state, rs, names, recorded, firstDealer);
  }
  function scoreboardParts(state, rs, names, recorded, firstDealer) {
    var played = state.regular_holes > 0, totals = state.totals, values = names.map(n => totals[n]);
    var best = values.length && played ? Math.min.apply(null, values) : null, ranks = {};
    state.leaders = names.filter(n => best !== null && totals[n] === best);
    if (state.outcome) {
      var place = 1;
      state.outcome.order.forEach(group => { group.forEach(n => { put(ranks, n, place); }); place += group.length; });
    } else names.forEach(n => { put(ranks, n, 1 + values.filter(v => v < totals[n]).length); });
    state.ranks = {};
    names.forEach(n => { put(state.ranks, n, played ? ranks[n] : 1); });
    state.cumulative = {};
    names.forEach(n => { var run = 0; put(state.cumulative, n, state.hole_scores[n].map(s => (run += s))); });
    state.holes_won = holesWon(recorded, names);
    state.shared_victory = state.status === "finished" && state.winners.length > 1;
    state.holes_left = rs.holes ? Math.max(rs.holes - state.regular_holes, 0) : null;
    var count = names.length, deal = isInt(firstDealer) && count > 0;
    var seatsFor = number => {
      return deal ? { dealer_seat: dealerForHole(count, firstDealer, number), first_player_seat: firstPlayerForHole(count, firstDealer, number) } : { dealer_seat: null, first_player_seat: null };
    };
    state.holes = sortBy(recorded, h => [h.playoff ? 1 : 0, h.number]).map(h => {
      var low = lowScorers(h.scores);
      return Object.assign({ number: h.number, playoff: h.playoff, low: names.filter(n => low.indexOf(n) >= 0) }, seatsFor(h.playoff ? state.regular_holes + h.number : h.number));
    });
    state.next_hole = null;
    if (count && (state.contenders.length || !state.match_over)) {
      var playoff = state.contenders.length > 0, number = playoff ? state.playoff_holes + 1 : state.regular_holes + 1;
      var seats = seatsFor(playoff ? state.regular_holes + number : number);
      state.next_hole = { number: number, is_playoff: playoff, dealer_seat: seats.dealer_seat, dealer: deal ? names[seats.dealer_seat] : null,
        first_player_seat: seats.first_player_seat, first_player: deal ? names[seats.first_player_seat] : null,
        players: playoff ? names.filter(n => state.contenders.indexOf(n) >= 0) : names.slice() };
    }
    return state;
  }

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
  if (typeof module !== "undefined" && module.exports) module.exports = GolfEngine;
})(typeof self !== "undefined" ? self : this);
