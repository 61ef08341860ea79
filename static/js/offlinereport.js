// A match result typed on the player's page goes to the API with an idempotency key. Without
// a connection (the venue's Wi-Fi) it is kept on this phone and sent when the connection
// returns, once: the key makes a repeated send answer the first report
// (matches.services.report_result), so a send cut off halfway and retried is never two reports.
(function () {
  "use strict";
  const STORE = "draftsite.queued-reports";

  function queued() {
    try {
      return JSON.parse(localStorage.getItem(STORE) || "[]");
    } catch (error) {
      return [];
    }
  }
  function save(items) {
    localStorage.setItem(STORE, JSON.stringify(items));
  }
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function csrf() {
    const input = document.querySelector(".report-form input[name=csrfmiddlewaretoken], input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  // The queue's one notice: a single box while results wait on this phone, its text kept
  // current, gone once the queue is empty. It is not also flashed: a flash per queued result
  // or per retry would say the same thing twice. What became of a send is the flash's.
  function showQueue() {
    let box = document.getElementById("queued-report");
    if (!queued().length) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = document.createElement("p");
      box.id = "queued-report";
      box.setAttribute("role", "status");
      const main = document.getElementById("main") || document.body;
      main.insertBefore(box, main.firstChild);
    }
    box.textContent = gettext("Result saved on this phone: it is sent as soon as there is a connection.");
  }
  function flash(text, kind) {
    if (window.Live && window.Live.flash) window.Live.flash(text, kind);
  }

  // One send: "sent", "refused" (the server answered no, and the flash says why) or "offline"
  // (the server was unreachable).
  async function send(item) {
    let response;
    try {
      response = await fetch(item.api, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRFToken": item.csrf || csrf(),
          "Idempotency-Key": item.key,
        },
        body: JSON.stringify({ won: item.won, lost: item.lost, drawn: item.drawn }),
      });
    } catch (error) {
      return "offline";
    }
    if (!response.ok) {
      let message = gettext("The result could not be reported.");
      try {
        message = (await response.json()).detail || message;
      } catch (error) {
        // not JSON: keep the plain sentence
      }
      flash(message, "error");
      return "refused";
    }
    return "sent";
  }

  let flushing = false;
  async function flush() {
    if (flushing) return;
    flushing = true;
    let sent = 0;
    let refused = 0;
    try {
      for (const item of queued()) {
        const outcome = await send(item);
        if (outcome === "offline") break; // still offline: keep it (and those after it)
        save(queued().filter((other) => other.key !== item.key));
        if (outcome === "sent") sent += 1;
        else refused += 1;
        showQueue();
      }
    } finally {
      flushing = false;
    }
    // Said once for the whole queue; a refusal's reason, already flashed, is not covered over.
    if (sent && !refused) flash(gettext("Your result was sent."), "ok");
    if ((sent || refused) && window.Live && window.Live.refresh) window.Live.refresh();
  }

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    if (!form.classList || !form.classList.contains("report-form") || !form.dataset.api) return;
    event.preventDefault();
    const field = (name) => form.querySelector(`[name=${name}]`);
    const item = {
      api: form.dataset.api,
      match: form.dataset.match,
      key: (field("key") && field("key").value) || newKey(),
      won: Number(field("won").value),
      lost: Number(field("lost").value),
      drawn: Number((field("drawn") && field("drawn").value) || 0),
      csrf: csrf(),
    };
    if (field("key")) field("key").value = item.key; // a double tap sends the same key
    save(queued().filter((other) => other.match !== item.match).concat([item]));
    showQueue();
    await flush();
  });

  window.addEventListener("online", flush);
  setInterval(() => {
    if (navigator.onLine !== false && queued().length) flush();
  }, 10000); // "online" does not always fire (a captive portal, a flaky access point)
  showQueue(); // results queued on an earlier page (or before a reload) still wait
  flush();
})();
