// The phone's rules engine, part 9 of 10: standings and tiebreaks: players ranked by total, ties
// broken by countback, most holes won, sudden death or a shared victory, each step explained
// (scoring/rules/tiebreak.py, standings.py). Loaded after hole.js; golf-engine.js lists the load
// order and assembles GolfEngine.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  var parts = node ? require("./hole.js") : root.GolfEngineParts;
  var { put, own, isInt, cmp, sortBy, str, P, fail, cite } = parts;

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

  Object.assign(parts, { lowScorers, holesWon, sumTotals, rankPlayers, rankNamed });
  parts.loaded.push("tiebreak");
  if (node) module.exports = parts;
})(typeof self !== "undefined" ? self : this);
