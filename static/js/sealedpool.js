// Registering a paper sealed pool (MTR 7.5): type a card's name (in your language or English),
// Enter adds one to the list; the running counts per rarity group and in all, against what the
// event's boosters can hold. The server checks again on submit (the counts only help).
(function () {
  "use strict";
  var form = document.getElementById("pool-form");
  var data = JSON.parse(document.getElementById("set-catalogue").textContent);
  var input = document.getElementById("card-search");
  var area = form.querySelector("textarea");
  var out = document.getElementById("pool-counts");
  var byName = {};
  data.cards.forEach(function (c) {
    byName[c[0].toLowerCase()] = c;
    byName[c[1].toLowerCase()] = c;
  });

  function lines() {
    return area.value.split("\n").map(function (line) {
      var m = line.trim().match(/^(\d+)\s*x?\s+(.+)$/i);
      return m ? { count: parseInt(m[1], 10), name: m[2].trim() } : line.trim() ? { count: 1, name: line.trim() } : null;
    }).filter(Boolean);
  }

  function render() {
    var counts = { cards: 0 };
    lines().forEach(function (l) {
      var card = byName[l.name.toLowerCase()];
      counts.cards += l.count;
      if (card) counts[card[2]] = (counts[card[2]] || 0) + l.count;
    });
    var parts = [];
    function part(key, label) {
      var n = counts[key] || 0, max = data.limits[key];
      var text = interpolate(gettext("%(label)s: %(n)s of at most %(max)s"), { label: label, n: n, max: max }, true);
      parts.push(n > max ? '<span class="over">' + text + "</span>" : text);
    }
    part("cards", gettext("Cards"));
    ["rare_mythic", "uncommon", "common"].forEach(function (g) { part(g, data.groups[g]); });
    out.innerHTML = parts.join(" · ");
  }

  function add(name) {
    var card = byName[name.toLowerCase()];
    if (!card) return false;
    var rows = area.value.split("\n").filter(function (l) { return l.trim(); });
    var found = false;
    rows = rows.map(function (line) {
      var m = line.trim().match(/^(\d+)\s*x?\s+(.+)$/i);
      if (m && m[2].trim().toLowerCase() === card[0].toLowerCase()) {
        found = true;
        return (parseInt(m[1], 10) + 1) + " " + card[0];
      }
      return line;
    });
    if (!found) rows.push("1 " + card[0]);
    area.value = rows.join("\n") + "\n";
    return true;
  }

  input.addEventListener("keydown", function (e) {
    if (e.key !== "Enter") return;
    e.preventDefault();
    if (add(input.value.trim())) {
      input.value = "";
      render();
    }
  });
  area.addEventListener("input", render);
  render();
})();
