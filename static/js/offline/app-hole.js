// The offline hole page as HTML (issue 32), pure: the same form as templates/scoring/game_hole.html
// (each player's grid for the card keypad of static/js/grid-entry.js, or a typed total and blocks
// marked by hand; who ended the hole) with the same field names, so one reader
// (GolfOfflineApp.form.readHole) serves this page and the online one. The live preview is drawn
// by `preview` from the engine's scores. Tested by tests/js/offline-app-render.test.js.
(function (root) {
  "use strict";

  var App = root.GolfOfflineApp || (root.GolfOfflineApp = {});

  // Escaping and the minus sign are the scoreboard's (app-render.js, loaded before this file).
  var render = App.render || (typeof module !== "undefined" ? require("./app-render.js") : null);
  var esc = render.esc;
  var minus = render.minus;

  /** One player's grid, as templates/scoring/_grid_entry.html#grid draws it. */
  function grid(index, name, shape, tokens, t) {
    var prefix = "p" + index;
    var label = t("cards_of", { name: name });
    var cols = "";
    for (var c = 1; c <= shape.cols; c += 1) cols += '<span class="grid-entry-colnum" aria-hidden="true">' + c + "</span>";
    var cells = "";
    for (var r = 1; r <= shape.rows; r += 1) {
      for (var k = 1; k <= shape.cols; k += 1) {
        var cell = prefix + "-" + r + "-" + k;
        var value = tokens && tokens[r - 1] ? tokens[r - 1][k - 1] || "" : "";
        cells += '<div class="grid-entry-cell"><label class="visually-hidden" for="id-' + cell + '">' + esc(t("row_col_label", { row: r, col: k })) + "</label>" +
          '<input type="text" id="id-' + cell + '" name="' + cell + '" value="' + esc(value) + '" class="grid-entry-input" data-row="' + r + '" data-col="' + k +
          '" maxlength="8" autocomplete="off" autocapitalize="characters" autocorrect="off" spellcheck="false"></div>';
      }
    }
    return '<fieldset class="grid-entry grid-cols-' + shape.cols + '" data-grid-entry data-grid-label="' + esc(label) + '" id="' + prefix + '">' +
      '<legend class="">' + esc(label) + '</legend><div class="grid-entry-cells">' + cols + cells + "</div>" +
      '<ul class="grid-entry-errors errorlist" id="' + prefix + '-errors"></ul></fieldset>';
  }

  /** One player's part of the form: grid, "or total", blocks (when the ruleset has them), errors. */
  function playerEntry(page, index, t) {
    var name = page.players[index];
    var entry = page.entries ? page.entries[name] : undefined;
    var total = typeof entry === "number" ? String(entry) : "";
    var tokens = Array.isArray(entry) ? entry : null;
    var roles = (index === page.dealerSeat ? ' <span class="role">\u00b7 ' + esc(t("role_deals")) + "</span>" : "") +
      (index === page.firstSeat ? ' <span class="role">\u00b7 ' + esc(t("role_plays_first")) + "</span>" : "");
    var id = "id_p" + index + "-total";
    var blocks = page.hasBlocks
      ? '<label for="id_p' + index + '-blocks">' + esc(t("blocks_of_four")) + '</label><input type="text" name="p' + index + '-blocks" inputmode="numeric" pattern="[0-9]*" size="3" id="id_p' + index + '-blocks" value="' + esc(page.blocks && page.blocks[name] ? page.blocks[name] : "") + '">'
      : "";
    return '<fieldset class="player-entry" id="player-' + index + '"><legend>' + esc(name) + roles + "</legend>" +
      '<div class="entry-row">' + grid(index, name, page.shape, tokens, t) + '<div class="typed-total"><label for="' + id + '">' + esc(t("or_total")) + "</label>" +
      '<span class="total-row"><input type="text" name="p' + index + '-total" inputmode="numeric" pattern="-?[0-9]*" size="5" data-preview-now id="' + id + '" value="' + esc(total) + '">' +
      '<button type="button" class="negate" data-negate="' + id + '" aria-label="' + esc(t("negate", { name: name })) + '">\u00b1</button></span>' + blocks + "</div></div>" +
      '<div data-errors-for="' + index + '"></div></fieldset>';
  }

  function enderChoice(page, t) {
    var options = [{ value: "", label: t("not_recorded") }].concat(page.players.map(function (name, i) { return { value: String(i), label: name }; }));
    var chosen = page.ender == null ? "" : String(page.players.indexOf(page.ender));
    return '<fieldset class="player-entry"><legend>' + esc(t("who_ended")) + '</legend><p class="hint">' +
      esc(page.hasEnderPenalty ? t("ender_penalised") : t("ender_for_record")) + '</p><ul class="choice-list inline">' +
      options.map(function (o, i) {
        return '<li><label><input type="radio" name="ender" value="' + o.value + '" id="id_ender_' + i + '"' + (o.value === chosen ? " checked" : "") + "> " + esc(o.label) + "</label></li>";
      }).join("") + "</ul></fieldset>";
  }

  /** The hole page: heading (dealer, who plays first), the form, the preview box, Save. */
  function holePage(page, t) {
    var heading = page.editing
      ? t(page.playoff ? "correct_playoff_hole" : "correct_hole", { n: page.number })
      : t(page.playoff ? "playoff_hole" : "hole_n", { n: page.number });
    var of = !page.editing && !page.playoff && page.holesTotal ? ' <span class="muted">' + esc(t("of_total", { total: page.holesTotal })) + "</span>" : "";
    var save = page.editing ? t("save_correction") : t(page.playoff ? "save_playoff_hole" : "save_hole", { n: page.number });
    var players = page.players.map(function (_n, i) { return playerEntry(page, i, t); }).join("");
    return '<p class="back-link"><a href="' + esc(page.boardHref) + '">\u2190 ' + esc(t("scoreboard")) + "</a></p>" +
      '<div class="hole-head"><h1>' + esc(heading) + of + '</h1><p class="who">' + esc(t("deals", { dealer: page.dealer })) +
      " \u00b7 " + esc(t("plays_first_left", { first: page.first })) + "</p></div>" + (page.bannerHtml || "") +
      '<ul class="form-errors" role="alert" id="hole-errors" hidden></ul>' +
      '<form id="hole-form" class="hole-form" novalidate autocomplete="off" data-offline-hole-form>' +
      '<p class="hint">' + esc(t("tap_cell_hint")) + "</p>" + players +
      '<div class="keypad-dock" data-keypad-slot></div>' + enderChoice(page, t) +
      '<div class="preview-box" id="preview-box" aria-live="polite"></div>' +
      '<div class="big-actions"><button class="primary" type="submit">' + esc(save) + "</button></div></form>";
  }

  /** The live preview (the online page's "Hole scores" table): each player's hole score from the
   * engine, or "not entered" / "check the cards", and the match total it makes. */
  function preview(rows, problems, t) {
    var body = rows.map(function (row) {
      var cell;
      if (typeof row.score === "number") {
        var adds = (row.adjustments || []).map(function (a) { return (a.points > 0 ? "+" : "") + minus(a.points) + " " + a.reason; }).join(" ");
        cell = minus(row.score) + (adds ? '<br><span class="hint">' + esc(adds) + "</span>" : "");
      } else if (row.bad) {
        cell = '<span class="field-error">' + esc(t("check_the_cards")) + "</span>";
      } else {
        cell = '<span class="muted">' + esc(t("not_entered")) + "</span>";
      }
      var total = typeof row.matchTotal === "number" ? minus(row.matchTotal) : "";
      return '<tr><th scope="row">' + esc(row.name) + '</th><td class="num" data-preview-score>' + cell + '</td><td class="num">' + total + "</td></tr>";
    }).join("");
    var list = problems && problems.length ? '<ul class="problems" role="alert">' + problems.map(function (p) { return "<li>" + esc(p) + "</li>"; }).join("") + "</ul>" : "";
    return '<div class="preview"><h2>' + esc(t("hole_scores")) + "</h2>" + list + '<table><thead><tr><th scope="col">' + esc(t("player")) +
      '</th><th scope="col" class="num">' + esc(t("hole")) + '</th><th scope="col" class="num">' + esc(t("match_total")) + "</th></tr></thead><tbody>" + body + "</tbody></table></div>";
  }

  /** The messages next to a player's fields. */
  function fieldErrors(messages) {
    return (messages || []).map(function (m) { return '<p class="field-error">' + esc(m) + "</p>"; }).join("");
  }

  App.hole = { grid: grid, holePage: holePage, preview: preview, fieldErrors: fieldErrors };
  if (typeof module !== "undefined" && module.exports) module.exports = App.hole;
})(typeof globalThis !== "undefined" ? globalThis : this);
