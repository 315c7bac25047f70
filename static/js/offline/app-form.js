// The offline app's forms (issue 32), pure: the hole form read into the API's hole body with the
// same refusals as the server's form (scoring/web/games/hole_forms.py), and the start form's names
// checked as golfclub/core/names.py checks them. Messages come from the page's translated texts
// (`t(key, values)`), never from here. Tested by tests/js/offline-app-form.test.js.
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});

  /** Each player's cards as the form holds them: rows of tokens ("" where empty). */
  function tokensOf(values, index, rows, cols) {
    var grid = [];
    for (var r = 1; r <= rows; r += 1) {
      var row = [];
      for (var c = 1; c <= cols; c += 1) row.push(String(values["p" + index + "-" + r + "-" + c] || "").trim());
      grid.push(row);
    }
    return grid;
  }

  function flat(grid) { return [].concat.apply([], grid); }

  /** A whole number typed in a field ("−3", "-3", "+4"), null when blank, NaN when not a number. */
  function wholeNumber(text) {
    var value = String(text == null ? "" : text).trim().replace(/\u2212/g, "-");
    if (value === "") return null;
    if (!/^[+-]?\d{1,6}$/.test(value)) return NaN;
    return parseInt(value, 10);
  }

  /** The hole form read: {entries: name -> grid or total, blocks, ender, errors: seat -> [messages],
   * partial: what can be previewed now (complete grids and typed totals)}.
   * `values`: input name -> value, the server's field names (p<seat>-<row>-<col>, p<seat>-total,
   * p<seat>-blocks, ender = seat index or ""). */
  function readHole(values, players, shape, t) {
    var result = { entries: {}, blocks: {}, ender: null, errors: {}, partial: {} };
    players.forEach(function (name, index) {
      var grid = tokensOf(values, index, shape.rows, shape.cols);
      var cards = flat(grid);
      var filled = cards.filter(Boolean).length;
      var total = wholeNumber(values["p" + index + "-total"]);
      var blocks = wholeNumber(values["p" + index + "-blocks"]);
      var say = function (key, extra) {
        (result.errors[index] = result.errors[index] || []).push(t(key, Object.assign({ name: name }, extra || {})));
      };
      if (Number.isNaN(total)) say("whole_number", { where: t("total_of", { name: name }), value: values["p" + index + "-total"] });
      else if (filled && total !== null) say("cards_or_total");
      else if (total !== null) { result.entries[name] = total; result.partial[name] = total; }
      else if (filled === cards.length) { result.entries[name] = grid; result.partial[name] = grid; }
      else if (filled) say("grid_missing", { where: missingCells(grid, t) });
      else say("grid_or_total");
      if (Number.isNaN(blocks) || (blocks !== null && blocks < 0)) say("whole_number", { where: t("blocks_of", { name: name }), value: values["p" + index + "-blocks"] });
      else if (blocks) result.blocks[name] = blocks;
    });
    var ender = String(values.ender == null ? "" : values.ender);
    if (ender !== "" && players[parseInt(ender, 10)] !== undefined) result.ender = players[parseInt(ender, 10)];
    return result;
  }

  function missingCells(grid, t) {
    var where = [];
    grid.forEach(function (row, r) {
      row.forEach(function (token, c) { if (!token) where.push(t("row_col", { row: r + 1, col: c + 1 })); });
    });
    return where.join(", ");
  }

  /** The API body of a hole (POST .../holes/ or PUT .../holes/<n>/): entries, ender, blocks, number. */
  function holeBody(read, number) {
    var body = { entries: read.entries, ender: read.ender };
    if (Object.keys(read.blocks).length) body.blocks_marked = read.blocks;
    if (number != null) body.number = number;
    return body;
  }

  /** Which player an engine problem is about: its `where` starts "grids.<name>" or "entries.<name>". */
  function problemOwner(problem, players) {
    var where = String(problem.where || "");
    for (var i = 0; i < players.length; i += 1) {
      var name = players[i];
      if (where === "grids." + name || where.indexOf("grids." + name + "[") === 0 ||
          where === "entries." + name || where.indexOf("entries." + name + "[") === 0) return i;
    }
    return null;
  }

  /** The engine's problems spread over the players: {bySeat: seat -> [messages], general: [...]}. */
  function spreadProblems(problems, players) {
    var out = { bySeat: {}, general: [] };
    (problems || []).forEach(function (problem) {
      var seat = problemOwner(problem, players);
      if (seat === null) out.general.push(problem.message);
      else (out.bySeat[seat] = out.bySeat[seat] || []).push(problem.message);
    });
    return out;
  }

  var INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]/g;

  /** A name as the server stores it: NFKC, invisible characters dropped, spaces collapsed. */
  function cleanName(raw) {
    return String(raw || "").replace(INVISIBLE, "").normalize("NFKC").split(/\s+/).filter(Boolean).join(" ");
  }

  /** Two names are one player when their keys are equal (case and width ignored). */
  function nameKey(name) {
    return cleanName(name).normalize("NFD").toLowerCase().normalize("NFKC").toLowerCase().normalize("NFKC");
  }

  /** The start page's check of the typed seats (blank ones skipped): {names, errors}. */
  function checkNames(raw, limits, t) {
    var names = [];
    var errors = [];
    var seen = {};
    raw.forEach(function (typed, i) {
      var seat = i + 1;
      var name = cleanName(typed);
      if (!name) {
        if (String(typed || "").trim()) errors.push(t("name_invisible", { seat: seat }));
        return;
      }
      if (name.length > limits.maxName) {
        errors.push(t("name_too_long", { seat: seat, limit: t("too_long_limit", { limit: limits.maxName, length: name.length }) }));
        return;
      }
      var key = nameKey(name);
      if (seen[key]) {
        errors.push(t("name_duplicate", { seat: seat, name: name, other: seen[key] }));
        return;
      }
      seen[key] = seat;
      names.push(name);
    });
    if (!errors.length && names.length < limits.min) errors.push(t("too_few", { min: limits.min }));
    if (names.length > limits.max) errors.push(t("too_many", { max: limits.max }));
    return { names: names, errors: errors };
  }

  /** The ruleset spec of the start form, as the online form makes it (start_forms.ruleset_spec). */
  function rulesetSpec(choice) {
    var overrides = {};
    if (choice.holes) overrides.holes = parseInt(choice.holes, 10);
    if (choice.target_score) overrides.target_score = parseInt(choice.target_score, 10);
    if (choice.ender_penalty === "none") overrides.ender_penalty = null;
    else if (choice.ender_penalty === "fixed-10") overrides.ender_penalty = { kind: "fixed", points: 10 };
    else if (choice.ender_penalty === "lowest") overrides.ender_penalty = { kind: "lowest_score" };
    return Object.keys(overrides).length ? Object.assign({ preset: choice.ruleset }, overrides) : choice.ruleset;
  }

  App.form = {
    tokensOf: tokensOf,
    wholeNumber: wholeNumber,
    readHole: readHole,
    holeBody: holeBody,
    spreadProblems: spreadProblems,
    cleanName: cleanName,
    nameKey: nameKey,
    checkNames: checkNames,
    rulesetSpec: rulesetSpec,
  };
  if (typeof module !== "undefined" && module.exports) module.exports = App.form;
})(typeof globalThis !== "undefined" ? globalThis : this);
