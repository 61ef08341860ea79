/* What the draft pages' scripts (draftstate.js, dashboard.js) write the same way as the
 * server's templates: escaped text, Django's named placeholders, the state badge of
 * drafts/templatetags/draft_tags.py, and clocks as live.js ticks them. Load it first. */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };

  var ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
  function esc(value) {
    if (value === null || value === undefined) return "";
    return String(value).replace(/[&<>"']/g, function (c) { return ESCAPES[c]; });
  }

  // Django's named placeholders ("%(round)s"), as blocktranslate writes them.
  function fmt(text, values) {
    return text.replace(/%\(([a-z_0-9]+)\)s/g, function (all, name) {
      return values[name] === undefined || values[name] === null ? "" : String(values[name]);
    });
  }

  var ICONS = { not_started: "○", drafting: "▶", paused: "❚❚", reviewing: "☰", deck_building: "✎", done: "✓" };
  function stateWord(name) {
    var words = {
      not_started: gettext("Not started"),
      drafting: gettext("Drafting"),
      paused: gettext("Paused"),
      reviewing: gettext("Between rounds"),
      deck_building: gettext("Deck building"),
      done: gettext("Finished"),
    };
    return words[name] || name;
  }
  function badge(name, pausedFrom) {
    var icon = ICONS[name] || "?";
    var extra = name === "paused" && ICONS[pausedFrom] ? " (" + stateWord(pausedFrom).toLowerCase() + ")" : "";
    return '<span class="state-badge state-' + esc(name) + '"><span aria-hidden="true" class="state-icon">' +
      esc(icon) + "</span> " + esc(stateWord(name)) + esc(extra) + "</span>";
  }

  // live.js formats every countdown; pages draw only after it has loaded.
  function clockText(ms) { return window.Live.clockText(ms); }

  window.DraftWords = { esc: esc, fmt: fmt, stateWord: stateWord, badge: badge, clockText: clockText };
})();
