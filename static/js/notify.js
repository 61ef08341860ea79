// Browser notifications while the player's tab is hidden (issue 28). The shared part
// (window.DraftNotify: notify while hidden, offer to turn notifications on, asked once for the
// whole site) serves the match page too (matchnotify.js). The draft page's part: a pack is
// waiting, the review or deck building ends in a minute. It listens to the page's own socket
// through the "live:message" events that live.js dispatches for every frame (no third-party
// push service). Frames are searched for the fields it needs (a seat's "queue", a pod's
// "review_deadline"/"deck_building_deadline"), whatever the dialect.
(function () {
  "use strict";
  if (!("Notification" in window)) return;
  var ASKED = "draftsite-notify-asked";
  var t = window.gettext || function (s) { return s; };

  function notify(tag, body) {
    if (!document.hidden || Notification.permission !== "granted") return;
    try {
      var n = new Notification(t("Draft site"), { body: body, tag: tag });
      n.onclick = function () { window.focus(); n.close(); };
    } catch (e) {
      // Some mobile browsers allow notifications from a service worker only.
    }
  }

  // The explained offer, once per browser; ``first``: put it at the top of ``root``.
  function offer(root, question, first) {
    if (Notification.permission !== "default" || localStorage.getItem(ASKED)) return;
    var bar = document.createElement("div");
    bar.className = "panel notify-offer";
    bar.id = "notify-offer";
    bar.setAttribute("role", "region");
    bar.setAttribute("aria-label", t("Notifications"));
    var text = document.createElement("p");
    text.textContent = question;
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
    if (first) root.insertBefore(bar, root.firstChild);
    else root.appendChild(bar);
  }

  window.DraftNotify = { notify: notify, offer: offer };
})();

(function () {
  "use strict";
  var root = document.querySelector("[data-notify]");
  if (!root || !window.DraftNotify) return;
  var t = window.gettext || function (s) { return s; };
  var notify = window.DraftNotify.notify;
  var seenPacks = {};
  var first = true;
  var timers = {};

  function walk(value, visit) {
    if (!value || typeof value !== "object") return;
    if (Array.isArray(value)) { value.forEach(function (v) { walk(v, visit); }); return; }
    visit(value);
    Object.keys(value).forEach(function (k) { walk(value[k], visit); });
  }

  function remind(key, iso, body) {
    var at = Date.parse(iso || "");
    clearTimeout(timers[key]);
    if (isNaN(at)) return;
    var wait = at - 60000 - Date.now();
    if (wait < 0) return;
    timers[key] = setTimeout(function () { notify(key, body); }, wait);
  }

  document.addEventListener("live:message", function (event) {
    var fresh = [];
    walk(event.detail, function (obj) {
      if (Array.isArray(obj.queue) && obj.queue.length) {
        var head = obj.queue[0];
        if (head && !head.waiting && head.pack_id !== undefined) {
          var key = head.pack_id + ":" + head.pick_number;
          if (!seenPacks[key]) { seenPacks[key] = true; fresh.push(key); }
        }
      }
      if ("review_deadline" in obj) remind("review", obj.review_deadline, t("The review ends in a minute."));
      if ("deck_building_deadline" in obj) remind("deck", obj.deck_building_deadline, t("Deck building ends in a minute."));
    });
    // A snapshot is the page being (re)drawn: the pack already on screen is not news.
    var drawing = first || (event.detail && event.detail.type === "snapshot");
    if (fresh.length && !drawing) notify("pack", t("A pack is waiting for your pick."));
    if (fresh.length || drawing) first = false;
  });

  window.DraftNotify.offer(
    root,
    t("Get a notification when a pack is waiting or a clock is about to run out while this tab is in the background?"),
    true
  );
})();
