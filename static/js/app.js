// Every page: register the service worker (static/js/sw.js at /sw.js), say when the page is
// a saved copy shown offline and how old it is, and forget the copies when signing out.
(function () {
  "use strict";
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      // No service worker (private mode, an old browser): the site works as before.
    });
    document.addEventListener("submit", function (event) {
      if (event.target.closest && event.target.closest("form[action$='/logout/']") && navigator.serviceWorker.controller) {
        navigator.serviceWorker.controller.postMessage({ type: "forget-pages" });
      }
    });
  }
  const saved = document.querySelector("meta[name=offline-saved-at]");
  if (!saved) return;
  const at = Number(saved.content);
  const banner = document.createElement("p");
  banner.className = "offline-banner";
  banner.id = "offline-banner";
  banner.setAttribute("role", "status");
  function say() {
    const minutes = Math.max(0, Math.round((Date.now() - at) / 60000));
    const time = new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    banner.textContent = interpolate(
      gettext("Offline: this is the copy saved at %(time)s (%(minutes)s min ago). It updates when the connection returns."),
      { time: time, minutes: minutes },
      true
    );
  }
  say();
  setInterval(say, 30000);
  const main = document.getElementById("main") || document.body;
  main.insertBefore(banner, main.firstChild);
  // Back to the live page once the site answers again. Not on the "online" event alone:
  // browsers fire it when the Wi-Fi flaps (and Chromium's emulation fires offline/online pairs
  // on a page shown while offline) with the site still out of reach, and a reload started then
  // could cancel the page the player just opened and bring this copy back. Not while the player
  // leaves this page or types in a field of it.
  let leaving = false;
  window.addEventListener("beforeunload", function () {
    leaving = true;
  });
  window.addEventListener("pageshow", function () {
    leaving = false;
  });
  let checking = false;
  function backOnline() {
    if (checking || leaving) return;
    const field = document.activeElement;
    if (field && field.matches && field.matches("input:not([type=submit]):not([type=button]), select, textarea")) return;
    checking = true;
    const controller = new AbortController();
    const timer = setTimeout(function () {
      controller.abort();
    }, 5000);
    fetch("/healthz", { cache: "no-store", signal: controller.signal })
      .then(function (response) {
        if (response.ok && !leaving) window.location.reload();
      })
      .catch(function () {
        // Still out of reach: the next "online" event or check tries again.
      })
      .finally(function () {
        clearTimeout(timer);
        checking = false;
      });
  }
  window.addEventListener("online", backOnline);
  setInterval(backOnline, 30000); // "online" does not always fire (a captive portal)
})();
