// The phone's rules engine, part 10 of 10: the match: who deals each hole, when the match is over,
// and the match state the scoreboard shows (scoring/rules/match.py, match_state.py). Loaded after
// tiebreak.js; golf-engine.js lists the load order and assembles GolfEngine.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  var parts = node ? require("./tiebreak.js") : root.GolfEngineParts;
  var { put, own, isInt, plural, sortBy, P, fail, compiled, cite, lowScorers, holesWon, sumTotals, rankNamed } = parts;

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

  Object.assign(parts, { dealerForHole, firstPlayerForHole, matchOver, matchState });
  parts.loaded.push("match");
  if (node) module.exports = parts;
})(typeof self !== "undefined" ? self : this);
