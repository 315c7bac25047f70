// The phone's rules engine, part 3 of 10: rulesets: the presets, the checks of every override and a
// spec resolved; each resolved ruleset compiled once (scoring/rules/presets.py, ruleset.py,
// resolve.py). Loaded after cards.js; golf-engine.js lists the load order and assembles GolfEngine.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  var parts = node ? require("./cards.js") : root.GolfEngineParts;
  var { put, own, isInt, isObj, strip, repr, P, fail, RANKS, RANK_ALIAS } = parts;

  var MAX_DECKS = 8, VALUE_LIMIT = 100;
  var MATCH_LINES = ["columns", "rows", "diagonals", "anywhere"];
  var NEGATIVE_MATCHES = ["keep", "zero"];
  var HOLE_ENDS = ["all_face_up", "knock", "either"];
  var TIEBREAKERS = ["countback", "most_holes_won", "sudden_death", "shared"];
  var SHAPES = ["2x2", "2x3", "2x4", "2x5", "3x3"];
  var SETTABLE = ["rows", "cols", "face_up_at_start", "decks", "min_decks", "jokers", "values",
    "match_lines", "negative_matches", "jokers_wild", "four_of_a_kind_block", "ender_penalty",
    "ender_penalty_on_tie", "hole_end", "holes", "target_score", "tiebreakers"];
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
      found = new parts.Engine(rs); // grid.js, loaded later: a ruleset is compiled at call time only
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

  Object.assign(parts, { values, PRESETS, compiled, copy, resolveRuleset, decksFor });
  parts.loaded.push("ruleset");
  if (node) module.exports = parts;
})(typeof self !== "undefined" ? self : this);
