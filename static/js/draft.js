/* The player's draft page: choose and pick a card, flip double-faced cards, order the pile.
 *
 * Picks go over the page's websocket (HTTP when it is down) with the pack the player was
 * looking at, so a stale double click is refused (409) and explained instead of landing on
 * the next pack; and a card whose pack appeared less than half a second ago is never picked
 * by a click that was aimed at the pack before it. The same actions work without this script
 * through the page's plain forms (with a confirm step for the pick).
 *
 * On a page drawn from the socket's state (data-draw="state", draftstate.js) the server
 * pushes what an action changed: nothing is fetched after it while the socket is up
 * (Live.refresh does nothing then), and "I'm ready" goes over the socket too.
 */
(function () {
  "use strict";
  // The page's language: Django's JavaScript catalog (base.html) defines gettext.
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, args) { return text.replace("%s", args[0]); };

  var root = document.getElementById("live");
  if (!root) return;
  var canAct = root.getAttribute("data-can-act") === "1";
  var api = "/api/seats/" + root.getAttribute("data-seat") + "/";
  var selected = null;
  var flipped = {};
  var busy = false;
  var SETTLE_MS = 500;  // a pack younger than this takes no pick (double clicks, R16 fairness)
  // The pack on show and since when. Packs come round the table again (an 8-seat pod's own
  // pack is back at pick 9): it is new again each time it appears, not only the first time.
  var shownPack = null;
  var shownAt = 0;
  var pending = {};  // socket picks and readies waiting for their answer, by ref
  var nextRef = 1;

  function notePack() {
    var form = packForm();
    var id = (form && form.getAttribute("data-pack")) || null;
    if (id !== shownPack) { shownPack = id; shownAt = Date.now(); }
  }

  function packTooNew(packId) {
    return shownPack !== null && String(packId) === shownPack && Date.now() - shownAt < SETTLE_MS;
  }

  function live() { return window.Live || { refresh: function () {}, flash: function () {} }; }

  function csrf() {
    var input = document.querySelector("#csrf [name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function post(path, body) {
    return fetch(api + path, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body || {}),
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (data) {
        return { ok: response.ok, status: response.status, data: data };
      });
    });
  }

  function errorText(result) {
    var data = result.data || {};
    if (data.errors && data.errors[0] && data.errors[0].message) return data.errors[0].message;
    return data.detail || interpolate(gettext("Something went wrong (%s)."), [result.status]);
  }

  function packForm() { return document.getElementById("pack-form"); }
  function cards() { return Array.prototype.slice.call(document.querySelectorAll("#pack-form .card")); }
  function cardById(id) { return document.querySelector('#pack-form .card[data-card="' + id + '"]'); }

  // --- selection and picking ------------------------------------------------------------

  function select(card, focus) {
    cards().forEach(function (c) {
      c.classList.remove("selected");
      var label = c.querySelector(".pick-label");
      if (label) label.textContent = gettext("Pick");
      var button = c.querySelector(".pick-button");
      if (button) button.setAttribute("aria-pressed", "false");
    });
    selected = card ? card.getAttribute("data-card") : null;
    var bar = document.getElementById("pick-bar");
    if (card) {
      card.classList.add("selected");
      var button = card.querySelector(".pick-button");
      if (button) {
        button.querySelector(".pick-label").textContent = gettext("Confirm pick");
        button.setAttribute("aria-pressed", "true");
        if (focus) button.focus();
      }
    }
    if (bar) {
      bar.hidden = !card;
      var name = bar.querySelector(".pick-bar-name");
      if (name) name.textContent = card ? card.getAttribute("data-name") : "";
    }
  }

  function setBusy(on) {
    busy = on;
    var form = packForm();
    if (!form) return;
    form.classList.toggle("is-picking", on);
    form.querySelectorAll(".pick-button, [data-confirm-pick]").forEach(function (b) { b.disabled = on; });
  }

  function pick(cardId, packId) {
    var form = packForm();
    if (!canAct || busy || !form || !cardId) return Promise.resolve(null);
    if (form.classList.contains("is-paused")) {
      live().flash(gettext("The draft is paused; picks resume with the pod."), "warn");
      return Promise.resolve(null);
    }
    var body = { card: Number(cardId), pack: Number(packId || form.getAttribute("data-pack")) };
    if (packTooNew(body.pack)) return Promise.resolve(null);
    var position = document.getElementById("pick-position");
    if (position && position.value !== "") body.position = Number(position.value);
    setBusy(true);
    return send(body).then(function (result) {
      setBusy(false);
      keepFocus();
      if (result.ok) {
        selected = null;
        live().flash("", "");
      } else if (result.status === 409) {
        live().flash(errorText(result) + " " + gettext("The page now shows where the draft really is."), "warn");
      } else {
        live().flash(errorText(result), "error");
      }
      live().refresh();
      return result;
    }, function () {
      setBusy(false);
      keepFocus();
      live().flash(gettext("Could not reach the server, so the pick was not made. Check the connection and try again."), "error");
      return null;
    });
  }

  // Disabled while the pick ran, the pressed button lost focus: when the pack is still there
  // (a refused pick), focus goes back to the chosen card (never left on <body>).
  function keepFocus() {
    if (document.activeElement && document.activeElement !== document.body) return;
    var card = selected && cardById(selected);
    var button = card && card.querySelector(".pick-button");
    if (button && !button.disabled) button.focus({ preventScroll: true });
  }

  // ``message`` over the socket when it is open (its answer comes back on it, by ref), else
  // ``fallback()`` (HTTP); no answer within 10 s (the socket dropped): HTTP says what happened.
  function overSocket(message, fallback) {
    var ref = message.type.charAt(0) + (nextRef++);
    message.ref = ref;
    if (!window.Live || !window.Live.send || !window.Live.send(message)) return fallback();
    return new Promise(function (resolve) {
      var timer = setTimeout(function () {
        delete pending[ref];
        resolve(fallback());
      }, 10000);
      pending[ref] = function (answer) { clearTimeout(timer); resolve(answer); };
    });
  }

  // A pick over the socket when it is open, else over HTTP.
  function send(body) {
    var message = { type: "pick", card: body.card, pack: body.pack };
    if (body.position !== undefined) message.position = body.position;
    return overSocket(message, function () { return post("picks/", body); });
  }

  // "I'm ready" over the socket on a page drawn from its state (the server answers
  // "readied" or "refused"), else over HTTP.
  function ready() {
    if (!(window.Live && window.Live.drawsState)) return post("ready/", {});
    return overSocket({ type: "ready" }, function () { return post("ready/", {}); });
  }

  document.addEventListener("live:message", function (event) {
    var message = event.detail || {};
    var done = message.ref !== undefined && pending[message.ref];
    if (!done) return;
    delete pending[message.ref];
    if (message.type === "picked" || message.type === "readied") {
      done({ ok: true, status: message.type === "picked" ? 201 : 200, data: message });
    } else {
      done({ ok: false, status: message.status || 400, data: message });
    }
  });

  function move(offset) {
    var all = cards();
    if (!all.length) return;
    var index = all.findIndex(function (c) { return c.getAttribute("data-card") === selected; });
    var next = index === -1 ? (offset > 0 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, index + offset));
    select(all[next], true);
  }

  function flip(card) {
    if (!card || !card.classList.contains("dfc")) return;
    var on = !card.classList.contains("flipped");
    // A flip shows the chosen face even under the mouse (hover peeks again after leaving).
    card.classList.remove("peek");
    card.setAttribute("data-no-peek", "");
    card.classList.toggle("flipped", on);
    var button = card.querySelector("[data-flip]");
    if (button) button.setAttribute("aria-pressed", on ? "true" : "false");
    flipped[card.getAttribute("data-card")] = on;
  }

  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    var flipButton = target.closest("[data-flip]");
    if (flipButton) { event.preventDefault(); flip(flipButton.closest(".card")); return; }
    if (!canAct) return;
    var pickButton = target.closest(".pick-button");
    if (pickButton) {
      event.preventDefault();
      var card = pickButton.closest(".card");
      if (selected === card.getAttribute("data-card")) pick(selected);
      else select(card, true);
      return;
    }
    if (target.closest("[data-confirm-pick]")) { event.preventDefault(); pick(selected); return; }
    if (target.closest("[data-cancel-pick]")) { event.preventDefault(); select(null); return; }
    var clicked = target.closest("#pack-form .card");
    if (clicked && !target.closest("a, button, summary, select, input")) select(clicked, false);
  });

  document.addEventListener("dblclick", function (event) {
    if (!canAct || !(event.target instanceof Element)) return;
    var card = event.target.closest("#pack-form .card");
    if (card && !event.target.closest("[data-flip]")) {
      event.preventDefault();
      select(card, false);
      pick(card.getAttribute("data-card"));
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    var typing = target instanceof Element && target.closest("input, select, textarea, [contenteditable]");
    if (event.key === "Escape") { if (selected) { select(null); event.preventDefault(); } return; }
    if (typing || !packForm()) return;
    if (event.key === "ArrowRight") { event.preventDefault(); move(1); }
    else if (event.key === "ArrowLeft") { event.preventDefault(); move(-1); }
    else if (event.key === "f" || event.key === "F") {
      var focused = target instanceof Element ? target.closest(".card") : null;
      flip(focused || (selected && cardById(selected)));
    } else if (/^[1-9]$/.test(event.key) && canAct) {
      var card = cards()[Number(event.key) - 1];
      if (card) select(card, true);
    } else if (event.key === "Enter" && selected && canAct &&
               !(target instanceof Element && target.closest("button, a, summary"))) {
      event.preventDefault();
      pick(selected);
    }
  });

  // --- forms that the script sends through the API ----------------------------------------

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!(form instanceof HTMLFormElement) || !canAct) return;
    if (form.id === "pack-form") { event.preventDefault(); if (selected) pick(selected); return; }
    var kind = form.getAttribute("data-api");
    if (!kind) return;
    event.preventDefault();
    var request;
    if (kind === "move") {
      request = post("pile/", { card: Number(form.elements.card.value), position: Number(form.elements.position.value) });
    } else if (kind === "cover") {
      request = post("pile-cover/", { cover: form.elements.cover.value });
    } else if (kind === "ready") {
      request = ready();
    } else {
      return;
    }
    var buttons = Array.prototype.filter.call(form.querySelectorAll("button"), function (b) { return !b.disabled; });
    buttons.forEach(function (b) { b.disabled = true; });
    // Until the new state is drawn (it replaces the form), or when nothing changed.
    var focused = document.activeElement;
    function enable() {
      buttons.forEach(function (b) { b.disabled = false; });
      if (document.activeElement === document.body && focused && document.contains(focused) && !focused.disabled) {
        focused.focus({ preventScroll: true });
      }
    }
    request.then(function (result) {
      if (!result.ok) live().flash(errorText(result), result.status === 409 ? "warn" : "error");
      else if (kind === "cover") live().flash(gettext("Saved."), "info");
      if (document.contains(form)) enable();
      live().refresh();
    }, function () {
      live().flash(gettext("Could not reach the server. Try again."), "error");
      enable();
    });
  });

  // --- drag and drop in the pile (the ▲ ▼ buttons do the same from the keyboard) -----------

  var dragged = null;

  document.addEventListener("dragstart", function (event) {
    var item = event.target instanceof Element ? event.target.closest(".pile-item[draggable=true]") : null;
    if (!item || !canAct) return;
    dragged = item;
    item.classList.add("dragging");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", item.getAttribute("data-card"));
  });

  function dropTarget(event) {
    var item = event.target instanceof Element ? event.target.closest(".pile-item") : null;
    if (!item || !dragged || item === dragged) return null;
    var box = item.getBoundingClientRect();
    return { item: item, after: event.clientY > box.top + box.height / 2 };
  }

  function clearMarks() {
    document.querySelectorAll(".pile-item.drop-before, .pile-item.drop-after").forEach(function (el) {
      el.classList.remove("drop-before", "drop-after");
    });
  }

  document.addEventListener("dragover", function (event) {
    var spot = dropTarget(event);
    if (!spot) return;
    event.preventDefault();
    clearMarks();
    spot.item.classList.add(spot.after ? "drop-after" : "drop-before");
  });

  document.addEventListener("drop", function (event) {
    var spot = dropTarget(event);
    if (!spot) return;
    event.preventDefault();
    var from = Number(dragged.getAttribute("data-index"));
    var to = Number(spot.item.getAttribute("data-index")) + (spot.after ? 1 : 0);
    if (to > from) to -= 1;
    var card = Number(dragged.getAttribute("data-card"));
    clearMarks();
    if (to === from) return;
    post("pile/", { card: card, position: to }).then(function (result) {
      if (!result.ok) live().flash(errorText(result), "error");
      live().refresh();
    });
  });

  document.addEventListener("dragend", function () {
    if (dragged) dragged.classList.remove("dragging");
    dragged = null;
    clearMarks();
  });

  // --- a mouse over a DFC shows its back (touch uses the Flip button: no sticky hover) -----

  document.addEventListener("pointerover", function (event) {
    if (event.pointerType !== "mouse" || !(event.target instanceof Element)) return;
    var card = event.target.closest(".card.dfc");
    if (card && !card.hasAttribute("data-no-peek")) card.classList.add("peek");
  });

  document.addEventListener("pointerout", function (event) {
    if (!(event.target instanceof Element)) return;
    var card = event.target.closest(".card.dfc");
    if (card && !(event.relatedTarget instanceof Node && card.contains(event.relatedTarget))) {
      card.classList.remove("peek");
      card.removeAttribute("data-no-peek");
    }
  });

  // --- images: shown only once they have loaded; the text is there until then ---------------

  function imageLoaded(img) {
    var side = img.closest(".card-side");
    if (side) side.classList.add("img-ok");
  }

  document.addEventListener("load", function (event) {
    if (event.target instanceof HTMLImageElement && event.target.classList.contains("card-img")) {
      imageLoaded(event.target);
    }
  }, true);

  function markLoadedImages() {
    document.querySelectorAll("img.card-img").forEach(function (img) {
      if (img.complete && img.naturalWidth > 0) imageLoaded(img);
    });
  }

  // --- keep selection and flipped cards across live updates ----------------------------------

  document.addEventListener("live:updated", function () {
    notePack();
    Object.keys(flipped).forEach(function (id) {
      var card = cardById(id);
      if (card && flipped[id] && !card.classList.contains("flipped")) {
        card.classList.add("flipped");
        var button = card.querySelector("[data-flip]");
        if (button) button.setAttribute("aria-pressed", "true");
      }
    });
    var still = selected && cardById(selected);
    select(still || null, false);
    markLoadedImages();
  });

  markLoadedImages();
  notePack();
  window.DraftPage = { pick: pick, select: function (id) { select(cardById(id), true); } };
})();
