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
  window.addEventListener("online", function () {
    window.location.reload();
  });
})();
