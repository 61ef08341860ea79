/* The browser deck builder (decks/my_deck.html, limited events): the pool as cards, moved
 * between the deck and the sideboard by click, drag or keyboard (each card is a button), basic
 * lands by count, live counts (40-card minimum, MTR 7.1), mana curve, colour sources, and the
 * DFC check (R9-R14) asked of the same stateless validation the server runs
 * (POST /api/decks/validate). It only sets the form's own inputs (main-<card id>, basic-<name>):
 * saving is the page's form, registered by the same service as without script. */
(function () {
  "use strict";
  var dataNode = document.getElementById("deck-builder-data");
  var fieldset = document.querySelector(".deck-builder");
  if (!dataNode || !fieldset) return;
  var data = JSON.parse(dataNode.textContent);
  var gettext = window.gettext || function (t) { return t; };
  var W = window.DraftWords || {};
  var esc = W.esc || function (v) { return String(v == null ? "" : v).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; }); };
  var fmt = W.fmt || function (t, v) { return t.replace(/%\(([a-z_0-9]+)\)s/g, function (a, n) { return v[n] == null ? "" : String(v[n]); }); };
  var form = fieldset.form || fieldset.closest("form");
  var table = fieldset.querySelector("table");
  var COLORS = { W: gettext("White"), U: gettext("Blue"), B: gettext("Black"), R: gettext("Red"), G: gettext("Green") };
  var cards = data.cards.map(function (c) {
    c.input = document.getElementById("main-" + c.id);
    c.main = c.input ? Math.max(0, Math.min(c.count, parseInt(c.input.value, 10) || 0)) : c.main;
    return c;
  });
  var byId = {};
  cards.forEach(function (c) { byId[c.id] = c; });
  var basics = data.basics.map(function (b) { b.input = document.getElementById("basic-" + b.name); return b; });
  var grouping = "color";

  // --- the page's structure ------------------------------------------------------------
  var root = document.createElement("div");
  root.className = "db";
  root.innerHTML =
    '<p class="muted" id="db-help">' + esc(gettext("Press a card (click, Enter or Space) to move one copy between the deck and the sideboard, or drag it. Basic lands are added by count below.")) + "</p>" +
    '<div class="db-tools"><label for="db-group">' + esc(gettext("Group by")) + '</label> <select id="db-group">' +
    '<option value="color">' + esc(gettext("Colour")) + '</option><option value="mv">' + esc(gettext("Mana value")) + "</option></select>" +
    ' <output id="db-counts" aria-live="polite"></output></div>' +
    '<div class="db-zones">' +
    '<section class="db-zone" data-zone="main" aria-labelledby="db-main-title"><h3 id="db-main-title"></h3><div class="db-groups"></div></section>' +
    '<section class="db-zone" data-zone="side" aria-labelledby="db-side-title"><h3 id="db-side-title"></h3><div class="db-groups"></div></section>' +
    "</div>" +
    '<div class="db-stats"><section aria-labelledby="db-curve-title"><h3 id="db-curve-title">' + esc(gettext("Mana curve")) + '</h3><ol class="db-curve" id="db-curve"></ol></section>' +
    '<section aria-labelledby="db-sources-title"><h3 id="db-sources-title">' + esc(gettext("Colour sources")) + '</h3><ul class="db-sources" id="db-sources"></ul></section></div>' +
    '<section class="db-check" aria-labelledby="db-check-title"><h3 id="db-check-title">' + esc(gettext("Deck check (R9-R14)")) + '</h3><div id="db-check" aria-live="polite"></div></section>';
  table.parentNode.insertBefore(root, table);
  table.hidden = true; // the inputs stay in the form; the builder sets them
  var legendHelp = fieldset.querySelector("p.muted");
  if (legendHelp) legendHelp.hidden = true;

  function mainTotal() {
    var n = 0;
    cards.forEach(function (c) { n += c.main; });
    basics.forEach(function (b) { n += b.input ? Math.max(0, parseInt(b.input.value, 10) || 0) : 0; });
    return n;
  }
  function sideTotal() {
    var n = 0;
    cards.forEach(function (c) { n += c.count - c.main; });
    return n;
  }

  function groupOf(c) {
    if (grouping === "mv") {
      if (c.land) return [99, gettext("Lands")];
      var mv = Math.min(7, Math.floor(c.mv || 0));
      return [mv, mv >= 7 ? gettext("Mana value 7 or more") : fmt(gettext("Mana value %(mv)s"), { mv: mv })];
    }
    if (c.land) return [9, gettext("Lands")];
    if (!c.colors) return [7, gettext("Colourless")];
    if (c.colors.length > 1) return [6, gettext("Multicoloured")];
    return ["WUBRG".indexOf(c.colors), COLORS[c.colors]];
  }

  function cardButton(c, zone, n) {
    var to = zone === "main" ? gettext("to the sideboard") : gettext("to the deck");
    var shown = c.local && c.local !== c.name ? c.local : c.name;
    return '<li><button type="button" class="db-card" draggable="true" data-card="' + c.id + '" data-zone="' + zone + '">' +
      (c.image ? '<img src="' + esc(c.image) + '" alt="">' : "") +
      '<span class="db-text"><span class="db-count">' + n + "×</span> <strong>" + esc(shown) + "</strong>" +
      (shown !== c.name ? ' <span class="db-english" lang="en">' + esc(c.name) + "</span>" : "") +
      '<span class="db-line">' + (c.cost ? '<span class="mana">' + esc(c.cost) + "</span> · " : "") + esc(c.type) +
      (c.dfc ? ' · <span class="tag">' + esc(gettext("DFC")) + "</span>" : "") + "</span>" +
      '<span class="visually-hidden"> ' + esc(fmt(gettext("Move one %(to)s"), { to: to })) + "</span></span></button></li>";
  }

  function drawZone(zone) {
    var section = root.querySelector('.db-zone[data-zone="' + zone + '"]');
    var groups = {};
    cards.forEach(function (c) {
      var n = zone === "main" ? c.main : c.count - c.main;
      if (!n) return;
      var g = groupOf(c);
      (groups[g[1]] = groups[g[1]] || { order: g[0], name: g[1], items: [] }).items.push([c, n]);
    });
    var list = Object.keys(groups).map(function (k) { return groups[k]; }).sort(function (a, b) { return a.order - b.order; });
    var html = list.map(function (g) {
      var count = g.items.reduce(function (s, it) { return s + it[1]; }, 0);
      g.items.sort(function (a, b) { return (a[0].mv - b[0].mv) || (a[0].name < b[0].name ? -1 : 1); });
      return '<div class="db-group"><h4>' + esc(g.name) + " (" + count + ')</h4><ul class="db-cards">' +
        g.items.map(function (it) { return cardButton(it[0], zone, it[1]); }).join("") + "</ul></div>";
    }).join("");
    section.querySelector(".db-groups").innerHTML = html || '<p class="muted">' + esc(gettext("No cards here.")) + "</p>";
  }

  function drawStats() {
    var total = mainTotal();
    document.getElementById("db-main-title").textContent = fmt(gettext("Deck (%(count)s)"), { count: total });
    document.getElementById("db-side-title").textContent = fmt(gettext("Sideboard (%(count)s)"), { count: sideTotal() });
    var missing = data.min - total;
    var counts = document.getElementById("db-counts");
    counts.textContent = missing > 0
      ? fmt(gettext("%(count)s cards in the deck: %(missing)s more to reach %(min)s (MTR 7.1)."), { count: total, missing: missing, min: data.min })
      : fmt(gettext("%(count)s cards in the deck: at least %(min)s, ready to save."), { count: total, min: data.min });
    counts.className = missing > 0 ? "db-short" : "db-ok";
    var curve = [0, 0, 0, 0, 0, 0, 0, 0];
    var sources = { W: 0, U: 0, B: 0, R: 0, G: 0 };
    cards.forEach(function (c) {
      if (!c.main) return;
      if (c.land) {
        (c.identity || "").split("").forEach(function (k) { if (k in sources) sources[k] += c.main; });
      } else {
        curve[Math.min(7, Math.floor(c.mv || 0))] += c.main;
      }
    });
    basics.forEach(function (b) { sources[b.color] += b.input ? Math.max(0, parseInt(b.input.value, 10) || 0) : 0; });
    var top = Math.max.apply(null, curve.concat([1]));
    document.getElementById("db-curve").innerHTML = curve.map(function (n, mv) {
      return '<li><span class="db-mv">' + (mv === 7 ? "7+" : mv) + '</span><span class="db-bar" style="width:' + Math.round(100 * n / top) + '%"></span><span class="db-n">' +
        esc(fmt(gettext("%(count)s cards"), { count: n })) + "</span></li>";
    }).join("");
    document.getElementById("db-sources").innerHTML = "WUBRG".split("").map(function (k) {
      return "<li>" + esc(COLORS[k]) + ": " + sources[k] + "</li>";
    }).join("");
  }

  function zoneButtons(zone) {
    return Array.prototype.slice.call(root.querySelectorAll('.db-card[data-zone="' + zone + '"]'));
  }

  // Keyboard: focus stays where the player was, so Enter again moves the next card: the same
  // card while copies remain, else the card now at that place in the same zone.
  function draw(focusId, focusZone) {
    var index = focusId != null ? zoneButtons(focusZone).findIndex(function (b) { return b.getAttribute("data-card") === String(focusId); }) : -1;
    drawZone("main");
    drawZone("side");
    drawStats();
    if (focusId != null) {
      var same = zoneButtons(focusZone);
      var again = root.querySelector('.db-card[data-card="' + focusId + '"][data-zone="' + focusZone + '"]') ||
        same[Math.min(Math.max(index, 0), same.length - 1)] || root.querySelector('.db-card[data-card="' + focusId + '"]');
      if (again) again.focus();
    }
    scheduleCheck();
  }

  function move(id, from) {
    var c = byId[id];
    if (!c) return false;
    if (from === "main" && c.main > 0) c.main -= 1;
    else if (from === "side" && c.main < c.count) c.main += 1;
    else return false;
    if (c.input) c.input.value = c.main;
    return true;
  }

  root.addEventListener("click", function (e) {
    var btn = e.target.closest(".db-card");
    if (!btn) return;
    var id = btn.getAttribute("data-card"), zone = btn.getAttribute("data-zone");
    if (move(id, zone)) draw(id, zone);
  });
  // An image that does not load leaves the card's text alone.
  root.addEventListener("error", function (e) { if (e.target.tagName === "IMG") e.target.remove(); }, true);
  root.addEventListener("load", function (e) { if (e.target.tagName === "IMG") e.target.classList.add("db-loaded"); }, true);
  root.addEventListener("dragstart", function (e) {
    var btn = e.target.closest(".db-card");
    if (!btn) return;
    e.dataTransfer.setData("text/plain", btn.getAttribute("data-card") + ":" + btn.getAttribute("data-zone"));
    e.dataTransfer.effectAllowed = "move";
  });
  root.querySelectorAll(".db-zone").forEach(function (section) {
    section.addEventListener("dragover", function (e) { e.preventDefault(); section.classList.add("db-over"); });
    section.addEventListener("dragleave", function () { section.classList.remove("db-over"); });
    section.addEventListener("drop", function (e) {
      e.preventDefault();
      section.classList.remove("db-over");
      var parts = (e.dataTransfer.getData("text/plain") || "").split(":");
      if (parts.length === 2 && parts[1] !== section.getAttribute("data-zone") && move(parts[0], parts[1])) draw();
    });
  });
  document.getElementById("db-group").addEventListener("change", function (e) { grouping = e.target.value; draw(); });
  basics.forEach(function (b) { if (b.input) b.input.addEventListener("input", function () { drawStats(); scheduleCheck(); }); });

  // --- the live check: the server's own validation, nothing stored ----------------------
  var sleeves = form.querySelector('[name="opaque_sleeves"]');
  var checklistBox = form.querySelector('[name="checklist_lines"]');
  if (sleeves) sleeves.addEventListener("change", scheduleCheck);
  if (checklistBox) checklistBox.addEventListener("input", scheduleCheck);

  function checklistCards() {
    var out = [];
    (checklistBox ? checklistBox.value : "").split("\n").forEach(function (line) {
      var m = line.trim().match(/^(?:(\d+)\s*[xX]?\s+)?([^:#]+?)\s*:\s*(.*)$/);
      if (!m) return;
      var marked = m[3].split(";").map(function (s) { return s.trim(); }).filter(Boolean);
      for (var i = 0; i < Math.min(100, parseInt(m[1] || "1", 10)); i++) out.push({ checklist: m[2].trim(), marked: marked });
    });
    return out;
  }

  var timer = null, serial = 0;
  function scheduleCheck() {
    clearTimeout(timer);
    timer = setTimeout(check, 400);
  }
  function check() {
    var main = [], side = [], pool = [];
    cards.forEach(function (c) {
      pool.push({ card_id: c.id, count: c.count });
      if (c.main) main.push({ card_id: c.id, count: c.main });
      if (c.count - c.main) side.push({ card_id: c.id, count: c.count - c.main });
    });
    basics.forEach(function (b) {
      var n = b.input ? Math.max(0, parseInt(b.input.value, 10) || 0) : 0;
      if (n) main.push({ name: b.name, count: n });
    });
    var out = document.getElementById("db-check");
    if (!main.length) { out.innerHTML = '<p class="muted">' + esc(gettext("Add cards to the deck to check it.")) + "</p>"; return; }
    var mine = ++serial;
    fetch(data.validate, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ format: data.format, main: main, sideboard: side, pool: pool, opaque_sleeves: !!(sleeves && sleeves.checked), checklist_cards: checklistCards() }),
    }).then(function (r) { return r.json(); }).then(function (report) {
      if (mine !== serial) return; // an older answer after a newer change
      var problems = (report.errors || []).map(function (p) { return '<li class="deck-error-line" data-code="' + esc(p.code) + '">' + esc(p.message) + "</li>"; });
      var warnings = (report.warnings || []).map(function (p) { return '<li class="muted">' + esc(p.message) + "</li>"; });
      out.innerHTML = report.valid
        ? '<p class="deck-ok">' + esc(gettext("The deck passes every check.")) + "</p>" + (warnings.length ? "<ul>" + warnings.join("") + "</ul>" : "")
        : "<ul>" + problems.concat(warnings).join("") + "</ul>";
    }).catch(function () {
      if (mine === serial) out.innerHTML = '<p class="muted">' + esc(gettext("The check could not run; saving still checks the deck.")) + "</p>";
    });
  }

  draw();
})();
