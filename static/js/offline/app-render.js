// The offline app's pages as HTML (issue 32), pure: the scoreboard, the banner of what is still on
// the phone, a conflict drawn beside the server's version, and the list of this phone's games. The
// markup and classes are the online pages' (templates/scoring/game_detail.html, game_outcome.html,
// game.css), the words the page's translated texts (`t(key, values)`). Tested by
// tests/js/offline-app-render.test.js.
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});

  function esc(value) {
    return String(value == null ? "" : value).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  /** A score with a true minus sign, as the online pages show it (the `minus` filter). */
  function minus(n) { return typeof n === "number" && n < 0 ? "\u2212" + String(-n) : String(n); }

  /** The words of the banner: what has not reached the server yet, or "All sent.". */
  function bannerText(summary, t) {
    if (!summary.writes) return t("all_sent");
    var parts = [];
    if (summary.holes) parts.push(t(summary.holes === 1 ? "holes_unsent_one" : "holes_unsent_many", { n: summary.holes }));
    else parts.push(t(summary.writes === 1 ? "writes_unsent_one" : "writes_unsent_many", { n: summary.writes }));
    parts.push(t(summary.serverFailing ? "server_retrying" : "sent_when_back"));
    if (summary.conflicts) parts.push(t(summary.conflicts === 1 ? "conflicts_one" : "conflicts_many", { n: summary.conflicts }));
    return parts.join(" ");
  }

  /** The plain banner of a game's pages. */
  function banner(summary, t) {
    var state = summary.writes ? "waiting" : "sent";
    return '<p class="message offline-banner" data-offline-banner="' + state + '" role="status">' + esc(bannerText(summary, t)) + "</p>";
  }

  var STATE_KEYS = { sent: "state_sent", waiting: "state_waiting", sending: "state_waiting", conflict: "state_conflict" };
  var STATE_MARKS = { sent: "\u2713", waiting: "\u23f3", sending: "\u23f3", conflict: "\u26a0" };

  /** Where a hole is, as the page says it: a write being sent is still on the phone until answered. */
  function holeState(hole) {
    if (hole.conflict) return "conflict";
    return hole.state === "sending" ? "waiting" : hole.state;
  }

  function headRow(view, t) {
    var cells = view.holes.map(function (hole) {
      var label = t("hole_correct", { n: hole.number });
      var link = view.canEdit ? '<a href="' + esc(view.href("holes/" + hole.number + "/")) + '" aria-label="' + esc(label) + '">' + hole.number + "</a>" : String(hole.number);
      return '<th scope="col">' + link + "</th>";
    }).join("");
    return "<thead><tr><th scope=\"col\">" + esc(t("player")) + "</th>" + cells + '<th scope="col" class="total">' + esc(t("total")) + "</th></tr></thead>";
  }

  function playerRow(view, name) {
    var cells = view.holes.map(function (hole) {
      var score = hole.scores ? hole.scores[name] : undefined;
      if (typeof score !== "number") return "<td>\u2013</td>";
      var classes = [hole.low === score ? "best" : "", hole.typed && hole.typed[name] ? "typed" : ""].filter(Boolean).join(" ");
      return '<td class="' + classes + '">' + (hole.typed && hole.typed[name] ? "<em>" + minus(score) + "</em>" : minus(score)) + "</td>";
    }).join("");
    var lead = view.match.over ? view.match.winners.indexOf(name) >= 0 : view.leaders.indexOf(name) >= 0;
    return '<tr class="' + (lead ? "leader" : "") + '"><th scope="row" title="' + esc(name) + '">' + esc(name) + "</th>" + cells +
      '<td class="total">' + minus(view.totals[name]) + "</td></tr>";
  }

  /** The rows under the players: who dealt each hole, who played first, and where it is. */
  function infoRows(view, t) {
    var dealers = view.holes.map(function (hole) { return '<td><span class="dealer-mark">' + esc(hole.dealer) + "</span></td>"; }).join("");
    var firsts = view.holes.map(function (hole) { return '<td><span class="dealer-mark">' + esc(hole.first) + "</span></td>"; }).join("");
    var states = view.holes.map(function (hole) {
      var state = holeState(hole);
      return '<td data-hole-state="' + state + '"><span aria-hidden="true">' + STATE_MARKS[state] + '</span><span class="visually-hidden">' + esc(t(STATE_KEYS[state])) + "</span></td>";
    }).join("");
    return '<tr class="dealer-row"><th scope="row">' + esc(t("dealer")) + "</th>" + dealers + "<td></td></tr>" +
      '<tr class="first-row"><th scope="row">' + esc(t("first_player")) + "</th>" + firsts + "<td></td></tr>" +
      '<tr class="state-row"><th scope="row">' + esc(t("where")) + "</th>" + states + "<td></td></tr>";
  }

  function scorecard(view, t) {
    var body = view.players.map(function (name) { return playerRow(view, name); }).join("");
    return '<h2 id="scorecard">' + esc(t("scorecard")) + "</h2>" +
      '<p class="hint">' + esc(view.holes.length ? t("lowest_wins") + " " + t("tap_hole_to_correct") : t("no_hole_yet")) + "</p>" +
      '<div class="scorecard-wrap" tabindex="0" role="region" aria-labelledby="scorecard"><table class="scorecard" data-offline-scorecard>' +
      '<caption class="visually-hidden">' + esc(t("scorecard_caption")) + "</caption>" + headRow(view, t) +
      "<tbody>" + body + (view.holes.length ? infoRows(view, t) : "") + "</tbody></table></div>" +
      (view.holes.length ? '<p class="hint">' + esc(t("legend") + " " + t("state_legend")) + "</p>" : "");
  }

  function runningTotals(view, t) {
    if (view.holes.length < 2) return "";
    var head = view.holes.map(function (h) { return '<th scope="col">' + h.number + "</th>"; }).join("");
    var rows = view.players.map(function (name) {
      return '<tr><th scope="row">' + esc(name) + "</th>" + view.cumulative[name].map(function (v) { return "<td>" + minus(v) + "</td>"; }).join("") + "</tr>";
    }).join("");
    // Below the fold on a phone: drawn only when scrolled near (game.css, .below-fold).
    return '<div class="below-fold"><h2 id="running-title">' + esc(t("running_totals")) + '</h2><div class="scorecard-wrap" tabindex="0" role="region" aria-labelledby="running-title">' +
      '<table class="scorecard" data-running-totals><thead><tr><th scope="col">' + esc(t("player")) + "</th>" + head + "</tr></thead><tbody>" + rows +
      '</tbody></table></div><p class="hint">' + esc(t("lower_is_better")) + "</p></div>";
  }

  /** The playoff holes (sudden death), apart from the scorecard as online. */
  function playoff(view, t) {
    if (!view.playoffHoles.length) return "";
    var head = view.playoffHoles.map(function (h) {
      var label = t("playoff_hole_correct", { n: h.number });
      return '<th scope="col" class="playoff-col"><a href="' + esc(view.href("playoff/" + h.number + "/")) + '" aria-label="' + esc(label) + '">' + esc(t("playoff_short", { n: h.number })) + "</a></th>";
    }).join("");
    var rows = view.players.filter(function (name) {
      return view.playoffHoles.some(function (h) { return h.scores && typeof h.scores[name] === "number"; });
    }).map(function (name) {
      return '<tr><th scope="row">' + esc(name) + "</th>" + view.playoffHoles.map(function (h) {
        var s = h.scores ? h.scores[name] : undefined;
        return '<td class="' + (s === h.low ? "best" : "") + '">' + (typeof s === "number" ? minus(s) : "\u2013") + "</td>";
      }).join("") + "</tr>";
    }).join("");
    return '<section class="playoff" aria-labelledby="playoff-title" data-offline-playoff><h2 id="playoff-title">' + esc(t("playoff_title")) + "</h2>" +
      '<p class="hint">' + esc(t("playoff_apart")) + '</p><div class="scorecard-wrap"><table class="scorecard"><thead><tr><th scope="col">' + esc(t("player")) + "</th>" +
      head + "</tr></thead><tbody>" + rows + "</tbody></table></div></section>";
  }

  /** The match's end as templates/scoring/game_outcome.html says it. */
  function outcome(view, t) {
    var m = view.match;
    if (!m.over) return "";
    var trophy = '<span aria-hidden="true">\ud83c\udfc6</span> ';
    var title;
    if (m.status === "sudden_death") title = esc(t("tie_for_first", { names: m.contenders.join(" & ") }));
    else if (m.shared) title = trophy + esc(t("shared_victory", { names: m.winners.join(" & ") }));
    else title = trophy + esc(t("wins", { name: m.winners[0] }));
    var html = '<section class="outcome" aria-labelledby="outcome-title" role="status" data-offline-outcome><h2 id="outcome-title">' + title + "</h2>";
    if (m.shared) html += "<p>" + esc(t("shared_explained")) + "</p>";
    if (m.status === "sudden_death") html += "<p>" + esc(t("sudden_death_explained")) + "</p>";
    if (m.reason) html += '<p class="hint">' + esc(m.reason) + "</p>";
    if (m.steps && m.steps.length) {
      html += "<h3>" + esc(t("how_tie_broken")) + "</h3><ol>" + m.steps.map(function (step) {
        return '<li class="step"><strong>' + esc(t("tiebreak_" + step.method) || step.method) + "</strong> \u2014 " +
          esc(step.decided ? t("decided") : t("still_level")) + (step.explanation ? '<p class="hint">' + esc(step.explanation) + "</p>" : "") + "</li>";
      }).join("") + "</ol>";
    }
    html += "<h3>" + esc(t("final_standings")) + "</h3><ol>" + (m.order || []).map(function (group) {
      return "<li>" + esc(group.join(" = ")) + ' <span class="muted">\u00b7 ' + minus(view.totals[group[0]]) + "</span></li>";
    }).join("") + "</ol></section>";
    return html;
  }

  /** The next hole's box (templates/scoring/_next_hole.html). */
  function nextHole(view, t) {
    var next = view.next;
    if (!next || !view.canEdit) return "";
    var title = next.playoff ? t("playoff_hole", { n: next.number }) : t("hole_n", { n: next.number }) + (view.holesTotal ? " " + t("of_total", { total: view.holesTotal }) : "");
    var who = next.playoff ? " \u00b7 " + t("only") + " " + next.players.join(", ") : "";
    var button = next.playoff ? t("score_playoff_hole", { n: next.number }) : t("score_hole", { n: next.number });
    return '<section class="next-hole" aria-labelledby="next-hole-title"><h2 id="next-hole-title" class="visually-hidden">' + esc(t("next_hole")) + "</h2>" +
      "<p><strong>" + esc(title) + "</strong>" + esc(who) + " \u00b7 " + esc(t("deals", { dealer: next.dealer })) + " \u00b7 " + esc(t("plays_first", { first: next.first })) + "</p>" +
      '<a class="button primary" data-offline-next href="' + esc(view.href((next.playoff ? "playoff" : "holes") + "/new/")) + '">' + esc(button) + "</a></section>";
  }

  /** The whole scoreboard page of a game. */
  function board(view, t) {
    var head = '<div class="game-head"><h1>' + esc(view.title) + "</h1>" +
      (view.shareHref ? '<a class="button" data-offline-share href="' + esc(view.shareHref) + '">' + esc(t("share")) + "</a>" : "") + "</div>" +
      '<p class="game-meta">' + esc(view.rulesetLabel) + "</p>" +
      (view.tableLabel ? '<p class="game-managed">' + esc(t("table_of", { label: view.tableLabel })) + "</p>" : "");
    var conflicts = view.holes.concat(view.playoffHoles).map(refusedHole).filter(Boolean)
      .map(function (h) { return conflictBox(h, view, t); }).join("") +
      (view.otherConflicts || []).map(function (w) { return writeConflictBox(w, t); }).join("");
    var leaders = view.leaders.length && !view.match.over && view.holes.length
      ? "<p>" + esc(t(view.leaders.length === 1 ? "leading" : "level_in_lead", { names: view.leaders.join(", ") })) + "</p>" : "";
    return head + banner(view.summary, t) + conflicts + '<div id="scoreboard" data-offline-board>' + outcome(view, t) +
      (view.confirmHref ? '<p><a class="button primary" href="' + esc(view.confirmHref) + '">' + esc(t("confirm_scorecard")) + "</a></p>" : "") +
      nextHole(view, t) + scorecard(view, t) + leaders + playoff(view, t) + runningTotals(view, t) + "</div>";
  }

  /** Each player's score of `hole`; where the rules cannot score it (a total the server's changed
   * rules refuse), the typed total as entered: the player must see what they are choosing about. */
  function scoresLine(hole, players) {
    return players.map(function (name) {
      var s = hole.scores ? hole.scores[name] : undefined;
      var typed = hole.entries ? hole.entries[name] : undefined;
      if (typeof s !== "number" && !hole.scores && typeof typed === "number") s = typed;
      return { name: name, score: typeof s === "number" ? minus(s) : "\u2013" };
    });
  }

  /** The hole whose refused write is to be shown, or null. A hole the server lacks (its link gone,
   * a total it refused) has no server version for the write to ride on: the server's side is empty,
   * and the player still chooses (without the box, nothing would let them). */
  function refusedHole(hole) {
    if (hole.conflict) return hole;
    if (hole.state !== "conflict") return null;
    return { number: hole.number, playoff: hole.playoff, scores: null, conflict: hole };
  }

  /** A refused write beside the server's version, in plain words, with the two choices. */
  function conflictBox(hole, view, t) {
    var mine = hole.conflict;
    var reason = conflictReason(mine.write, t);
    var rows = view.players.map(function (name, i) {
      var server = scoresLine(hole, view.players)[i].score;
      var phone = scoresLine(mine, view.players)[i].score;
      return '<tr><th scope="row">' + esc(name) + "</th><td>" + esc(phone) + "</td><td>" + esc(server) + "</td></tr>";
    }).join("");
    var title = hole.playoff ? t("playoff_hole", { n: hole.number }) : t("hole_n", { n: hole.number });
    return '<section class="form-errors offline-conflict" role="alert" data-conflict="' + esc(mine.key) + '"><h2>' + esc(t("conflict_title", { hole: title })) + "</h2>" +
      "<p>" + esc(reason.plain) + "</p>" + (reason.detail ? '<p class="hint">' + esc(t("server_said", { detail: reason.detail })) + "</p>" : "") + "<table><thead><tr><th scope=\"col\">" + esc(t("player")) + '</th><th scope="col">' + esc(t("on_this_phone")) + '</th><th scope="col">' + esc(t("on_the_server")) + "</th></tr></thead><tbody>" + rows + "</tbody></table>" +
      '<p class="hint">' + esc(t("conflict_choose")) + '</p><div class="big-actions">' +
      '<button type="button" class="button" data-resolve="keep-server" data-key="' + esc(mine.key) + '">' + esc(t("keep_server")) + "</button>" +
      '<button type="button" class="button primary" data-resolve="keep-mine" data-key="' + esc(mine.key) + '">' + esc(t("keep_mine")) + "</button></div></section>";
  }

  var WRITE_TITLES = { confirm: "confirm_scorecard", "create-game": "new_game" };

  function choices(key, t, mayDrop) {
    return '<p class="hint">' + esc(t("conflict_choose")) + '</p><div class="big-actions">' +
      (mayDrop ? '<button type="button" class="button" data-resolve="keep-server" data-key="' + esc(key) + '">' + esc(t("keep_server")) + "</button>" : "") +
      '<button type="button" class="button primary" data-resolve="keep-mine" data-key="' + esc(key) + '">' + esc(t("keep_mine_again")) + "</button></div>";
  }

  /** A refused write that is not a hole (a table's confirmation, the game's creation): what the
   * server said, and the same two choices. */
  function writeConflictBox(write, t) {
    var reason = conflictReason(write, t);
    return '<section class="form-errors offline-conflict" role="alert" data-conflict="' + esc(write.key) + '"><h2>' +
      esc(t("conflict_write_title", { what: t(WRITE_TITLES[write.kind] || "scoreboard") })) + "</h2><p>" + esc(reason.plain) + "</p>" +
      (reason.detail ? '<p class="hint">' + esc(t("server_said", { detail: reason.detail })) + "</p>" : "") +
      // The server has no version of a game it refused to create: there is nothing of its to keep.
      choices(write.key, t, write.kind !== "create-game") + "</section>";
  }

  /** What happened to a refused write, in plain words: GolfSync's code (`write.conflict.code`)
   * and the server's own words (`answer.body.detail`, already in the player's language). */
  function conflictReason(write, t) {
    var code = (write && write.conflict && write.conflict.code) || "";
    var answer = (write && (write.answer || write.lastError)) || {};
    var detail = answer.body && typeof answer.body.detail === "string" ? answer.body.detail : "";
    // The server names where the problem is ("round": the round is finalized or not open; "ruleset"):
    // that, not the words of its message (which are in the player's language), says which it is.
    var errors = answer.body && Array.isArray(answer.body.errors) ? answer.body.errors : [];
    var where = errors.length && typeof errors[0].where === "string" ? errors[0].where : "";
    var text = detail.toLowerCase();
    var key = "conflict_refused";
    if (code === "hole-saved-elsewhere" || code === "changed-elsewhere") key = "conflict_other_phone";
    else if (code === "link-not-found" || code === "not-allowed") key = "conflict_link";
    else if (where === "round" || text.indexOf("finaliz") >= 0) key = "conflict_finalized";
    else if (where.indexOf("ruleset") === 0 || text.indexOf("ruleset") >= 0) key = "conflict_ruleset";
    else if (answer.status === 409) key = "conflict_other_phone";
    var next = { conflict_finalized: "conflict_ask_director", conflict_link: "conflict_ask_link" }[key];
    return { plain: t(key) + (next ? " " + t(next) : ""), detail: detail };
  }

  /** This phone's games with writes still on it (for the home page and /offline/). */
  function gameList(items, t) {
    if (!items.length) return '<p class="hint" data-offline-games="none">' + esc(t("no_games_on_phone")) + "</p>";
    return '<ul class="game-list" data-offline-games>' + items.map(function (item) {
      var sub = bannerText(item.summary, t);
      return '<li><a href="' + esc(item.href) + '"><span class="title">' + esc(item.title) + '</span><span class="sub">' + esc(sub) + "</span></a></li>";
    }).join("") + "</ul>";
  }

  App.render = {
    esc: esc, minus: minus, banner: banner, bannerText: bannerText, board: board, outcome: outcome, scorecard: scorecard,
    conflictBox: conflictBox, conflictReason: conflictReason, gameList: gameList, nextHole: nextHole,
  };
  if (typeof module !== "undefined" && module.exports) module.exports = App.render;
})(typeof globalThis !== "undefined" ? globalThis : this);
