// The staff's check-in list: re-read every few seconds, so players checking in from their
// phones (and other staff ticking) show up without a reload. The forms work without it.
(function () {
  "use strict";
  const box = document.getElementById("check-in-lists");
  if (!box) return;
  const url = box.dataset.url;
  async function refresh() {
    if (document.hidden) return;
    try {
      const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
      if (response.ok) box.innerHTML = await response.text();
    } catch (error) {
      // Offline for a moment: the next round tries again.
    }
  }
  setInterval(refresh, 3000);
})();
