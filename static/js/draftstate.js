/* The draft pages drawn from the state their socket pushes (the "state" dialect of
 * drafts/protocol.py): the seat page, the table, the pod page (staff) and the spectator view.
 *
 * live.js keeps the socket and hands over each "snapshot" and "delta" frame. This script
 * keeps the viewer's state ({pod, board, seats}), applies each delta in order (a delta from
 * the version the page is at; one it has already is skipped; after a gap it asks for a new
 * snapshot with "sync" and ignores deltas until it comes), and re-draws each region whose
 * input changed with the same markup as the server's templates (templates/drafts/_seat_panel
 * .html, _board_panel.html, _pod_panel.html, _board.html, _board_seat.html, _card.html,
 * _face.html, _dfc_chip.html), so the page's CSS, its own script (draft.js) and forms work
 * the same on the first (server) paint and after. Cards come as rows of ids; their faces
 * come from the card sheet the page loads once (and the few cards it lacks, once each).
 *
 * Every text goes through Django's JavaScript catalog and is escaped. After a draw the page
 * hears "live:updated" ({regions: [...]}) as it did with panel swaps.
 *
 * window.DraftState: receive(frame), invalidate(), sync(), render(), state(), version(),
 * syncing(), sheet(), and
 * markup helpers for tests (card(row, pickable), region(name)).
 */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var pgettext = window.pgettext || function (context, text) { return text; };

  var root = document.getElementById("live");
  if (!root || root.getAttribute("data-draw") !== "state") return;

  var view = root.getAttribute("data-view") || "board";  // seat | board | spectate | pod
  var seatId = root.getAttribute("data-seat");
  var canAct = root.getAttribute("data-can-act") === "1";
  var myPosition = root.getAttribute("data-my-position");
  myPosition = myPosition === null || myPosition === "" ? null : Number(myPosition);
  var lang = document.documentElement.getAttribute("lang") || "en";
  var MISSING_URL = root.getAttribute("data-missing-cards-url") || "/events/cards/";

  var state = null;
  var version = null;
  var syncing = false;  // asked for a snapshot after a gap: deltas wait for it
  var panelDue = false;  // the pod page: a change the panel's log shows (not a pick)
  var sheet = { cards: {}, printings: {} };
  var sheetUrl = null;
  var sheetLoading = null;
  var asked = {};  // catalogue card ids already asked for (each once)
  var missingLoading = null;
  var drawn = {};  // region -> the input it was last drawn from

  // --- text ------------------------------------------------------------------------------

  var words = window.DraftWords;  // draftwords.js: escaping, placeholders, badge, clocks
  var esc = words.esc;
  var fmt = words.fmt;
  var badge = words.badge;
  var clockText = words.clockText;

  // A translation that carries <strong> (as the server's does): escaped, then only that tag back.
  function rich(text) {
    return esc(text).replace(/&lt;(\/?)strong&gt;/g, "<$1strong>");
  }

  // A translated text, its placeholders filled, escaped (callers write gettext("...") out so
  // that makemessages finds every text).
  function t(text, values) { return esc(values ? fmt(text, values) : text); }
  // A translated plural (ngettext(...)) with %(counter)s and the other placeholders filled.
  function nt(text, count, values) {
    var all = { counter: count };
    Object.keys(values || {}).forEach(function (key) { all[key] = values[key]; });
    return fmt(text, all);
  }

  function capfirst(text) { text = text || ""; return text.charAt(0).toUpperCase() + text.slice(1); }

  var RARITY_LETTERS = { common: "C", uncommon: "U", rare: "R", mythic: "M", special: "S", bonus: "B" };
  function rarityLetter(rarity) {
    var key = (rarity || "").toLowerCase();
    return RARITY_LETTERS[key] || ((rarity || "?").charAt(0).toUpperCase());
  }
  function rarityText(rarity) {
    var words = {
      common: gettext("Common"),
      uncommon: gettext("Uncommon"),
      rare: gettext("Rare"),
      mythic: gettext("Mythic rare"),
      special: gettext("Special"),
      bonus: gettext("Bonus"),
    };
    return words[rarity] || rarity || "—";
  }

  function directionText(direction) {
    if (direction === "left") return gettext("left");
    if (direction === "right") return gettext("right");
    return direction || "";
  }


  function effective(pod) { return pod.state === "paused" ? pod.paused_from : pod.state; }

  // --- clocks ------------------------------------------------------------------------------

  function parseTime(value) {
    if (!value) return NaN;
    return Date.parse(String(value).replace(/(\.\d{3})\d+/, "$1"));
  }
  function serverNow() { return window.Live && window.Live.now ? window.Live.now() : Date.now(); }

  // templatetags countdown: a running clock (a deadline) or a frozen remainder.
  function countdown(deadline, remainingMs, label) {
    var aria = label ? ' aria-label="' + esc(label) + '"' : "";
    var at = parseTime(deadline);
    if (!isNaN(at)) {
      return '<span class="countdown" role="timer" data-deadline="' + esc(new Date(at).toISOString()) + '"' + aria + ">" +
        esc(clockText(at - serverNow())) + "</span>";
    }
    if (remainingMs !== null && remainingMs !== undefined) {
      return '<span class="countdown frozen" role="timer" data-frozen="1"' + aria + ">" + esc(clockText(remainingMs)) + "</span>";
    }
    return '<span class="countdown none">' + t(gettext("no timer")) + "</span>";
  }

  // drafts.views.common.clock_for: what the seat's clock shows.
  function clockFor(pod, head) {
    var eff = effective(pod);
    var paused = pod.state === "paused";
    var deadline = null;
    var remaining = null;
    var label = "";
    if (eff === "drafting" && head) {
      deadline = head.deadline;
      remaining = head.remaining_ms;
      label = deadline || (remaining !== null && remaining !== undefined) ? gettext("Pick timer") : "";
    } else if (eff === "reviewing") {
      label = gettext("Review time left");
      deadline = pod.review_deadline;
    } else if (eff === "deck_building") {
      label = gettext("Deck-building time left");
      deadline = pod.deck_building_deadline;
    }
    if (paused) {
      if (eff === "reviewing" || eff === "deck_building") remaining = pod.paused_remaining_ms;
      deadline = null;
    }
    return { label: label, deadline: deadline, remaining_ms: deadline ? null : remaining, paused: paused };
  }

  // --- cards -------------------------------------------------------------------------------

  // drafts.views.common.present_card, from a row [id, card id, printing id, rarity, foil, is_dfc].
  function present(row) {
    var info = sheet.cards[String(row[1])] || { name: gettext("Unknown card"), faces: [] };
    var faces = info.faces && info.faces.length ? info.faces : [{ name: info.name || "?" }];
    var images = (row[2] !== null && row[2] !== undefined && sheet.printings[String(row[2])]) || {};
    var isDfc = !!row[5];
    var front;
    var back = null;
    if (isDfc && faces.length > 1) {
      front = { label: gettext("Front face"), faces: faces.slice(0, 1), image: images.front || "" };
      back = {
        label: info.layout === "meld" ? gettext("Melds into") : gettext("Back face"),
        faces: faces.slice(1),
        image: images.back || "",
      };
    } else {
      front = { label: "", faces: faces, image: images.front || "" };
    }
    return {
      id: row[0], name: info.name || "?", local_name: info.local_name || "", rarity: row[3], foil: !!row[4],
      is_dfc: isDfc, front: front, back: back,
    };
  }

  function nameHtml(localName, name) {
    if (localName) {
      return '<span lang="' + esc(lang) + '">' + esc(localName) + '</span> <span class="face-name-en" lang="en">' + esc(name) + "</span>";
    }
    return esc(name);
  }

  function present_(value) { return value !== null && value !== undefined && value !== ""; }

  // _face.html
  function faceHtml(side) {
    return side.faces.map(function (f) {
      var h = '<div class="face-text">\n  <p class="face-head"><span class="face-name">' + nameHtml(f.local_name, f.name) + "</span>";
      if (f.mana_cost) {
        h += ' <span class="mana" aria-label="' + t(gettext("mana cost %(cost)s"), { cost: f.mana_cost }) + '">' + esc(f.mana_cost) + "</span>";
      }
      h += "</p>\n";
      if (f.type_line) h += '  <p class="face-type">' + esc(f.type_line) + "</p>\n";
      if (f.oracle_text) h += '  <p class="face-oracle">' + esc(f.oracle_text) + "</p>\n";
      if (present_(f.power) || present_(f.toughness)) {
        h += '  <p class="face-pt">' + esc(present_(f.power) ? f.power : "") + "/" + esc(present_(f.toughness) ? f.toughness : "") + "</p>\n";
      } else if (present_(f.loyalty)) {
        h += '  <p class="face-pt">' + t(gettext("Loyalty %(loyalty)s"), { loyalty: f.loyalty }) + "</p>\n";
      }
      return h + "</div>";
    }).join("");
  }

  // _card.html
  function cardHtml(row, pickable) {
    var c = present(row);
    var id = esc(c.id);
    var h = '<article class="card' + (c.is_dfc ? " dfc" : "") + '" id="card-' + id + '" data-card="' + id +
      '" data-name="' + esc(c.local_name || c.name) + '" aria-labelledby="card-' + id + '-name">\n';
    h += '  <h3 class="visually-hidden" id="card-' + id + '-name">' + (c.local_name ? esc(c.local_name) + " — " : "") +
      esc(c.name) + (c.is_dfc ? " " + t(gettext("(double-faced)")) : "") + "</h3>\n";
    h += '  <div class="card-sides">\n    <div class="card-side side-front">\n';
    if (c.is_dfc) h += '      <p class="side-label">' + t(gettext("Front")) + "</p>\n";
    if (c.front.image) h += '      <img class="card-img" src="' + esc(c.front.image) + '" alt="" loading="lazy" decoding="async">\n';
    h += '      <div class="card-text">' + faceHtml(c.front) + "</div>\n    </div>\n";
    if (c.back) {
      h += '    <div class="card-side side-back">\n      <p class="side-label">' + esc(c.back.label) + "</p>\n";
      if (c.back.image) h += '      <img class="card-img" src="' + esc(c.back.image) + '" alt="" loading="lazy" decoding="async">\n';
      h += '      <div class="card-text">' + faceHtml(c.back) + "</div>\n    </div>";
    }
    h += "\n  </div>\n";
    h += '  <div class="card-meta">\n    <span class="rarity rarity-' + esc(c.rarity || "none") + '"><span aria-hidden="true" class="rarity-mark">' +
      esc(rarityLetter(c.rarity)) + "</span> " + esc(rarityText(c.rarity)) + (c.foil ? " " + t(gettext("· foil")) : "") + "</span>\n";
    if (c.is_dfc) {
      h += '    <span class="tag dfc-tag">' + t(gettext("DFC")) + "</span>\n" +
        '    <button type="button" class="flip" aria-pressed="false" aria-controls="card-' + id + '" data-flip>' + t(pgettext("verb", "Flip")) +
        '<span class="visually-hidden"> ' + esc(c.name) + "</span></button>";
    }
    h += "\n  </div>\n";
    if (pickable) {
      h += '  <button type="submit" name="card" value="' + id + '" class="pick-button" id="pick-' + id + '" data-pick="' + id +
        '"><span class="pick-label">' + t(gettext("Pick")) + '</span><span class="visually-hidden"> ' + esc(c.name) + "</span></button>\n";
    }
    return h + "</article>";
  }

  // _dfc_chip.html
  function chipHtml(row) {
    var c = present(row);
    var h = '<li class="dfc-chip"><details id="board-dfc-' + esc(c.id) + '">\n  <summary><span class="dfc-name">' +
      esc(c.front.faces[0].name) + '</span> <span class="muted">//</span> <span class="dfc-name">' +
      esc(c.back && c.back.faces[0] ? c.back.faces[0].name : "") + "</span>" +
      (c.local_name ? ' <span class="native-name" lang="' + esc(lang) + '">(' + esc(c.local_name) + ")</span>" : "") + "</summary>\n";
    h += '  <div class="dfc-faces">\n    <div class="dfc-face"><p class="side-label">' + t(gettext("Front")) + "</p>" + faceHtml(c.front) + "</div>\n";
    if (c.back) h += '    <div class="dfc-face"><p class="side-label">' + esc(c.back.label) + "</p>" + faceHtml(c.back) + "</div>\n";
    return h + "  </div>\n</details></li>";
  }

  // --- the open board ------------------------------------------------------------------------

  function boardSeats() {
    return (state.board.seats || []).slice().sort(function (a, b) { return a.position - b.position; });
  }

  // drafts.views.common.drafting_round: the direction shows while packs go round.
  function boardDirection(pod) {
    if (effective(pod) !== "drafting" || !pod.round) return null;
    return pod.round % 2 === 1 ? "left" : "right";
  }

  // _board_seat.html
  function boardSeatHtml(s, me) {
    var isMe = me !== null && s.position === me;
    var number = s.position + 1;
    var h = '<li class="board-seat' + (isMe ? " is-me" : "") + (s.is_automatic ? " is-auto" : "") + '" value="' + number + '">\n';
    h += '  <h3 class="seat-title"><span class="seat-no">' + t(gettext("Seat %(number)s"), { number: number }) + "</span> " + esc(s.name) +
      (isMe ? ' <span class="tag you">' + t(gettext("you")) + "</span>" : "") +
      (s.is_automatic ? ' <span class="tag">' + t(gettext("automatic")) + "</span>" : "") + "</h3>\n";
    var packs = s.packs || [];
    h += '  <p class="seat-packs">' + (packs.length
      ? esc(nt(ngettext("Holds %(counter)s pack (%(pack_sizes)s cards)", "Holds %(counter)s packs (%(pack_sizes)s cards)", packs.length), packs.length,
        { pack_sizes: packs.map(function (p) { return p.cards_left; }).join(", ") }))
      : t(gettext("Holds no pack"))) + "</p>\n";
    packs.forEach(function (p) {
      if (!p.dfcs || !p.dfcs.length) return;
      h += '  <p class="dfc-heading">' + t(gettext("DFCs in a held pack (%(cards_left)s cards)"), { cards_left: p.cards_left }) + "</p>\n";
      h += '  <ul class="dfc-list">' + p.dfcs.map(chipHtml).join("") + "</ul>\n";
    });
    if (s.pile_dfcs !== null && s.pile_dfcs !== undefined) {
      h += '  <p class="dfc-heading">' + t(gettext("DFCs drafted")) + (s.pile_dfcs.length ? "" : t(gettext(": none yet"))) + "</p>\n";
      if (s.pile_dfcs.length) h += '  <ul class="dfc-list">' + s.pile_dfcs.map(chipHtml).join("") + "</ul>\n";
    }
    return h + "</li>";
  }

  // _board.html
  function boardHtml(me) {
    var seats = boardSeats();
    var half = Math.floor((seats.length + 1) / 2);
    var top = seats.slice(0, half);
    var bottom = seats.slice(half).reverse();
    var direction = boardDirection(state.pod);
    var h = '<div class="table-board seats-' + seats.length + '">\n';
    h += '  <ol class="seat-row seat-row-top" aria-label="' + t(gettext("Seats along the top of the table")) + '">\n    ' +
      top.map(function (s) { return boardSeatHtml(s, me); }).join("") + "\n  </ol>\n";
    h += '  <div class="table-middle" aria-hidden="true">\n    <span class="table-label">' + t(gettext("Table")) + "</span>\n    ";
    if (direction === "left") h += '<span class="pass-dir">' + t(gettext("Passing left ⟳ (seat 1 → 2 → 3…)")) + "</span>";
    else if (direction === "right") h += '<span class="pass-dir">' + t(gettext("Passing right ⟲ (seat 3 → 2 → 1…)")) + "</span>";
    h += "\n  </div>\n";
    h += '  <ol class="seat-row seat-row-bottom" aria-label="' + t(gettext("Seats along the bottom of the table")) + '">\n    ' +
      bottom.map(function (s) { return boardSeatHtml(s, me); }).join("") + "\n  </ol>\n</div>\n";
    if (direction) h += '<p class="visually-hidden">' + t(gettext("Packs pass %(direction)s this round."), { direction: directionText(direction) }) + "</p>\n";
    var over = effective(state.pod);
    if (!state.board.piles_open && (over === "deck_building" || over === "done")) h += '<p class="muted board-note">' + t(gettext("Drafted cards are private again now that the draft is over.")) + "</p>\n";
    return h;
  }

  function boardTotals() {
    var packs = 0;
    var cards = 0;
    (state.board.seats || []).forEach(function (s) {
      (s.packs || []).forEach(function (p) { packs += 1; cards += p.cards_left; });
    });
    return { packs: packs, cards: cards };
  }

  // --- the seat page (_seat_panel.html) ---------------------------------------------------------

  function mySeat() { return state && seatId ? state.seats[String(seatId)] || null : null; }

  function csrfInput() {
    var input = document.querySelector("#csrf [name=csrfmiddlewaretoken]");
    return input ? '<input type="hidden" name="csrfmiddlewaretoken" value="' + esc(input.value) + '">' : "";
  }

  function url(name) { return esc(root.getAttribute("data-" + name + "-url") || ""); }

  function seatStatusHtml(seat) {
    var pod = state.pod;
    var eff = effective(pod);
    var queue = seat ? seat.queue || [] : [];
    var head = queue[0] || null;
    var paused = pod.state === "paused";
    var h = '<section class="draft-status' + (paused ? " is-paused" : "") + '" aria-label="' + t(gettext("Draft status")) + '">\n    <div class="status-main">\n';
    h += '      <p class="status-state">' + badge(pod.state, pod.paused_from);
    if (pod.round) {
      h += ' <span class="status-round">' + t(gettext("Round %(round)s of 3"), { round: pod.round });
      if (head) h += " " + t(gettext("· pick %(pick_number)s"), { pick_number: head.pick_number });
      if (pod.direction && eff === "drafting") h += " " + t(gettext("· passing %(direction)s"), { direction: directionText(pod.direction) });
      h += "</span>";
    }
    h += "</p>\n";
    if (eff === "drafting") {
      h += '      <p class="status-queue" data-queue="' + queue.length + '">';
      if (head) {
        var waiting = Math.max(0, queue.length - 1);
        h += waiting
          ? rich(nt(ngettext("<strong>%(counter)s</strong> more pack waiting after this one", "<strong>%(counter)s</strong> more packs waiting after this one", waiting), waiting))
          : t(gettext("No other pack waiting"));
      } else {
        h += t(gettext("Waiting for a pack"));
      }
      h += "</p>\n";
    }
    h += "    </div>\n";
    var clock = clockFor(pod, head);
    if (clock.label) {
      h += '    <div class="status-clock"><span class="clock-label">' + esc(clock.label) + (clock.paused ? " " + t(gettext("(paused)")) : "") +
        "</span> " + countdown(clock.deadline, clock.remaining_ms, clock.label) + "</div>\n";
    } else if (eff === "drafting" && head && !pod.pick_timer) {
      h += '    <div class="status-clock"><span class="clock-label">' + t(gettext("No pick timer")) + "</span></div>";
    }
    return h + "  </section>\n";
  }

  // The organiser gave the player's seat to an automatic drafter: it picks, the player watches.
  function automatic(seat) { return canAct && !!(seat && seat.info && seat.info.is_automatic); }

  function seatMainHtml(seat) {
    var pod = state.pod;
    var eff = effective(pod);
    var info = (seat && seat.info) || {};
    var queue = seat ? seat.queue || [] : [];
    var head = queue[0] || null;
    var pile = seat ? seat.pile || [] : [];
    var paused = pod.state === "paused";
    var canPick = canAct && !automatic(seat) && pod.state === "drafting" && !!head;
    var h = "";
    if (automatic(seat) && eff !== "deck_building" && eff !== "done") {
      h = '<section class="empty-state live-empty automatic-seat" id="automatic-seat"><h2 tabindex="-1">' + t(gettext("Your seat is now drafted automatically")) + "</h2><p>" +
        t(gettext("The organiser gave your seat to an automatic drafter: it picks for you as soon as a pack reaches the seat, so you no longer pick or order your pile here.")) + "</p><p>" +
        t(gettext("Your picks so far stay in the seat's pile and the drafter's picks join them. When the draft ends, that pile is your pool: you can still build and register your deck from it. If this is a mistake, ask the organiser to hand the seat back to you.")) +
        "</p></section>";
    } else if (pod.state === "not_started") {
      h = '<section class="empty-state live-empty"><h2 tabindex="-1">' + t(gettext("The draft has not started yet")) + "</h2><p>" +
        t(gettext("Stay on this page: your first pack appears here as soon as the organiser starts pod %(number)s."), { number: pod.number }) + "</p></section>";
    } else if (eff === "drafting" && head) {
      h = '<form method="post" action="' + url("pick") + '" class="pack-form' + (paused ? " is-paused" : "") + '" id="pack-form" data-pack="' + esc(head.pack_id) + '">\n';
      h += "    " + csrfInput() + '<input type="hidden" name="pack" value="' + esc(head.pack_id) + '">\n';
      h += '    <div class="pack-head">\n      <h2 id="pack-title" tabindex="-1">' +
        (canAct ? t(gettext("Your pack")) : t(gettext("Pack in front of %(name)s"), { name: info.name })) + " " +
        esc(nt(ngettext("· pick %(pick_number)s · %(counter)s card", "· pick %(pick_number)s · %(counter)s cards", head.cards_left), head.cards_left, { pick_number: head.pick_number })) + "</h2>\n";
      if (canPick) {
        h += '      <div class="pick-position">\n        <label for="pick-position">' + t(gettext("Put my pick")) + '</label>\n        <select name="position" id="pick-position">\n';
        h += '          <option value="">' + t(gettext("at the end of my pile")) + "</option>\n";
        if (pile.length) h += '          <option value="0">' + t(gettext("at the top of my pile")) + "</option>\n";
        h += "          ";
        pile.forEach(function (row, index) {
          if (index === pile.length - 1) return;
          h += '<option value="' + (index + 1) + '">' + t(gettext("after %(name)s"), { name: present(row).name }) + "</option>";
        });
        h += "\n        </select>\n      </div>";
      }
      h += "\n    </div>\n";
      if (paused) {
        h += '    <p class="notice" role="status"><strong>' + t(gettext("Paused.")) + "</strong> " +
          t(gettext("The organiser paused the pod; your timer is frozen and picks resume with the pod.")) + "</p>\n";
      } else if (canPick) {
        h += '    <p class="help" id="pick-help">' + t(gettext("Tap or click a card, then")) + " <strong>" + t(gettext("Confirm pick")) + "</strong> " +
          t(gettext("(or double-click it).")) + '<span class="kbd-help"> ' + t(gettext("Keys:")) + " <kbd>←</kbd> <kbd>→</kbd> " + t(gettext("choose,")) +
          " <kbd>" + t(gettext("Enter")) + "</kbd> " + t(gettext("pick then confirm,")) + " <kbd>F</kbd> " + t(gettext("flip,")) + " <kbd>" + t(gettext("Esc")) + "</kbd> " +
          t(gettext("cancel,")) + " <kbd>1</kbd>–<kbd>9</kbd> " + t(gettext("choose a card by number.")) + "</span></p>\n";
      }
      h += '    <ul class="pack-grid" aria-labelledby="pack-title">\n      ' +
        (head.cards || []).map(function (row) { return "<li>" + cardHtml(row, canPick) + "</li>"; }).join("") + "\n    </ul>\n";
      if (canPick && !paused) {
        h += '    <div class="pick-bar" id="pick-bar" hidden><span aria-live="polite">' + t(gettext("Selected:")) +
          ' <strong class="pick-bar-name"></strong></span> <span class="pick-bar-buttons"><button type="button" class="button primary" data-confirm-pick>' +
          t(gettext("Confirm pick")) + '</button> <button type="button" class="button" data-cancel-pick>' + t(gettext("Cancel")) + "</button></span></div>\n";
      }
      h += "  </form>";
    } else if (eff === "drafting") {
      h = '<section class="empty-state live-empty"><h2 tabindex="-1">' + t(gettext("Waiting for the next pack")) + "</h2><p>" +
        t(gettext("Your neighbour is still picking. The pack appears here the moment it is passed to you.")) + "</p></section>";
    } else if (eff === "reviewing") {
      var clock = clockFor(pod, null);
      h = '<section class="review panel">\n    <h2 tabindex="-1">' + t(gettext("Round %(round)s is over: review your pile"), { round: pod.round }) + "</h2>\n";
      h += "    <p>" + t(gettext("Look through your picks below. The next round")) + " " +
        (clock.deadline || clock.remaining_ms ? t(gettext("starts when the review clock runs out or")) + " " : t(gettext("starts")) + " ") +
        t(gettext("when every player is ready.")) + "</p>\n";
      if (canAct) {
        if (info.ready) {
          var others = (state.board.seats || []).filter(function (s) { return !s.ready && !s.is_automatic; }).length;
          h += '    <p class="notice" role="status"><span aria-hidden="true">✓</span> ' +
            esc(nt(ngettext("You are ready. Waiting for %(counter)s other player.", "You are ready. Waiting for %(counter)s other players.", others), others)) + "</p>\n";
        } else if (!paused) {
          h += '    <form method="post" action="' + url("ready") + '" class="ready-form" data-api="ready">' + csrfInput() +
            '<button type="submit" class="button primary big" id="ready-button">' + t(gettext("I'm ready for the next pack")) + "</button></form>";
        }
      }
      h += "\n  </section>";
    } else if (eff === "deck_building") {
      h = '<section class="review panel">\n    <h2 tabindex="-1">' + t(gettext("The draft is over: build your deck")) + "</h2>\n    <p>" +
        t(gettext("Your pool is your pile below. Register your deck before the deck-building clock runs out.")) + "</p>\n" +
        '    <p><a class="button primary big" href="' + url("deck") + '">' + (canAct ? t(gettext("Register my deck")) : t(gettext("Decks of this event"))) + "</a></p>\n  </section>";
    } else {
      h = '<section class="review panel">\n    <h2 tabindex="-1">' + t(gettext("Deck building is over")) + "</h2>\n    <p>" +
        t(gettext("If you have not registered your deck yet, see a judge.")) + ' <a href="' + url("deck") + '">' + t(gettext("Deck registration")) + "</a></p>\n  </section>";
    }
    return "\n" + h + "\n";
  }

  var PILE_COVERS = ["", "basic_land", "checklist"];
  function coverLabel(value) {
    if (value === "basic_land") return gettext("a basic land");
    if (value === "checklist") return gettext("a checklist card");
    return gettext("nothing (DFCs show on top)");
  }

  function pileItemHtml(row, index, count, acts) {
    var c = present(row);
    var id = esc(c.id);
    var h = '<li class="pile-item' + (c.is_dfc ? " dfc" : "") + '"' + (acts ? ' draggable="true"' : "") + ' data-card="' + id + '" data-index="' + index + '">\n';
    h += '        <span class="pile-pos" aria-hidden="true">' + (index + 1) + "</span>\n";
    h += '        <details class="pile-card" id="pile-card-' + id + '"><summary><span class="pile-name">' + nameHtml(c.local_name, c.name) + "</span>" +
      (c.is_dfc ? ' <span class="tag dfc-tag">' + t(gettext("DFC")) + "</span>" : "") +
      ' <span class="rarity-letter" title="' + esc(rarityText(c.rarity)) + '" aria-hidden="true">' + esc(rarityLetter(c.rarity)) +
      '</span><span class="visually-hidden"> ' + esc(rarityText(c.rarity)) + "</span></summary>\n";
    h += '          <div class="pile-faces"><div>' + (c.is_dfc ? '<p class="side-label">' + t(gettext("Front")) + "</p>" : "") + faceHtml(c.front) + "</div>" +
      (c.back ? '<div><p class="side-label">' + esc(c.back.label) + "</p>" + faceHtml(c.back) + "</div>" : "") + "</div>\n        </details>\n";
    if (acts) {
      var form = '<form method="post" action="' + url("pile") + '" data-api="move">' + csrfInput() + '<input type="hidden" name="card" value="' + id + '">';
      h += '        <span class="pile-moves">\n          ' + form + '<input type="hidden" name="position" value="' + (index - 1) +
        '"><button type="submit" class="icon-button" id="up-' + id + '"' + (index === 0 ? " disabled" : "") +
        '><span aria-hidden="true">▲</span><span class="visually-hidden">' + t(gettext("Move %(name)s up"), { name: c.name }) + "</span></button></form>\n";
      h += "          " + form + '<input type="hidden" name="position" value="' + (index + 1) + '"><button type="submit" class="icon-button" id="down-' + id + '"' +
        (index === count - 1 ? " disabled" : "") + '><span aria-hidden="true">▼</span><span class="visually-hidden">' +
        t(gettext("Move %(name)s down"), { name: c.name }) + "</span></button></form>\n        </span>";
    }
    return h + "\n      </li>";
  }

  function seatPileHtml(seat) {
    var info = (seat && seat.info) || {};
    var pile = seat ? seat.pile || [] : [];
    var h = '<section class="pile-section" id="pile" aria-labelledby="pile-title">\n';
    h += '    <h2 id="pile-title" tabindex="-1">' + (canAct ? t(gettext("Your pile")) : t(gettext("Pile"))) + ' <span class="count">' +
      esc(nt(ngettext("(%(counter)s card)", "(%(counter)s cards)", pile.length), pile.length)) + "</span></h2>\n";
    if (info.pile_cover) {
      h += '    <p class="pile-cover-note">' + t(gettext("The pile starts with %(pile_cover_label)s; the double-faced cards are beneath it (R17)."),
        { pile_cover_label: coverLabel(info.pile_cover) }) + "</p>\n";
    }
    var acts = canAct && !automatic(seat);
    if (acts) {
      h += '    <p class="muted small">' + t(gettext("The double-faced cards in your pile are open information: the table can see them (R15). Order the pile as you like (R17): drag a card, or use ▲ ▼.")) + "</p>\n";
      h += '    <form method="post" action="' + url("cover") + '" class="pile-cover-form" data-api="cover">' + csrfInput() + "\n";
      h += '      <label for="pile-cover">' + t(gettext("Start my pile with")) + '</label>\n      <select name="cover" id="pile-cover">' +
        PILE_COVERS.map(function (value) {
          return '<option value="' + value + '"' + (value === (info.pile_cover || "") ? " selected" : "") + ">" + esc(coverLabel(value)) + "</option>";
        }).join("") + "</select>\n";
      h += '      <button type="submit" class="button small">' + t(gettext("Save")) + "</button>\n    </form>";
    }
    h += '\n    <ol class="pile-list" aria-labelledby="pile-title">\n      ';
    h += pile.length
      ? pile.map(function (row, index) { return pileItemHtml(row, index, pile.length, acts); }).join("")
      : '<li class="pile-empty muted">' + t(gettext("No cards yet: your picks land here.")) + "</li>";
    return h + "\n    </ol>\n  </section>\n";
  }

  function seatBoardHtml(seat) {
    var me = canAct && seat && seat.info ? seat.info.position : null;
    return '<section class="board-section" id="board" aria-labelledby="board-title">\n    <h2 id="board-title" tabindex="-1">' +
      t(gettext("The table: open information")) + '</h2>\n    <p class="muted small">' +
      t(gettext("Every double-faced card in the pod, with both faces: in the packs each seat holds")) +
      (state.board.piles_open ? " " + t(gettext("and in each seat's pile")) : "") + " " + t(gettext("(R15). Single-faced cards stay hidden (R16).")) +
      "</p>\n    " + boardHtml(me) + "  </section>\n";
  }

  // --- the table and the spectator view (_board_panel.html) ----------------------------------------

  function tableStatusHtml() {
    var pod = state.pod;
    var totals = boardTotals();
    var h = '<section class="draft-status" aria-label="' + t(gettext("Pod status")) + '">\n    <div class="status-main">\n      <p class="status-state">' +
      badge(pod.state, pod.paused_from);
    if (pod.round) {
      h += ' <span class="status-round">' + t(gettext("Round %(round)s of 3"), { round: pod.round }) +
        (pod.direction && pod.state === "drafting" ? " " + t(gettext("· passing %(direction)s"), { direction: directionText(pod.direction) }) : "") + "</span>";
    }
    h += '</p>\n      <p class="status-queue">';
    if (totals.packs) {
      h += esc(nt(ngettext("%(counter)s pack going round", "%(counter)s packs going round", totals.packs), totals.packs)) + ", " +
        esc(nt(ngettext("%(counter)s card left in them", "%(counter)s cards left in them", totals.cards), totals.cards));
    } else if (pod.state === "not_started") {
      h += t(gettext("Packs open when the organiser starts the pod"));
    } else {
      h += t(gettext("No pack going round"));
    }
    return h + "</p>\n    </div>\n  </section>\n";
  }

  function tableBoardHtml() {
    return '<section class="board-section" aria-labelledby="board-title">\n    <h2 id="board-title" tabindex="-1">' + t(gettext("The table")) +
      (view === "spectate" ? " " + t(gettext("(open information only)")) : "") + '</h2>\n    <p class="muted small">' +
      t(gettext("Double-faced cards are open information during a draft (R15): here are all of them, with both faces, in the packs each seat holds")) +
      (state.board.piles_open ? " " + t(gettext("and in each seat's pile")) : "") + t(gettext(". Single-faced cards are never shown (R16).")) +
      "</p>\n    " + boardHtml(myPosition) + "  </section>\n";
  }

  // --- the pod page (staff: every seat; _pod_panel.html's status and seats' live cells) ----------

  function podSeatState(position) {
    var seats = state.seats || {};
    var keys = Object.keys(seats);
    for (var i = 0; i < keys.length; i += 1) {
      var s = seats[keys[i]];
      if (s.info && s.info.position === position) return s;
    }
    return null;
  }

  // The cells of the pod page's seat table that the state knows (queue, clock, picks, ready);
  // connections, last pick and the log stay as the server drew them (they come with the panel).
  function podCells() {
    var cells = {};
    boardSeats().forEach(function (s) {
      var own = podSeatState(s.position);
      var queue = own ? own.queue || [] : s.packs || [];
      var head = queue[0] || null;
      var q = queue.length
        ? esc(nt(ngettext("%(counter)s pack", "%(counter)s packs", queue.length), queue.length)) + ' <span class="muted small">(' +
          queue.map(function (p) { return esc(p.cards_left); }).join(", ") + " " + t(gettext("cards")) + ")</span>"
        : '<span class="muted">' + t(gettext("empty")) + "</span>";
      var clock = null;  // no clock: the server's "waiting 12 s" stays
      if (head && head.deadline) clock = countdown(head.deadline, null, gettext("Pick clock"));
      else if (head && head.remaining_ms !== null && head.remaining_ms !== undefined) {
        clock = countdown(null, head.remaining_ms, gettext("Pick clock")) + ' <span class="muted small">' + t(gettext("paused")) + "</span>";
      }
      cells[s.position] = {
        queue: q,
        clock: clock,
        picks: esc(s.picks),
        ready: s.ready || s.is_automatic ? '<span aria-hidden="true">✓</span> ' + t(gettext("ready")) : t(gettext("not yet")),
      };
    });
    return cells;
  }

  // --- drawing -------------------------------------------------------------------------------------

  // Each region of the page: what it is drawn from (compared as JSON) and how.
  function regions() {
    if (view === "seat") {
      var seat = mySeat();
      var pod = state.pod;
      var queue = seat ? seat.queue || [] : [];
      var head = queue[0] || null;
      var info = seat ? seat.info || null : null;
      var readyCount = (state.board.seats || []).filter(function (s) { return !s.ready && !s.is_automatic; }).length;
      var pileNames = effective(pod) === "drafting" && head ? seat.pile : null;
      return {
        status: { input: [pod, head && [head.pick_number, head.deadline, head.remaining_ms], queue.length], draw: function () { return seatStatusHtml(seat); } },
        main: { input: [pod, head, info, pileNames, effective(pod) === "reviewing" ? readyCount : 0], draw: function () { return seatMainHtml(seat); } },
        pile: { input: [seat && seat.pile, info && info.pile_cover, info && info.is_automatic], draw: function () { return seatPileHtml(seat); } },
        board: { input: [state.board, boardDirection(pod), info && info.position], draw: function () { return seatBoardHtml(seat); } },
      };
    }
    if (view === "pod") return {};  // its cells only (drawPodCells); the rest is the panel's
    return {
      status: { input: [state.pod, boardTotals()], draw: tableStatusHtml },
      board: { input: [state.board, boardDirection(state.pod)], draw: tableBoardHtml },
    };
  }

  function allRows() {
    var rows = [];
    function add(list) { (list || []).forEach(function (row) { rows.push(row); }); }
    (state.board.seats || []).forEach(function (s) {
      (s.packs || []).forEach(function (p) { add(p.dfcs); });
      add(s.pile_dfcs);
    });
    Object.keys(state.seats || {}).forEach(function (key) {
      var s = state.seats[key];
      (s.queue || []).forEach(function (p) { add(p.cards); });
      add(s.pile);
    });
    return rows;
  }

  function merge(data) {
    if (!data) return;
    Object.keys(data.cards || {}).forEach(function (id) { sheet.cards[id] = data.cards[id]; });
    Object.keys(data.printings || {}).forEach(function (id) { sheet.printings[id] = data.printings[id]; });
  }

  function getJson(address) {
    return fetch(address, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.json();
    });
  }

  function loadSheet(address) {
    if (!address || address === sheetUrl) return sheetLoading || Promise.resolve();
    sheetUrl = address;
    sheetLoading = getJson(address).then(merge, function () { /* the missing cards are asked for one by one */ });
    return sheetLoading;
  }

  // Cards the sheet lacks (a late replacement, a sheet that failed): asked for once each.
  function loadMissing() {
    var ids = [];
    var printings = [];
    allRows().forEach(function (row) {
      var id = String(row[1]);
      if (!sheet.cards[id] && !asked[id]) { asked[id] = true; ids.push(id); }
      var printing = row[2] === null || row[2] === undefined ? null : String(row[2]);
      if (printing && !sheet.printings[printing] && !asked["p" + printing]) { asked["p" + printing] = true; printings.push(printing); }
    });
    if (!ids.length && !printings.length) return missingLoading || Promise.resolve();
    // The server answers at most 500 ids a request: ask in batches well under that.
    var requests = [missingLoading];
    while (ids.length || printings.length) {
      var someIds = ids.splice(0, 200);
      var somePrintings = printings.splice(0, 200 - someIds.length);
      var query = "?ids=" + someIds.join(",") + (somePrintings.length ? "&printings=" + somePrintings.join(",") : "");
      requests.push(getJson(MISSING_URL + query).then(merge, function () { /* drawn as unknown cards */ }));
    }
    missingLoading = Promise.all(requests);
    return missingLoading;
  }

  var drawQueued = false;
  function render() {
    if (!state) return;
    (sheetLoading || Promise.resolve()).then(loadMissing).then(function () {
      if (drawQueued) return;
      drawQueued = true;
      // One draw for everything that arrived in this turn of the event loop.
      Promise.resolve().then(function () { drawQueued = false; draw(); });
    });
  }

  function draw() {
    if (!state || !window.Live || !window.Live.swapRegion) return;
    var changed = [];
    var parts = regions();
    Object.keys(parts).forEach(function (name) {
      var part = parts[name];
      if (!part.draw) return;
      var el = root.querySelector('#live-panel [data-region="' + name + '"]');
      if (!el) return;
      var key = JSON.stringify(part.input);
      if (drawn[name] === key) return;
      drawn[name] = key;
      window.Live.swapRegion(el, part.draw());
      changed.push(name);
    });
    if (view === "pod") {
      changed = changed.concat(drawPodCells());
      // The staff page's panel brings what the state lacks (connections, last picks, automatic
      // picks, the log): after a change that writes the log (the pod's state or clocks, a seat
      // handed over), not after a pick; and every PANEL_EVERY ms for the rest (see below).
      if (panelDue && window.Live.refreshSlowly) window.Live.refreshSlowly();
      panelDue = false;
    }
    if (changed.length) {
      document.dispatchEvent(new CustomEvent("live:updated", { detail: { regions: changed, from: "state" } }));
    }
    // Which version the page now shows (tests wait for it before reading what was drawn).
    root.setAttribute("data-drawn-version", String(version));
    if (window.Live.tick) window.Live.tick();
  }

  // The pod page's seat table: each row's queue, clock, picks and ready cells.
  function drawPodCells() {
    var table = root.querySelector('[data-region="seats"] tbody');
    if (!table) return [];
    var cells = podCells();
    var key = JSON.stringify([state.board.seats, state.seats]);
    if (drawn.podCells === key) return [];
    drawn.podCells = key;
    Array.prototype.forEach.call(table.rows, function (row) {
      var c = cells[row.getAttribute("data-position")];
      if (!c) return;
      var set = function (label, html) {
        var cell = row.querySelector('[data-cell="' + label + '"]');
        if (cell && html !== null && cell.innerHTML !== html) cell.innerHTML = html;
      };
      set("queue", c.queue);
      set("clock", c.clock);
      set("picks", c.picks);
      set("ready", c.ready);
    });
    return ["seats"];
  }

  // --- frames ------------------------------------------------------------------------------------

  function applyDelta(delta) {
    if (delta.pod) { state.pod = delta.pod; panelDue = true; }
    if (delta.board) {
      if (delta.board.piles_open !== undefined) state.board.piles_open = delta.board.piles_open;
      var changedSeats = delta.board.seats || {};
      Object.keys(changedSeats).forEach(function (position) {
        var fresh = changedSeats[position];
        var seats = state.board.seats;
        var at = -1;
        for (var i = 0; i < seats.length; i += 1) if (String(seats[i].position) === String(position)) { at = i; break; }
        if (at === -1) seats.push(fresh);
        else seats[at] = fresh;
      });
    }
    if (delta.seats) {
      Object.keys(delta.seats).forEach(function (id) {
        var change = delta.seats[id];
        var seat = state.seats[id] || (state.seats[id] = { info: null, queue: [], pile: [] });
        ["info", "queue", "pile"].forEach(function (part) { if (change[part] !== undefined) seat[part] = change[part]; });
        if (change.info !== undefined) panelDue = true;  // handed over, made automatic, ready
      });
    }
  }

  function sync() {
    syncing = true;
    if (!(window.Live && window.Live.send && window.Live.send({ type: "sync" }))) syncing = false;
  }

  function receive(message) {
    if (!message) return;
    if (message.type === "snapshot") {
      state = message.state;
      if (!state.seats) state.seats = {};
      if (!state.board) state.board = { piles_open: false, seats: [] };
      version = message.version;
      syncing = false;
      loadSheet(message.cards_url);
      render();
    } else if (message.type === "automatic") {
      // The organiser just gave this seat to an automatic drafter (drafts/protocol.py Automatic):
      // say so now; the delta that says it too may follow.
      var mine = mySeat();
      if (mine && mine.info && String(message.seat) === String(seatId)) { mine.info.is_automatic = true; render(); }
      if (canAct && window.Live && window.Live.flash) window.Live.flash(gettext("Your seat is now drafted automatically"), "warn");
    } else if (message.type === "delta") {
      if (!state || syncing) return;
      var applied = false;
      var deltas = message.deltas || [];
      for (var i = 0; i < deltas.length; i += 1) {
        var delta = deltas[i];
        if (delta.version <= version) continue;  // had it already
        if (delta["from"] !== version) { sync(); break; }  // missed one: start again
        applyDelta(delta);
        version = delta.version;
        applied = true;
      }
      if (applied) render();
    }
  }

  loadSheet(root.getAttribute("data-cards-url"));

  // The pod page's connections, last picks and automatic picks are not the pod's state (a
  // socket opening is no change to the pod): its panel every PANEL_EVERY ms while it is seen.
  var PANEL_EVERY = Number(root.getAttribute("data-panel-every")) || 0;
  if (view === "pod" && PANEL_EVERY) {
    setInterval(function () {
      if (document.visibilityState === "hidden" || !state) return;
      if (window.Live && window.Live.refreshSlowly) window.Live.refreshSlowly();
    }, PANEL_EVERY);
  }

  window.DraftState = {
    receive: receive,
    // Forget what each region was drawn from (the panel was swapped in meanwhile): the next
    // state draws every region again.
    invalidate: function () { drawn = {}; },
    render: render,
    // Ask for a new snapshot (the page's view of the draft was refused as stale).
    sync: function () { if (state) sync(); },
    state: function () { return state; },
    version: function () { return version; },
    syncing: function () { return syncing; },
    sheet: function () { return sheet; },
    // Markup of one card or region (tests compare them with the server's).
    card: function (row, pickable) { return cardHtml(row, pickable); },
    region: function (name) { var part = regions()[name]; return part && part.draw ? part.draw() : null; },
  };

  // Frames live.js heard before this script ran (it loads after live.js on some pages).
  if (window.Live && window.Live.takeEarly) window.Live.takeEarly().forEach(receive);
})();
