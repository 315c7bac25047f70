// The pure parts of static/js/pwa.js and of the service worker (templates/pwa/sw.js): which
// browsers get the iPhone install hint, and which addresses the worker stores, stands the offline
// shell in for, or leaves alone (run: node --test tests/js/; tests/test_javascript.py runs it).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const GolfPwa = require(path.join(__dirname, "..", "..", "static", "js", "pwa.js"));
const worker = require(path.join(__dirname, "..", "..", "templates", "pwa", "sw.js"));

test("isIos knows iPhones and iPads, not Android", () => {
  const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile/15E148 Safari/604.1";
  const android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36";
  assert.equal(GolfPwa.isIos(iphone, 5, "iPhone"), true);
  assert.equal(GolfPwa.isIos("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)", 5, "MacIntel"), true); // iPad, desktop mode
  assert.equal(GolfPwa.isIos("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)", 0, "MacIntel"), false); // a Mac
  assert.equal(GolfPwa.isIos(android, 5, "Linux armv8l"), false);
});

test("the iPhone hint shows once, never in the installed app", () => {
  assert.equal(GolfPwa.showsIosHint(true, false, null), true);
  assert.equal(GolfPwa.showsIosHint(true, false, "shown"), false);
  assert.equal(GolfPwa.showsIosHint(true, false, "dismissed"), false);
  assert.equal(GolfPwa.showsIosHint(true, true, null), false);
  assert.equal(GolfPwa.showsIosHint(false, false, null), false);
});

test("the worker stores the pages a table needs", () => {
  for (const kept of [
    "/", "/games/new/", "/games/e/abc-DEF_12/", "/games/v/abc/", "/games/e/abc/holes/new/",
    "/games/e/abc/holes/3/", "/games/e/abc/playoff/new/", "/games/e/abc/history/",
    "/games/v/abc/holes/2/scores/", "/score/", "/rules/", "/rules/official/",
    "/tournaments/table/abc/", "/tournaments/player/abc/",
  ]) {
    assert.equal(worker.isKeptPage(kept), true, kept);
  }
});

test("the worker never stores logins, the admin, the API, downloads or other pages", () => {
  for (const passed of [
    "/accounts/login/", "/accounts/signup/", "/admin/", "/api/v1/games/", "/games/",
    "/games/e/abc/settings/", "/games/e/abc/share/", "/games/e/abc/holes/3/delete/",
    "/tournaments/", "/tournaments/4/", "/tournaments/4/export/standings.csv",
    "/tournaments/4/rounds/1/print/pack.pdf", "/tournaments/4/projector/", "/tournaments/table/abc/call/",
    "/sw.js", "/manifest.webmanifest",
  ]) {
    assert.equal(worker.isKeptPage(passed), false, passed);
  }
});

test("the offline shell stands in for game and table addresses only", () => {
  assert.equal(worker.isShellPage("/games/e/abc/holes/new/"), true);
  assert.equal(worker.isShellPage("/games/new/"), true);
  assert.equal(worker.isShellPage("/tournaments/table/abc/"), true);
  assert.equal(worker.isShellPage("/tournaments/4/"), false);
  assert.equal(worker.isShellPage("/score/"), false);
});

test("the shell comes before a stored copy for a game's edit pages and the start page", () => {
  assert.equal(worker.isShellFirst("/games/e/abc/"), true);
  assert.equal(worker.isShellFirst("/games/e/abc/holes/new/"), true);
  assert.equal(worker.isShellFirst("/games/new/"), true);
  assert.equal(worker.isShellFirst("/games/v/abc/"), false); // a watcher's page: the stored copy
  assert.equal(worker.isShellFirst("/tournaments/table/abc/"), false);
});

test("static files are recognised under the static URL of this site only", () => {
  const origin = "https://golf.example";
  assert.equal(worker.isStaticFile(new URL("https://golf.example/static/js/game.abc123.js"), origin), true);
  assert.equal(worker.isStaticFile(new URL("https://golf.example/games/static/x"), origin), false);
  assert.equal(worker.isStaticFile(new URL("https://cdn.example/static/js/game.js"), origin), false);
});

test("only complete 200 HTML answers of the site are stored", () => {
  const answer = (status, type, contentType, redirected = false) => ({
    ok: status >= 200 && status < 300, status, type, redirected,
    headers: { get: () => contentType },
  });
  assert.equal(worker.isStorable(answer(200, "basic", "text/html; charset=utf-8")), true);
  assert.equal(worker.isStorable(answer(404, "basic", "text/html; charset=utf-8")), false);
  assert.equal(worker.isStorable(answer(500, "basic", "text/html")), false);
  assert.equal(worker.isStorable(answer(206, "basic", "text/html")), false);
  assert.equal(worker.isStorable(answer(200, "basic", "text/csv")), false);
  assert.equal(worker.isStorable(answer(200, "basic", "application/pdf")), false);
  assert.equal(worker.isStorable(answer(0, "opaqueredirect", "")), false);
  assert.equal(worker.isStorable(answer(200, "basic", "text/html", true)), false);
  assert.equal(worker.isStorable(undefined), false);
});

test("an old hashed static address is known by its name without the hash", () => {
  assert.equal(worker.unhashed("/static/css/app.0123456789ab.css"), "/static/css/app.css");
  assert.equal(worker.unhashed("/static/vendor/htmx-2.0.11.min.a1b2c3d4e5f6.js"), "/static/vendor/htmx-2.0.11.min.js");
  assert.equal(worker.unhashed("/static/js/offline/sync.js"), "/static/js/offline/sync.js"); // development
  assert.equal(worker.unhashed("/static/js/game.123.js"), "/static/js/game.123.js");
});

test("a hanging network gives up after the timeout; an answer in time is kept", async () => {
  const hanging = new Promise(() => {});
  await assert.rejects(worker.withTimeout(hanging, 20), /timeout/);
  const quick = new Promise((resolve) => setTimeout(() => resolve("page"), 5));
  assert.equal(await worker.withTimeout(quick, 200), "page");
  await assert.rejects(worker.withTimeout(Promise.reject(new TypeError("Failed to fetch")), 200), TypeError);
  assert.equal(worker.NETWORK_TIMEOUT_MS, 4000);
});
