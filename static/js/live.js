/* Live pages (draft page, table, dashboard, pod page, spectator view).
 *
 * Two ways to keep a page current:
 *
 * - panel (the default: dashboard, matches, paper pages): the websocket only says "pod N is
 *   now at version V" (never any card). The page then fetches its panel (HTML of what this
 *   viewer may see) and swaps in each region whose markup changed.
 * - state (the draft pages, data-draw="state" on #live): the socket (?protocol=state) pushes
 *   this viewer's state, a snapshot then deltas, and static/js/draftstate.js draws it in the
 *   browser: no panel fetch on a change, nor when a clock runs out (the server pushes what
 *   that changed). The panel is fetched only while the socket is down. The organiser's
 *   dashboard (data-view="dashboard") is the same with "summary" frames (every pod's digest,
 *   then what changed), drawn by static/js/dashboard.js; its socket's "changed" with pod null
 *   (pods seated or removed, settings changed) fetches the panel once.
 *
 * Either way a swapped region keeps focus (or moves it somewhere sensible when the focused
 * control went away), opened details and chosen options. Without a socket (blocked, dropped,
 * refused) the page polls; it reconnects with backoff; every countdown ticks against the
 * server's clock. Exposes window.Live for the page's own scripts.
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
  // The page draws the state the socket pushes (draftstate.js) instead of fetching its panel.
  var drawsState = root.getAttribute("data-draw") === "state";
  var early = [];  // state frames heard before the page's drawer was there to take them
  // What draws the state: draftstate.js (draft pages) or dashboard.js (the dashboard).
  function drawer() { return window.DraftState || window.DashboardState || null; }

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
  var OFFLINE_TEXT = gettext("Offline: this phone has no connection. Nothing is sent until it returns; the page then catches up by itself.");

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

  // --- swapping a region, keeping what the reader was doing ------------------------------

  // The control that had focus last, and its region: a swap (or a control disabled while its
  // request runs) can drop focus to <body>; the next swap of that region puts it back.
  var lastFocus = null;
  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var region = target.closest("[data-region]");
    lastFocus = region ? { id: target.id || "", region: region.getAttribute("data-region"), el: target } : null;
  });
  // A click somewhere that takes no focus is the reader moving on: do not pull focus back.
  document.addEventListener("pointerdown", function () { lastFocus = null; }, true);

  // Form fields the reader is editing or has edited: a live swap keeps their own nodes (value,
  // caret, focus), never a fresh copy; a submit hands the form back to the server.
  function markEdited(event) {
    var field = event.target;
    if (!(field instanceof Element) || !field.matches("input, textarea, select")) return;
    field._liveEdited = true;
    if (field.type === "radio" && field.form && field.name) {  // the whole group: one choice
      Array.prototype.forEach.call(field.form.elements, function (other) {
        if (other.type === "radio" && other.name === field.name) other._liveEdited = true;
      });
    }
  }
  document.addEventListener("input", markEdited, true);
  document.addEventListener("change", markEdited, true);
  document.addEventListener("submit", function (event) {
    if (event.target && event.target.elements) {
      Array.prototype.forEach.call(event.target.elements, function (field) { field._liveEdited = false; });
    }
  }, true);

  function fieldKey(field) {
    var form = field.form;
    var where = form ? (form.id || form.getAttribute("action") || "") : "";
    var what = field.id || field.name || "";
    if (!field.id && (field.type === "radio" || field.type === "checkbox")) what += "=" + field.value;
    return where + "|" + what;
  }

  function editedFields(region, active) {
    var kept = {};
    region.querySelectorAll("input, textarea, select").forEach(function (field) {
      if (field.type === "hidden" || !(field === active || field._liveEdited)) return;
      var key = fieldKey(field);
      if (key !== "|") kept[key] = field;
    });
    return kept;
  }

  function keepEdited(region, kept) {
    if (!Object.keys(kept).length) return;
    region.querySelectorAll("input, textarea, select").forEach(function (fresh) {
      var key = fieldKey(fresh);
      var mine = kept[key];
      if (!mine || mine === fresh) return;
      fresh.replaceWith(mine);
      delete kept[key];
    });
  }

  function focusable(el) {
    return !!(el && !el.disabled && document.contains(el) && !el.closest("[hidden]"));
  }

  function focusOn(el) {
    if (!el) return false;
    el.focus({ preventScroll: true });
    return document.activeElement === el;
  }

  // Where focus goes when the control that had it is gone (a pick took the pack away, a pile
  // move disabled the button that was pressed): never <body>.
  function refocus(region, focusId) {
    var moved = focusId && /^(up|down)-(\d+)$/.exec(focusId);
    if (moved) {
      var other = document.getElementById((moved[1] === "up" ? "down-" : "up-") + moved[2]);
      if (focusable(other) && focusOn(other)) return;
      var summary = document.querySelector("#pile-card-" + moved[2] + " > summary");
      if (focusable(summary) && focusOn(summary)) return;
    }
    var candidates = [
      region.querySelector("#pack-form .pick-button:not([disabled])"),
      region.querySelector("#pack-form .card"),
      region.querySelector("[data-focus-target]"),
      region.querySelector("h2"),
    ];
    for (var i = 0; i < candidates.length; i += 1) {
      var el = candidates[i];
      if (!el || !focusable(el)) continue;
      if (el.tagName !== "BUTTON" && el.tagName !== "A" && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
      if (focusOn(el)) return;
    }
  }

  // Replace a region's content with ``html``; focus, opened <details>, chosen options stay.
  function swapRegion(old, html) {
    var name = old.getAttribute("data-region");
    var active = document.activeElement;
    var had = !!(active && active !== document.body && old.contains(active));
    var focusId = had ? active.id : null;
    if (!had && (!active || active === document.body) && lastFocus && lastFocus.region === name &&
        !(lastFocus.el && document.contains(lastFocus.el) && lastFocus.el !== active && !old.contains(lastFocus.el))) {
      had = true;  // focus fell to <body> from this region (its control was disabled or removed)
      focusId = lastFocus.id;
    }
    var open = [];
    old.querySelectorAll("details[open][id]").forEach(function (d) { open.push(d.id); });
    var kept = editedFields(old, active);
    var caret = had && active && typeof active.selectionStart === "number" ? [active.selectionStart, active.selectionEnd] : null;
    var chosen = {};
    old.querySelectorAll("select[id]").forEach(function (select) {
      var initial = select.querySelector("option[selected]") || select.options[0];
      if (initial && select.value !== initial.value) chosen[select.id] = select.value;
    });
    old.innerHTML = html;
    keepEdited(old, kept);
    open.forEach(function (id) {
      var d = document.getElementById(id);
      if (d && old.contains(d)) d.open = true;
    });
    Object.keys(chosen).forEach(function (id) {
      var select = document.getElementById(id);
      if (!select || !old.contains(select)) return;
      for (var i = 0; i < select.options.length; i += 1) {
        if (select.options[i].value === chosen[id]) { select.value = chosen[id]; break; }
      }
    });
    if (had) {
      var again = focusId ? document.getElementById(focusId) : null;
      if (old.contains(active) && focusable(active)) {  // the field being typed in, kept
        focusOn(active);
        if (caret) { try { active.setSelectionRange(caret[0], caret[1]); } catch (e) { /* number fields */ } }
      } else if (again && old.contains(again) && focusable(again)) focusOn(again);
      else refocus(old, focusId);
    }
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
      var key = markup(fresh);
      if (regionHtml[name] === key) return;
      regionHtml[name] = key;
      var old = here.querySelector('[data-region="' + name + '"]');
      if (!old) { here.appendChild(fresh); changed.push(name); return; }
      swapRegion(old, fresh.innerHTML);
      changed.push(name);
    });
    if (changed.length && drawsState && drawer() && drawer().invalidate) drawer().invalidate();
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

  function socketOpen() { return !!(socket && socket.readyState === 1); }

  // The panel, fetched: always in panel mode; in state mode only while the socket is down
  // (with it up, the server pushes every change).
  function refresh() {
    if (drawsState && socketOpen()) return Promise.resolve();
    return fetchPanel();
  }

  function fetchPanel() {
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
        if (socketOpen()) setStatus("live", gettext("Live"));
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
        if (fetchAgain) { fetchAgain = false; fetchPanel(); }
      });
  }

  // The panel for what the state lacks (the pod page's connections and log), at most every
  // data-panel-gap ms however often it is asked for (draftstate.js asks).
  var slowEvery = Number(root.getAttribute("data-panel-gap")) || 0;
  var slowTimer = null;
  var lastSlow = 0;
  function refreshSlowly() {
    if (!slowEvery || slowTimer || gone) return;
    var wait = Math.max(0, slowEvery - (Date.now() - lastSlow));
    slowTimer = setTimeout(function () { slowTimer = null; lastSlow = Date.now(); fetchPanel(); }, wait);
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
    if (message.server_time && (message.type === "heartbeat" || message.type === "snapshot")) {
      var now = Date.parse(message.server_time);
      if (!isNaN(now)) serverOffset = now - Date.now();
    }
    if (drawsState) {
      if (message.type === "picked" && message.deltas) {
        // The picker's own change rides in the answer (drafts/protocol.py Picked), applied
        // after draft.js has heard the answer, as a "delta" frame of its own used to be.
        message = { type: "delta", deltas: message.deltas };
      }
      if (message.type === "snapshot" || message.type === "delta" || message.type === "summary" || message.type === "automatic") {
        if (drawer()) drawer().receive(message);
        else early.push(message);
      } else if (message.type === "changed" && message.pod === null) {
        fetchPanel();  // the event's pods were seated or removed: the rows the state lacks
      }
      return;  // other "changed" and "queue" are the other dialect's: the state says it all
    }
    if (message.type === "changed") {
      var key = message.pod === null || message.pod === undefined ? null : String(message.pod);
      if (key === null || !(key in versions) || message.version > versions[key]) refreshSoon();
    } else if (message.type === "queue") {
      refresh();
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
    if (drawsState) url += (url.indexOf("?") === -1 ? "?" : "&") + "protocol=state";
    try {
      socket = new WebSocket(url);
    } catch (e) {
      scheduleReconnect();
      return;
    }
    socket.onopen = function () {
      retries = 0;
      setStatus("live", gettext("Live"));
      if (drawsState) clearInterval(pollTimer);  // the server pushes; a snapshot comes first
      else poll(POLL_WHEN_UP);
      clearInterval(heartbeatTimer);
      heartbeatTimer = setInterval(function () {
        if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "heartbeat" }));
      }, HEARTBEAT);
      // After a drop, whatever happened meanwhile (and clocks that ran out) must show (in
      // state mode the server's new snapshot shows it).
      if (everOpened && !drawsState) refresh();
      everOpened = true;
    };
    socket.onmessage = onMessage;
    socket.onclose = function (event) {
      clearInterval(heartbeatTimer);
      socket = null;
      if (gone) return;
      if (event.code === 4403) { refresh(); }
      if (navigator.onLine === false) setStatus("offline", OFFLINE_TEXT);
      else setStatus("down", gettext("Reconnecting… (checking every 5 seconds meanwhile)"));
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
      if (left <= 0 && !expiredSeen[raw] && !(drawsState && socketOpen())) {
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
  // The phone lost its connection (the venue's Wi-Fi): say so plainly; "online" reconnects,
  // and the socket's new snapshot (or the panel) shows whatever happened meanwhile.
  window.addEventListener("offline", function () {
    if (!gone) setStatus("offline", OFFLINE_TEXT);
  });
  window.addEventListener("online", function () {
    if (!socket && !gone) { clearTimeout(reconnectTimer); retries = 0; connect(); }
  });
  connect();

  window.Live = {
    refresh: refresh,
    clockText: format,  // how every countdown reads (the server's |clock filter)
    // The panel now, whatever the mode (what the pushed state does not describe).
    fetchPanel: fetchPanel,
    flash: flash,
    versions: versions,
    drawsState: drawsState,
    isSocketOpen: socketOpen,
    // The server's clock (ms since the epoch), as the page last heard it.
    now: function () { return Date.now() + serverOffset; },
    tick: tick,
    swapRegion: swapRegion,
    refreshSlowly: refreshSlowly,
    setStatus: setStatus,
    // State frames that came before the page's drawer was ready (it takes them once).
    takeEarly: function () { var frames = early; early = []; return frames; },
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
