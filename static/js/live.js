/* Live pages (draft page, table, dashboard, pod page, spectator view).
 *
 * A websocket only says "pod N is now at version V" (never any card). The page then fetches
 * its panel (HTML of what this viewer may see) and swaps in each region whose markup
 * changed, keeping focus and opened details. Without a socket (blocked, dropped, refused) it
 * polls; it reconnects with backoff; every countdown ticks against the server's clock and
 * asks for fresh state when it reaches zero. Exposes window.Live for the page's own script.
 */
(function () {
  "use strict";
  // The page's language: Django's JavaScript catalog (base.html) defines gettext.
  var gettext = window.gettext || function (text) { return text; };

  var root = document.getElementById("live");
  if (!root) return;
  var panel = document.getElementById("live-panel");
  var statusEl = document.getElementById("live-status");
  var flashEl = document.getElementById("flash");
  var socketPath = root.getAttribute("data-socket");
  var panelUrl = root.getAttribute("data-panel");

  var POLL_WHEN_DOWN = 5000;
  // With the socket up every change is pushed; the poll is only a safety net, and a thousand
  // pages polling often would cost the server more than the draft itself.
  var POLL_WHEN_UP = 300000;
  var HEARTBEAT = 20000;
  // Other seats' picks change the board many times a second in a busy pod: refresh for them
  // at most this often. A pack reaching this seat (a "queue" push) refreshes at once.
  var REFRESH_EVERY = 2000;
  var lastRefresh = 0;
  var refreshTimer = null;

  var versions = {};
  var serverOffset = 0;
  var regionHtml = {};
  var socket = null;
  var retries = 0;
  var everOpened = false;
  var reconnectTimer = null;
  var pollTimer = null;
  var heartbeatTimer = null;
  var fetching = false;
  var fetchAgain = false;
  var gone = false;
  var expiredSeen = {};

  function setStatus(kind, text) {
    if (!statusEl) return;
    statusEl.hidden = false;
    statusEl.setAttribute("data-state", kind);
    var label = statusEl.querySelector(".live-text");
    if (label) label.textContent = text;
  }

  function flash(message, kind) {
    if (!flashEl) return;
    flashEl.textContent = message || "";
    flashEl.className = "flash" + (message ? " flash-" + (kind || "info") : "");
  }

  function readRoot(liveRoot) {
    var raw = liveRoot.getAttribute("data-versions");
    if (raw) {
      try {
        var parsed = JSON.parse(raw);
        Object.keys(parsed).forEach(function (key) { versions[key] = parsed[key]; });
      } catch (e) { /* keep what we had */ }
    }
    var stamp = Date.parse(liveRoot.getAttribute("data-server-time") || "");
    if (!isNaN(stamp)) serverOffset = stamp - Date.now();
  }

  function currentRoot() { return panel.querySelector(".live-root"); }

  // Forms carry a CSRF token masked afresh on every render: it is no reason to swap a region.
  function markup(region) {
    return region.innerHTML.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "");
  }

  function rememberRegions() {
    panel.querySelectorAll("[data-region]").forEach(function (region) {
      regionHtml[region.getAttribute("data-region")] = markup(region);
    });
  }

  function swap(freshRoot) {
    var here = currentRoot();
    if (!here) { panel.innerHTML = ""; panel.appendChild(freshRoot); rememberRegions(); return ["*"]; }
    Array.prototype.slice.call(freshRoot.attributes).forEach(function (attr) {
      here.setAttribute(attr.name, attr.value);
    });
    var changed = [];
    freshRoot.querySelectorAll("[data-region]").forEach(function (fresh) {
      var name = fresh.getAttribute("data-region");
      var html = fresh.innerHTML;
      var key = markup(fresh);
      if (regionHtml[name] === key) return;
      regionHtml[name] = key;
      var old = here.querySelector('[data-region="' + name + '"]');
      if (!old) { here.appendChild(fresh); changed.push(name); return; }
      var active = document.activeElement;
      var focusId = active && old.contains(active) ? active.id : null;
      var open = [];
      old.querySelectorAll("details[open][id]").forEach(function (d) { open.push(d.id); });
      old.innerHTML = html;
      open.forEach(function (id) {
        var d = document.getElementById(id);
        if (d && old.contains(d)) d.open = true;
      });
      if (focusId) {
        var again = document.getElementById(focusId);
        if (again && !again.disabled) again.focus({ preventScroll: true });
      }
      changed.push(name);
    });
    return changed;
  }

  function lost() {
    gone = true;
    clearInterval(pollTimer);
    clearTimeout(reconnectTimer);
    clearInterval(heartbeatTimer);
    if (socket) { try { socket.close(); } catch (e) { /* closing anyway */ } }
    setStatus("gone", gettext("Stopped"));
    flash(root.getAttribute("data-gone-message") ||
      gettext("You no longer have access to this page (the seat may have been handed to someone else). Reload to check."),
      "error");
  }

  function refreshSoon() {
    if (refreshTimer) return;
    var wait = Math.max(0, REFRESH_EVERY - (Date.now() - lastRefresh));
    refreshTimer = setTimeout(function () { refreshTimer = null; refresh(); }, wait);
  }

  function refresh() {
    if (gone || !panelUrl) return Promise.resolve();
    lastRefresh = Date.now();
    if (fetching) { fetchAgain = true; return Promise.resolve(); }
    fetching = true;
    return fetch(panelUrl, { credentials: "same-origin", cache: "no-store", headers: { "X-Live-Panel": "1" } })
      .then(function (response) {
        if (response.status === 401 || response.status === 403 || response.status === 404 ||
            (response.redirected && response.url.indexOf("/accounts/login") !== -1)) {
          lost();
          return null;
        }
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.text();
      })
      .then(function (text) {
        if (text === null || text === undefined) return;
        var holder = document.createElement("template");
        holder.innerHTML = text;
        var freshRoot = holder.content.querySelector(".live-root");
        if (!freshRoot) return;
        readRoot(freshRoot);
        var changed = swap(freshRoot);
        if (socket && socket.readyState === 1) setStatus("live", gettext("Live"));
        if (changed.length) {
          document.dispatchEvent(new CustomEvent("live:updated", { detail: { regions: changed } }));
        }
        tick();
      })
      .catch(function () {
        setStatus("stale", gettext("Connection lost: showing the last state we had, retrying…"));
      })
      .then(function () {
        fetching = false;
        if (fetchAgain) { fetchAgain = false; refresh(); }
      });
  }

  function poll(every) {
    clearInterval(pollTimer);
    if (!gone) pollTimer = setInterval(refresh, every);
  }

  function scheduleReconnect() {
    clearTimeout(reconnectTimer);
    if (gone) return;
    var delay = Math.min(15000, 1000 * Math.pow(2, retries)) + Math.floor(Math.random() * 500);
    retries += 1;
    reconnectTimer = setTimeout(connect, delay);
  }

  function onMessage(event) {
    var message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    // The page's own script hears the answers to what it sent (picks) and its queue.
    document.dispatchEvent(new CustomEvent("live:message", { detail: message }));
    if (message.type === "changed") {
      var key = message.pod === null || message.pod === undefined ? null : String(message.pod);
      if (key === null || !(key in versions) || message.version > versions[key]) refreshSoon();
    } else if (message.type === "queue") {
      refresh();
    } else if (message.type === "heartbeat" && message.server_time) {
      var stamp = Date.parse(message.server_time);
      if (!isNaN(stamp)) serverOffset = stamp - Date.now();
    }
  }

  function connect() {
    if (gone) return;
    if (!socketPath || !("WebSocket" in window)) {
      setStatus("polling", gettext("Updating every 5 seconds"));
      poll(POLL_WHEN_DOWN);
      return;
    }
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + socketPath;
    try {
      socket = new WebSocket(url);
    } catch (e) {
      scheduleReconnect();
      return;
    }
    socket.onopen = function () {
      retries = 0;
      setStatus("live", gettext("Live"));
      poll(POLL_WHEN_UP);
      clearInterval(heartbeatTimer);
      heartbeatTimer = setInterval(function () {
        if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "heartbeat" }));
      }, HEARTBEAT);
      // After a drop, whatever happened meanwhile (and clocks that ran out) must show.
      if (everOpened) refresh();
      everOpened = true;
    };
    socket.onmessage = onMessage;
    socket.onclose = function (event) {
      clearInterval(heartbeatTimer);
      socket = null;
      if (gone) return;
      if (event.code === 4403) { refresh(); }
      setStatus("down", gettext("Reconnecting… (checking every 5 seconds meanwhile)"));
      poll(POLL_WHEN_DOWN);
      scheduleReconnect();
    };
  }

  // --- countdowns ---------------------------------------------------------------------

  function format(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    var ss = (s < 10 ? "0" : "") + s;
    if (h) return h + ":" + (m < 10 ? "0" : "") + m + ":" + ss;
    return m + ":" + ss;
  }

  function tick() {
    var now = Date.now() + serverOffset;
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      var raw = el.getAttribute("data-deadline");
      var deadline = Date.parse(raw);
      if (isNaN(deadline)) return;
      var left = deadline - now;
      var text = format(left);
      if (el.textContent !== text) el.textContent = text;
      el.classList.toggle("low", left > 0 && left <= 5000);
      el.classList.toggle("expired", left <= 0);
      if (left <= 0 && !expiredSeen[raw]) {
        expiredSeen[raw] = true;
        setTimeout(refresh, 400);
        setTimeout(refresh, 2500);
      }
    });
  }

  // --- start --------------------------------------------------------------------------

  var first = currentRoot();
  if (first) readRoot(first);
  rememberRegions();
  tick();
  setInterval(tick, 250);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      refresh();
      if (!socket && !gone) { clearTimeout(reconnectTimer); retries = 0; connect(); }
    }
  });
  window.addEventListener("online", function () {
    if (!socket && !gone) { clearTimeout(reconnectTimer); retries = 0; connect(); }
  });
  connect();

  window.Live = {
    refresh: refresh,
    flash: flash,
    versions: versions,
    isSocketOpen: function () { return !!(socket && socket.readyState === 1); },
    // Send a message over the open socket; false when there is none (use HTTP instead).
    send: function (message) {
      if (!(socket && socket.readyState === 1)) return false;
      socket.send(JSON.stringify(message));
      return true;
    },

    // Drop the socket as a network failure would (tests and "reconnect" buttons use this).
    dropSocket: function () { if (socket) socket.close(); },
  };
})();
