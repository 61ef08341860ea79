/* The organiser's dashboard drawn from its socket's digests (the "state" dialect of
 * drafts/protocol.py: Summary, PodDigest).
 *
 * live.js keeps the socket (?protocol=state) and hands over each "summary" frame: the first
 * one has every pod's digest, the next ones (at most one every 2.5 seconds) only the fields of each pod
 * that changed. This script keeps every pod's digest and re-draws, in place, the cells of its
 * row (templates/drafts/_dashboard_panel.html: <tr data-pod>, <td data-cell>) that the digest
 * describes, with the server template's markup and words: state badge, round, pick, time left
 * (a countdown live.js ticks), and the seats holding the pod up. A cell is written only when
 * its markup changes, so nothing the reader does (focus, a screen reader's place) is disturbed
 * by the cells that stay the same; no cell is a live region (a change a second per pod would
 * be read out without end).
 *
 * Every column comes from the digests: the clock of any state (the first pick timer, the
 * review or deck-building clock, a paused pod's time left), the offline count (the server
 * reads presence every 10 s for the whole event) and the controls (Start, Pause or Resume by
 * the pod's state). The panel (the server's render of every pod) is fetched only once after
 * "changed" with pod null (pods seated or removed, settings changed; live.js), and, by
 * live.js, every 5 s while the socket is down (the digests then stop). After a panel swap the
 * rows are the server's; with the socket up each is drawn again from its digest (the newest
 * the page has), so the columns always come from the same source.
 *
 * Where the digest says less than the server's first render: "pick" is the pick the pod's
 * slowest seat is on (the server shows a range, "3–5"); "holding up" lists the seats holding
 * two or more packs (the server also flags a seat whose next player sits idle, and how long
 * it is over its timer). A panel swap shows the server's words until the rows are re-drawn.
 *
 * Paper pods (<tr data-paper>) keep the server's cells: a digest does not describe a paper
 * call (and a paper draft's dashboard does not draw from state at all; see dashboard.html).
 *
 * window.DashboardState: receive(frame), invalidate(), digests().
 */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };

  var root = document.getElementById("live");
  if (!root || root.getAttribute("data-draw") !== "state" || root.getAttribute("data-view") !== "dashboard") return;

  var HOLDING_SHOWN = 3;  // the template shows the first three, then "+N more"

  var digests = {};  // pod id -> its digest (every field, as merged from the summaries)

  // --- text ------------------------------------------------------------------------------

  var words = window.DraftWords;  // draftwords.js: escaping, placeholders, badge, clocks
  var esc = words.esc;
  var fmt = words.fmt;
  var badge = words.badge;
  var clockText = words.clockText;


  function now() { return window.Live && window.Live.now ? window.Live.now() : Date.now(); }

  // --- cells -------------------------------------------------------------------------------

  function roundCell(d) {
    return d.round ? esc(fmt(gettext("%(round)s of 3"), { round: d.round })) : "—";
  }

  function pickCell(d) {
    return d.pick === null || d.pick === undefined ? "—" : esc(d.pick);
  }

  // The clock the digest names (drafts.dashboards.shown_clock), as the server's {% countdown %}
  // draws it: ticking to its deadline, or frozen at the time a paused pod has left.
  var CLOCK_LABELS = { pick: gettext("Next pick timer"), review: gettext("Review"), deck_building: gettext("Deck building") };

  function clockCell(d) {
    var label = CLOCK_LABELS[d.clock];
    if (!label) return "—";
    var head = '<span class="muted small">' + esc(label) + "</span> ";
    if (d.deadline) {
      var deadline = Date.parse(d.deadline);
      return head + '<span class="countdown" role="timer" data-deadline="' + esc(d.deadline) + '" aria-label="' +
        esc(label) + '">' + esc(isNaN(deadline) ? "" : clockText(deadline - now())) + "</span>";
    }
    if (d.frozen !== null && d.frozen !== undefined) {
      return head + '<span class="countdown frozen" role="timer" data-frozen="1" aria-label="' + esc(label) + '">' +
        esc(clockText(d.frozen)) + "</span>";
    }
    return head + '<span class="countdown none">' + esc(gettext("no timer")) + "</span>";
  }

  // The seats holding two or more packs, most packs first (as the server sorts them).
  function holders(d) {
    if (d.state !== "drafting") return [];  // the server's rule: only a drafting pod is held up
    return (d.holding || []).slice().sort(function (a, b) { return b[1] - a[1] || a[0] - b[0]; });
  }

  // A seat without a player: the digest names it as drafts.state does, in English.
  function seatName(name) { return name === "Automatic drafter" ? gettext("Automatic drafter") : name; }

  function holdingCell(d) {
    var rows = holders(d);
    if (!rows.length) return '<span class="muted">' + esc(gettext("nobody")) + "</span>";
    var out = rows.slice(0, HOLDING_SHOWN).map(function (r) {
      var text = fmt(ngettext("Seat %(number)s %(name)s: %(counter)s pack", "Seat %(number)s %(name)s: %(counter)s packs", r[1]),
        { number: r[0] + 1, name: seatName((d.names || [])[r[0]] || ""), counter: r[1] });
      return '<span class="holdup"><span aria-hidden="true">⚑</span> ' + esc(text) + "</span>";
    }).join("");
    if (rows.length > HOLDING_SHOWN) {
      out += ' <span class="muted small">' +
        esc(fmt(gettext("+%(holding_up)s more"), { holding_up: rows.length - HOLDING_SHOWN })) + "</span>";
    }
    return out;
  }

  // The HTML each cell was last given (by the server or here): a cell is written on a change.
  function setCell(row, name, html) {
    var cell = row.querySelector('[data-cell="' + name + '"]');
    if (!cell) return false;
    if (cell.__drawn === html) return false;
    if (cell.__drawn === undefined && cell.innerHTML === html) { cell.__drawn = html; return false; }
    cell.innerHTML = html;
    cell.__drawn = html;
    return true;
  }

  // Once a pod has started, its Start form (drawn by the server) would only be refused.
  function dropStart(row, d) {
    if (d.state === "not_started") return;
    var links = row.querySelector('[data-cell="links"]');
    if (!links) return;
    links.querySelectorAll('form[action$="/start/"]').forEach(function (form) {
      var hadFocus = form.contains(document.activeElement);
      form.parentNode.removeChild(form);
      if (hadFocus) {
        var open = links.querySelector("a");
        if (open) open.focus({ preventScroll: true });
      }
    });
  }

  // The pod's Pause / Resume forms (both drawn by the server): show the one its state allows.
  var RUNNING = { drafting: true, reviewing: true, deck_building: true };

  function showControls(row, d) {
    row.querySelectorAll("form[data-when]").forEach(function (form) {
      var want = form.getAttribute("data-when") === "paused" ? d.state === "paused" : RUNNING[d.state] === true;
      if (form.hidden === !want) return;
      var hadFocus = form.contains(document.activeElement);
      form.hidden = !want;
      if (hadFocus) {
        var next = row.querySelector("form[data-when]:not([hidden]) button") || row.querySelector('[data-cell="links"] a');
        if (next) next.focus({ preventScroll: true });
      }
    });
  }

  function draw(row, d) {
    var changed = false;
    if ("state" in d) {
      changed = setCell(row, "state", badge(d.state, d.paused_from)) || changed;
      changed = setCell(row, "round", roundCell(d)) || changed;
      changed = setCell(row, "pick", pickCell(d)) || changed;
      changed = setCell(row, "clock", clockCell(d)) || changed;
      changed = setCell(row, "holding", holdingCell(d)) || changed;
    }
    if ("offline" in d) changed = setCell(row, "offline", esc(d.offline)) || changed;
    if (!("state" in d)) return changed;
    row.classList.toggle("has-holdup", holders(d).length > 0);
    dropStart(row, d);
    showControls(row, d);
    return changed;
  }

  function rowOf(podId) {
    return document.querySelector('#live-panel tr[data-pod="' + podId + '"]:not([data-paper])');
  }

  function drawAll() {
    Object.keys(digests).forEach(function (id) {
      var row = rowOf(id);
      if (row) draw(row, digests[id]);
    });
    if (window.Live && window.Live.tick) window.Live.tick();
  }

  // --- frames ------------------------------------------------------------------------------

  function receive(message) {
    if (!message || message.type !== "summary" || !message.pods) return;
    message.pods.forEach(function (fields) {
      var id = String(fields.id);
      var known = digests[id] || (digests[id] = {});
      Object.keys(fields).forEach(function (key) { known[key] = fields[key]; });
      // "due": seconds after the frame's time ("at", the server's clock) when the first pick
      // clock runs out; drawn as the countdown's deadline.
      if ("due" in fields) {
        known.deadline = fields.due === null ? null : new Date(message.at + fields.due * 1000).toISOString();
      }
      var row = rowOf(id);
      if (row) draw(row, known);
    });
    if (window.Live && window.Live.tick) window.Live.tick();
  }

  window.DashboardState = {
    receive: receive,
    // After a panel swap the rows are the server's again: draw each from its digest while the
    // socket is up (when it is down the digests are older than the panel).
    invalidate: function () {
      if (window.Live && window.Live.isSocketOpen && !window.Live.isSocketOpen()) return;
      drawAll();
    },
    digests: function () { return digests; },
  };
  if (window.Live && window.Live.takeEarly) window.Live.takeEarly().forEach(receive);
})();
