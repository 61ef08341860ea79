/* The called paper draft: caller page (projector, tablet), a player's phone, the follow link.
 *
 * The server sends the call in force, its own time and the calls ahead with their wall-clock
 * times (paper.selectors.call_view). The page ticks through them on the server's clock, so it
 * never drifts and needs the server only when a judge changes something: the socket says
 * "changed" and the page fetches the call again (also when the tab wakes up or reconnects, so
 * a tablet that slept shows the right pick at once). Each new call is shown as a caption and,
 * on pages that speak, said with the browser's speech synthesis (offline), or a chime, or
 * nothing (mute). Phrases come translated from the page (data-say-* attributes).
 * Exposes window.Caller for tests.
 */
(function () {
  "use strict";

  var root = document.getElementById("caller");
  if (!root) return;
  var stateUrl = root.getAttribute("data-state-url");
  var socketPath = root.getAttribute("data-socket");
  var tableUrl = root.getAttribute("data-table-url");
  var speaks = root.getAttribute("data-speaks") === "1";
  var el = function (id) { return document.getElementById(id); };

  var state = null;
  var offset = 0; // server time minus local time, ms
  var version = -1;
  var lastKey = null;
  var lastPhase = null;
  var gone = false;
  var socket = null;
  var retries = 0;
  var pollTimer = null;
  var heartbeatTimer = null;
  var history = [];
  var mode = "mute";

  // --- sound ---------------------------------------------------------------------------------

  var audio = null;
  function chime(times) {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      for (var i = 0; i < times; i++) {
        var osc = audio.createOscillator();
        var gain = audio.createGain();
        osc.frequency.value = 880;
        gain.gain.value = 0.2;
        osc.connect(gain);
        gain.connect(audio.destination);
        var at = audio.currentTime + i * 0.25;
        osc.start(at);
        osc.stop(at + 0.15);
      }
    } catch (e) { /* no audio: captions still show */ }
  }

  function say(lines) {
    if (!lines.length) return;
    var text = lines.join(" ");
    el("call-caption").textContent = text;
    history.unshift({ text: text, at: new Date(serverNow()) });
    history = history.slice(0, 6);
    var list = el("call-history");
    if (list) {
      list.innerHTML = "";
      history.forEach(function (item) {
        var li = document.createElement("li");
        li.textContent = item.at.toLocaleTimeString() + " · " + item.text;
        list.appendChild(li);
      });
    }
    if (mode === "speech" && window.speechSynthesis && window.SpeechSynthesisUtterance) {
      window.speechSynthesis.cancel();
      lines.forEach(function (line) {
        var utterance = new window.SpeechSynthesisUtterance(line);
        utterance.lang = document.documentElement.lang || "en";
        window.speechSynthesis.speak(utterance);
      });
    } else if (mode === "chime") {
      chime(lines.length);
    }
  }

  function phrase(name, values) {
    var text = root.getAttribute("data-say-" + name) || "";
    Object.keys(values || {}).forEach(function (key) {
      text = text.split("{" + key + "}").join(String(values[key]));
    });
    return text;
  }

  function directionWord(step) {
    return root.getAttribute("data-word-" + (step && step.direction === "right" ? "right" : "left")) || "";
  }

  // --- where the call is now -------------------------------------------------------------------

  function serverNow() { return Date.now() + offset; }

  function current() {
    if (!state) return null;
    var call = state.call;
    if (call.paused) {
      return { phase: call.phase, step: call.step, paused: true, remaining: call.remaining_ms, key: "paused" };
    }
    var now = serverNow();
    var timeline = state.timeline || [];
    if (call.phase === "not_started" && (!timeline.length || now < Date.parse(timeline[0].begins_at))) {
      var starts = call.starts_at ? Date.parse(call.starts_at) : null;
      return { phase: "not_started", remaining: starts ? starts - now : null, key: "not_started" };
    }
    for (var i = 0; i < timeline.length; i++) {
      var begins = Date.parse(timeline[i].begins_at);
      var ends = Date.parse(timeline[i].ends_at);
      if (now < ends) {
        return { phase: timeline[i].step.phase, step: timeline[i].step, remaining: ends - Math.max(now, begins),
                 key: timeline[i].step.index + "@" + timeline[i].begins_at };
      }
    }
    return { phase: "done", key: "done" };
  }

  function announce(now, before) {
    var lines = [];
    if (now.paused) {
      lines.push(phrase("paused"));
      return say(lines);
    }
    var step = now.step;
    var seconds = Math.ceil((now.remaining || 0) / 1000);
    if (before && before.phase === "pick" && !before.paused) lines.push(phrase("draft"));
    if (now.phase === "pick") {
      if (step.pick === 1 && !(before && before.paused)) {
        lines.push(phrase("round", { round: step.round, direction: directionWord(step) }));
      }
      lines.push(phrase("pick", { pick: step.pick, seconds: seconds }));
    } else if (now.phase === "review") {
      lines.push(phrase("review", { seconds: seconds }));
    } else if (now.phase === "deck_building") {
      lines.push(phrase("deck", { minutes: Math.ceil(seconds / 60) }));
    } else if (now.phase === "done") {
      lines.push(phrase("done"));
    }
    say(lines);
  }

  // --- showing it ------------------------------------------------------------------------------

  function clock(ms) {
    if (ms === null || ms === undefined) return "—";
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(seconds / 60);
    var s = seconds % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function text(id, value) {
    var node = el(id);
    if (node && node.textContent !== value) node.textContent = value;
  }

  function show(now) {
    var step = now.step;
    root.setAttribute("data-phase", now.phase);
    root.classList.toggle("paused", !!now.paused);
    text("call-phase", root.getAttribute("data-label-" + now.phase) || now.phase);
    text("call-pick", step && step.pick ? String(step.pick) : "");
    var detail = "";
    if (step && now.phase === "pick") {
      detail = phrase("detail", { cards: step.cards_left, round: step.round });
    } else if (step) {
      detail = phrase("round-of", { round: step.round });
    }
    text("call-detail", detail);
    var arrow = step ? (step.direction === "right" ? "→" : "←") : "";
    text("call-direction", step && now.phase === "pick" ? phrase("pass", { direction: directionWord(step) }) + " " + arrow : "");
    var countdown = el("call-countdown");
    text("call-countdown", now.phase === "done" ? "" : clock(now.remaining));
    if (countdown) countdown.classList.toggle("low", now.remaining !== null && now.remaining <= 5000 && !now.paused);
    var note = el("call-paused");
    if (note) {
      note.hidden = !now.paused;
      var reasons = (state.pauses || []).map(function (p) {
        return (p.reason ? p.reason : "") + (p.by ? " (" + p.by + ")" : "");
      }).filter(Boolean);
      text("call-paused-why", reasons.join(" · "));
    }
    text("server-clock", new Date(serverNow()).toLocaleTimeString());
  }

  function tick() {
    if (!state) return;
    var now = current();
    if (now.key !== lastKey) {
      if (lastKey !== null) announce(now, lastPhase);
      lastKey = now.key;
      lastPhase = now;
      // A step ended on this clock: make sure nothing changed meanwhile on the server.
      if (now.phase === "done" || now.phase === "not_started") setTimeout(fetchState, 300);
    }
    show(now);
  }

  // --- the server --------------------------------------------------------------------------------

  function flash(message, kind) {
    var node = el("flash");
    if (!node) return;
    node.textContent = message || "";
    node.className = "flash" + (message ? " flash-" + (kind || "info") : "");
  }

  function apply(data, sentAt) {
    var receivedAt = Date.now();
    var stamp = Date.parse(data.server_time);
    if (!isNaN(stamp)) offset = stamp - (sentAt + receivedAt) / 2;
    state = data;
    version = data.pod.version;
    text("call-version", String(version));
    var called = data.call.phase !== "not_started" || !!data.call.starts_at;
    document.querySelectorAll("[data-hide-when-called]").forEach(function (node) { node.hidden = called; });
    showLog(data.log);
    tick();
  }

  function showLog(entries) {
    var list = el("call-log");
    if (!list || !entries) return;
    list.innerHTML = "";
    entries.forEach(function (entry) {
      var li = document.createElement("li");
      var when = document.createElement("time");
      when.dateTime = entry.at;
      when.textContent = new Date(entry.at).toLocaleTimeString();
      li.appendChild(when);
      li.appendChild(document.createTextNode(" " + entry.text + (entry.reason ? ": " + entry.reason : "") +
                                             (entry.by ? " — " + entry.by : "")));
      list.appendChild(li);
    });
  }

  function lost() {
    gone = true;
    clearInterval(pollTimer);
    clearInterval(heartbeatTimer);
    if (socket) { try { socket.close(); } catch (e) { /* closing anyway */ } }
    flash(root.getAttribute("data-gone-message") || "", "error");
  }

  function fetchState() {
    if (gone || !stateUrl) return Promise.resolve();
    var sentAt = Date.now();
    return fetch(stateUrl, { credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 401 || response.status === 403 || response.status === 404) { lost(); return null; }
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (data) { if (data) apply(data, sentAt); })
      .then(refreshTable)
      .catch(function () { setStatus("stale"); });
  }

  function refreshTable() {
    var panel = el("table-panel");
    if (!tableUrl || !panel) return;
    return fetch(tableUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null && panel.innerHTML !== html) panel.innerHTML = html; })
      .catch(function () { /* next change tries again */ });
  }

  function setStatus(kind) {
    var node = el("live-status");
    if (!node) return;
    node.hidden = false;
    node.setAttribute("data-state", kind);
    var label = node.querySelector(".live-text");
    if (label) label.textContent = root.getAttribute("data-status-" + kind) || kind;
  }

  function poll(every) {
    clearInterval(pollTimer);
    if (!gone) pollTimer = setInterval(fetchState, every);
  }

  function connect() {
    if (gone) return;
    if (!socketPath || !("WebSocket" in window)) { setStatus("polling"); poll(5000); return; }
    socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + socketPath);
    socket.onopen = function () {
      retries = 0;
      setStatus("live");
      poll(30000);
      clearInterval(heartbeatTimer);
      heartbeatTimer = setInterval(function () {
        if (socket && socket.readyState === 1) socket.send(JSON.stringify({ type: "heartbeat" }));
      }, 20000);
    };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (e) { return; }
      if (message.type === "changed" && message.version !== version) fetchState();
    };
    socket.onclose = function (event) {
      clearInterval(heartbeatTimer);
      socket = null;
      if (gone) return;
      if (event.code === 4403) { lost(); return; }
      setStatus("down");
      poll(5000);
      retries += 1;
      setTimeout(connect, Math.min(15000, 1000 * Math.pow(2, retries)));
    };
  }

  // --- controls (judges) --------------------------------------------------------------------------

  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-api")) return;
    event.preventDefault();
    var question = form.getAttribute("data-ask");
    if (question && !window.confirm(question)) return;
    var body = {};
    var reason = form.querySelector("[name=reason]");
    if (reason) body.reason = reason.value;
    var delay = form.querySelector("[name=delay_seconds]");
    if (delay && delay.value) body.delay_seconds = parseInt(delay.value, 10);
    var sentAt = Date.now();
    fetch(form.getAttribute("data-api"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json().then(function (data) { return { ok: response.ok, data: data }; });
    }).then(function (result) {
      if (!result.ok) { flash(result.data.detail || "", "error"); return; }
      flash("");
      if (reason) reason.value = "";
      if (result.data && result.data.call) apply(result.data, sentAt); else fetchState();
    }).catch(function () { flash(root.getAttribute("data-status-down") || "", "error"); });
  });

  // --- sound mode ---------------------------------------------------------------------------------

  var storeKey = "paper-caller-sound";
  function setMode(value) {
    mode = value;
    try { localStorage.setItem(storeKey, value); } catch (e) { /* private mode */ }
    document.querySelectorAll("input[name=sound]").forEach(function (input) { input.checked = input.value === value; });
  }
  var saved = null;
  try { saved = localStorage.getItem(storeKey); } catch (e) { /* private mode */ }
  setMode(saved || (speaks ? "speech" : "mute"));
  document.addEventListener("change", function (event) {
    if (event.target && event.target.name === "sound") setMode(event.target.value);
  });

  // --- start ----------------------------------------------------------------------------------------

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      fetchState();
      if (!socket && !gone) { retries = 0; connect(); }
    }
  });
  window.addEventListener("online", fetchState);
  setInterval(tick, 200);
  fetchState();
  connect();

  window.Caller = {
    refresh: fetchState,
    current: current,
    serverNow: serverNow,
    setMode: setMode,
    isSocketOpen: function () { return !!(socket && socket.readyState === 1); },
  };
})();
