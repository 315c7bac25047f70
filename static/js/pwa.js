// The installable app on every page (issue 32, item 1): registers the service worker (/sw.js) once
// the page has loaded, where browsers have service workers, and never lets a failure reach the page;
// offers "Install Golf club" when the browser says the app can be installed (beforeinstallprompt),
// and on an iPhone (which has no such event) shows once the hint "Share, then Add to Home Screen".
// Every text shown is in the page (base.html, translated by Django). When someone logs out, the
// pages this phone stored are forgotten. The pure part (GolfPwa) is tested with `node --test tests/js/`.
(function (root) {
  "use strict";

  var HINT_KEY = "golfclub.install-hint";

  var GolfPwa = {
    /** Whether the browser is an iPhone's or iPad's (Safari, or any iOS browser: all are WebKit). */
    isIos: function (userAgent, maxTouchPoints, platform) {
      if (/iPhone|iPad|iPod/.test(String(userAgent))) return true;
      return platform === "MacIntel" && maxTouchPoints > 1; // an iPad asking for desktop pages
    },
    /** Whether to show the iPhone hint: on iOS, not installed already, and never shown before. */
    showsIosHint: function (isIos, standalone, remembered) {
      return Boolean(isIos) && !standalone && !remembered;
    },
  };

  if (typeof module === "object" && module.exports) {
    module.exports = GolfPwa;
    return;
  }

  function remembered() {
    try { return root.localStorage.getItem(HINT_KEY); } catch (error) { return "unavailable"; }
  }

  function remember(value) {
    try { root.localStorage.setItem(HINT_KEY, value); } catch (error) { /* private mode: ask again */ }
  }

  function register() {
    var workers = root.navigator.serviceWorker;
    workers.register("/sw.js", { scope: "/" }).then(function (registration) {
      // A new version waits for every tab to close; its pages and files are compatible, so start it now.
      function startWaiting() {
        if (registration.waiting) registration.waiting.postMessage({ type: "skip-waiting" });
      }
      startWaiting();
      registration.addEventListener("updatefound", function () {
        var installing = registration.installing;
        if (!installing) return;
        installing.addEventListener("statechange", function () {
          if (installing.state === "installed" && workers.controller) startWaiting();
        });
      });
    }).catch(function () { /* no offline use on this browser: the site works as before */ });
  }

  function forgetStoredPagesOnLogout() {
    document.addEventListener("submit", function (event) {
      var form = event.target;
      var controller = root.navigator.serviceWorker.controller;
      if (controller && form && /\/accounts\/logout\/$/.test(form.getAttribute("action") || "")) {
        controller.postMessage({ type: "forget-pages" });
      }
    });
  }

  function offerInstall(offer) {
    var button = offer.querySelector("[data-install-button]");
    var deferred = null;
    root.addEventListener("beforeinstallprompt", function (event) {
      event.preventDefault(); // shown as our own button, where the player expects it
      deferred = event;
      offer.hidden = false;
      button.hidden = false;
    });
    button.addEventListener("click", function () {
      if (!deferred) return;
      deferred.prompt();
      deferred.userChoice.then(function () { offer.hidden = true; }, function () {});
      deferred = null;
    });
    root.addEventListener("appinstalled", function () { offer.hidden = true; });
  }

  function hintOnIos(offer) {
    var nav = root.navigator;
    var ios = GolfPwa.isIos(nav.userAgent, nav.maxTouchPoints || 0, nav.platform);
    var standalone = nav.standalone === true ||
      (root.matchMedia && root.matchMedia("(display-mode: standalone)").matches);
    if (!GolfPwa.showsIosHint(ios, standalone, remembered())) return;
    var hint = offer.querySelector("[data-install-hint]");
    remember("shown"); // once: the next pages do not repeat it
    offer.hidden = false;
    hint.hidden = false;
    offer.querySelector("[data-install-dismiss]").addEventListener("click", function () {
      remember("dismissed");
      offer.hidden = true;
    });
  }

  function start() {
    var offer = document.querySelector("[data-install-offer]");
    if (offer) {
      offerInstall(offer);
      hintOnIos(offer);
    }
    if (!("serviceWorker" in root.navigator)) return;
    forgetStoredPagesOnLogout();
    if (document.readyState === "complete") register();
    else root.addEventListener("load", register);
  }

  try {
    start();
  } catch (error) {
    // Never break a page: the app works as a website without any of this.
  }
  root.GolfPwa = GolfPwa;
})(this);
