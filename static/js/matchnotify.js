// Notifications on the player's match page while its tab is hidden (issue 28): pairings are
// posted (with the table), the round starts, a judge answered the player's call. The page's
// live panel is already re-drawn on every change of the event (live.js, "live:updated"); this
// compares what the panel says before and after, so it needs no frame format of its own.
// Permission is asked once, explained; the answer is shared with the draft page's notify.js.
(function () {
  "use strict";
  var ASKED = "draftsite-notify-asked";
  var root = document.querySelector("[data-match-notify]");
  if (!root || !("Notification" in window)) return;
  var t = window.gettext || function (s) { return s; };
  var fill = window.interpolate || function (s) { return s; };

  function notify(tag, body) {
    if (!document.hidden || Notification.permission !== "granted") return;
    try {
      var n = new Notification(t("Draft site"), { body: body, tag: tag });
      n.onclick = function () { window.focus(); n.close(); };
    } catch (e) {
      // Some mobile browsers allow notifications from a service worker only.
    }
  }

  function offer() {
    if (Notification.permission !== "default" || localStorage.getItem(ASKED)) return;
    var bar = document.createElement("div");
    bar.className = "panel notify-offer";
    bar.id = "notify-offer";
    bar.setAttribute("role", "region");
    bar.setAttribute("aria-label", t("Notifications"));
    var text = document.createElement("p");
    text.textContent = t("Get a notification when pairings are posted, a round starts or a judge answers your call while this tab is in the background?");
    var yes = document.createElement("button");
    yes.type = "button";
    yes.className = "button primary small";
    yes.id = "notify-yes";
    yes.textContent = t("Turn on notifications");
    var no = document.createElement("button");
    no.type = "button";
    no.className = "button small";
    no.textContent = t("No thanks");
    function done() { localStorage.setItem(ASKED, "1"); bar.remove(); }
    yes.addEventListener("click", function () {
      done();
      var asked = Notification.requestPermission();
      if (asked && asked.then) asked.then(function () {});
    });
    no.addEventListener("click", done);
    bar.appendChild(text);
    bar.appendChild(yes);
    bar.appendChild(no);
    root.appendChild(bar);
  }

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

  offer();
})();
