// The phone's rules engine, part 2 of 10: cards: ranks and suits, card tokens and grids of tokens
// parsed, every bad card named (scoring/rules/cards.py). Loaded after python-ways.js;
// golf-engine.js lists the load order and assembles GolfEngine.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  var parts = node ? require("./python-ways.js") : root.GolfEngineParts;
  var { own, RSTRIP, strip, repr, RulesError, P, fail } = parts;

  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "X"];
  var SUITS = ["S", "H", "D", "C"];
  var JOKER = "X";
  var RANK_NAMES = { A: "Ace", J: "Jack", Q: "Queen", K: "King", X: "Joker" };
  var SUIT_NAMES = { S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs" };
  var SUIT_ALIAS = { S: "S", H: "H", D: "D", C: "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "♤": "S", "♡": "H", "♢": "D", "♧": "C" };
  var SUIT_SYMBOLS = "♠♥♦♣♤♡♢♧";
  var RANK_ALIAS = { T: "10", JK: "X" };
  RANKS.forEach(r => { RANK_ALIAS[r] = r; });
  var HELP = "use A, 2-10 (or T), J, Q, K or X/JK for a joker, optionally followed by a suit S, H, D, C";
  var HELP_NO_JOKERS = "use A, 2-10 (or T), J, Q or K, optionally followed by a suit S, H, D, C";
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

  Object.assign(parts, { RANKS, SUITS, JOKER, RANK_NAMES, RANK_ALIAS, tokenOf, cardName, parseCard, parseGrid });
  parts.loaded.push("cards");
  if (node) module.exports = parts;
})(typeof self !== "undefined" ? self : this);
