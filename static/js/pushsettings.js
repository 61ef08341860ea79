// The notifications page: subscribe this browser with the site's VAPID key (PushManager) and
// hand the subscription to the site, or withdraw it. The choices per event are a plain form.
(function () {
  "use strict";
  const box = document.getElementById("push-device");
  if (!box) return;
  const state = document.getElementById("push-device-state");
  const enable = document.getElementById("push-enable");
  const disable = document.getElementById("push-disable");
  const api = box.dataset.api;

  function csrf() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }
  function key(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }
  function send(method, body) {
    return fetch(api, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(body),
    });
  }
  function show(subscribed) {
    state.textContent = subscribed
      ? gettext("This browser is notified, even when the site is closed.")
      : gettext("This browser is not notified yet.");
    enable.hidden = subscribed;
    disable.hidden = !subscribed;
  }
  async function registration() {
    return navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready);
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    state.textContent = gettext("This browser cannot receive notifications. On an iPhone, add the site to the home screen first.");
    return;
  }
  registration()
    .then((reg) => reg.pushManager.getSubscription())
    .then((subscription) => {
      if (subscription) send("POST", subscription.toJSON()); // the site may have forgotten it
      show(Boolean(subscription));
    })
    .catch(() => show(false));

  enable.addEventListener("click", async () => {
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        state.textContent = gettext("Notifications are blocked for this site in the browser's settings.");
        return;
      }
      const reg = await registration();
      const subscription = await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: key(box.dataset.publicKey),
      });
      const response = await send("POST", subscription.toJSON());
      if (!response.ok) throw new Error(String(response.status));
      show(true);
    } catch (error) {
      state.textContent = gettext("Could not turn notifications on in this browser.");
    }
  });
  disable.addEventListener("click", async () => {
    const reg = await registration();
    const subscription = await reg.pushManager.getSubscription();
    if (subscription) {
      await send("DELETE", { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    show(false);
  });
})();
