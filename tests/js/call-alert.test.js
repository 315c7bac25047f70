// The pure part of static/js/call-alert.js (run: node --test tests/js/; tests/test_javascript.py
// runs it in the suite).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const CallAlert = require(path.join(__dirname, "..", "..", "static", "js", "call-alert.js"));

test("parseIds reads the box's ids and ignores blanks", () => {
  assert.deepEqual(CallAlert.parseIds("12 15 "), ["12", "15"]);
  assert.deepEqual(CallAlert.parseIds(""), []);
  assert.deepEqual(CallAlert.parseIds(null), []);
});

test("newIds names only the calls that just arrived", () => {
  assert.deepEqual(CallAlert.newIds([], ["3"]), ["3"]);
  assert.deepEqual(CallAlert.newIds(["3"], ["3", "4"]), ["4"]);
  assert.deepEqual(CallAlert.newIds(["3", "4"], ["4"]), []); // an answered call alerts nothing
  assert.deepEqual(CallAlert.newIds(["3"], ["3"]), []); // the same call polled again: no alert
});

test("countText puts the count in the translated singular or plural", () => {
  assert.equal(CallAlert.countText("A table calls.", "%(n)s tables call.", 1), "A table calls.");
  assert.equal(CallAlert.countText("A table calls.", "%(n)s tables call.", 3), "3 tables call.");
});

test("titleWith shows the open calls' count in the tab's title, once", () => {
  assert.equal(CallAlert.titleWith("Dashboard", 2), "(2) Dashboard");
  assert.equal(CallAlert.titleWith("(2) Dashboard", 1), "(1) Dashboard");
  assert.equal(CallAlert.titleWith("(1) Dashboard", 0), "Dashboard");
});
