/* The judge-call queue page: a "call" frame (judgecalls/frames.py) fetches the panel at once.
 * live.js spaces its "changed" refreshes two seconds apart; a floor judge needs a new call
 * on screen within a quarter of a second. */
(function () {
  "use strict";
  document.addEventListener("live:message", function (event) {
    var message = event.detail || {};
    if (message.type === "call" && window.Live) window.Live.refresh();
  });
})();
