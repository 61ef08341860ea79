/* The draft page's "call a judge" box (templates/judgecalls/_call_box.html), kept live.
 * ws/judgecalls/seats/<id>/ says "call_box" when the player's own call changes (made, claimed,
 * escalated, resolved; judgecalls/frames.py); the box is then fetched from its fragment view,
 * which checks who is asking. The form posts without a reload (the plain form still works
 * without script). The box is an aria-live region: its node stays, only its content changes.
 * The socket is open only while the player has a call open: only then can the box change (no
 * one else makes a player's call), and a draft page costs no second socket the rest of the time. */
(function () {
  "use strict";
  var box = document.getElementById("judge-call");
  if (!box || !box.dataset.boxUrl || !window.fetch || !window.WebSocket) return;
  var url = box.dataset.boxUrl;
  var busy = false;
  var again = false;
  var delay = 1000;
  var socket = null;

  function callOpen() {
    var status = box.querySelector(".judge-call-status");
    return !!status && status.getAttribute("data-status") !== "resolved";
  }

  // Follow the call while it is open; stop once it is resolved.
  function follow() {
    if (callOpen()) {
      if (!socket) connect();
    } else if (socket) {
      var old = socket;
      socket = null;
      old.close();
    }
  }

  function draw(html) {
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var fresh = holder.querySelector("#judge-call");
    if (fresh && fresh.innerHTML !== box.innerHTML) box.innerHTML = fresh.innerHTML;
    follow();
  }

  function refresh() {
    if (busy) {
      again = true; // a push during a fetch: fetch once more after it
      return;
    }
    busy = true;
    fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html) draw(html); })
      .catch(function () {})
      .then(function () {
        busy = false;
        if (again) {
          again = false;
          refresh();
        }
      });
  }

  box.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("judge-call-form")) return;
    event.preventDefault();
    var data = new FormData(form);
    data.set("next", url); // the call's answer is the box itself, with its message
    var button = form.querySelector("button");
    if (button) button.disabled = true;
    fetch(form.action, { method: "POST", body: data, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html) draw(html); else refresh(); })
      .catch(refresh)
      .then(function () { if (button && button.isConnected) button.disabled = false; });
  });

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var mine = new WebSocket(scheme + location.host + box.dataset.socket);
    socket = mine;
    mine.onopen = function () { delay = 1000; };
    mine.onmessage = function (event) {
      var frame;
      try { frame = JSON.parse(event.data); } catch (e) { return; }
      if (frame && frame.type === "call_box") refresh();
    };
    mine.onclose = function () {
      if (socket !== mine) return; // closed on purpose: the call is over
      socket = null;
      // Reconnect, backing off; the connect frame redraws whatever was missed meanwhile.
      setTimeout(function () { if (!socket && callOpen()) connect(); }, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  follow();
})();
