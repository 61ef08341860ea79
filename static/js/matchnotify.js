// Notifications on the player's match page while its tab is hidden (issue 28): pairings are
// posted (with the table), the round starts, a judge answered the player's call. The page's
// live panel is already re-drawn on every change of the event (live.js, "live:updated"); this
// compares what the panel says before and after, so it needs no frame format of its own.
// Notifying and the offer are notify.js's (window.DraftNotify), loaded before this script.
(function () {
  "use strict";
  var root = document.querySelector("[data-match-notify]");
  if (!root || !window.DraftNotify) return;
  var t = window.gettext || function (s) { return s; };
  var fill = window.interpolate || function (s) { return s; };
  var notify = window.DraftNotify.notify;

  // What the panel shows now: the round (id, number, state, table) and the call's status.
  function read() {
    var match = document.querySelector("[data-match-notice]");
    var call = document.querySelector("#judge-call .judge-call-status");
    return {
      round: match ? match.getAttribute("data-round") : "",
      number: match ? match.getAttribute("data-round-number") : "",
      state: match ? match.getAttribute("data-round-state") : "",
      table: match ? match.getAttribute("data-table") : "",
      call: call ? call.getAttribute("data-status") : "",
      callText: call ? call.textContent.trim() : ""
    };
  }

  var before = read();
  document.addEventListener("live:updated", function () {
    var now = read();
    if (now.round && now.round !== before.round) {
      notify("pairings", now.table
        ? fill(t("Pairings are posted: round %(round)s, table %(table)s."), { round: now.number, table: now.table }, true)
        : fill(t("Pairings are posted: round %(round)s, you have a bye."), { round: now.number }, true));
    }
    if (now.round && now.state === "running" && (now.round !== before.round || before.state !== "running")) {
      notify("round", fill(t("Round %(round)s has started."), { round: now.number }, true));
    }
    if (now.call === "claimed" && before.call !== "claimed") notify("judge", now.callText);
    before = now;
  });

  window.DraftNotify.offer(
    root,
    t("Get a notification when pairings are posted, a round starts or a judge answers your call while this tab is in the background?"),
    false
  );
})();
