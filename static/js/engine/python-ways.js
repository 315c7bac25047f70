// The phone's rules engine, part 1 of 10: Python's ways where JavaScript differs (string order,
// sorting, repr, a key named "__proto__") and RulesError, the refusal every part throws
// (scoring/rules/errors.py). Loaded first; golf-engine.js lists the load order and assembles
// GolfEngine.
(root => {
  "use strict";
  var node = typeof module !== "undefined" && module.exports;
  /** The parts' shared namespace: each part adds what the later parts and golf-engine.js use. */
  var parts = { loaded: [] };
  if (!node) root.GolfEngineParts = parts;

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

  Object.assign(parts, { put, own, isInt, isObj, RSTRIP, strip, sum, plural, bits, lowBit, cmp, sortBy, repr, str,
    RulesError, P, fail });
  parts.loaded.push("python-ways");
  if (node) module.exports = parts;
})(typeof self !== "undefined" ? self : this);
