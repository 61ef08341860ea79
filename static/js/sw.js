// The site's service worker (served at /sw.js, scope "/"): shows Web Push notifications, and
// keeps the last copy of each page a player opened (pairing, table, clock, standings, deck) so
// the venue's Wi-Fi dropping leaves them readable, with their age (static/js/app.js shows it).
"use strict";

const PAGES = "pages-v1";
const ASSETS = "assets-v1";
const NETWORK_WAIT_MS = 4000; // a page the venue's Wi-Fi cannot bring in this long comes from the copy

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== PAGES && n !== ASSETS).map((n) => caches.delete(n))))
      .then(() => self.clients.claim())
  );
});

// --- Push -----------------------------------------------------------------------------------
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "Draft site", {
      body: data.body || "",
      tag: data.tag || undefined,
      lang: data.lang || undefined,
      icon: "/static/icons/icon-192.png",
      badge: "/static/icons/icon-192.png",
      data: { url: data.url || "/", kind: data.kind || "" },
    })
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === url && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(url);
    })
  );
});

// --- Offline copies -----------------------------------------------------------------------
self.addEventListener("message", (event) => {
  // Signing out forgets the copies: the next person on this browser must not read them.
  if (event.data && event.data.type === "forget-pages") event.waitUntil(caches.delete(PAGES));
});

function stamped(response) {
  // The copy says when it was saved (X-Saved-At); the page reads it from a meta tag.
  const at = Number(response.headers.get("X-Saved-At")) || Date.now();
  return response.text().then((html) => {
    const saved = `<meta name="offline-saved-at" content="${at}">`;
    const body = html.includes("</head>") ? html.replace("</head>", saved + "</head>") : saved + html;
    return new Response(body, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

function timeout(ms) {
  return new Promise((resolve, reject) => setTimeout(() => reject(new Error("slow network")), ms));
}

// Network first; the saved copy when the network fails or is slower than NETWORK_WAIT_MS (the
// venue's Wi-Fi), else the network's own answer whenever it comes. The copy is written inside
// waitUntil, so the worker is not stopped before a page or script that loaded is saved.
// ``onCopy`` dresses a copy (a page's says when it was saved).
async function networkFirst(event, cacheName, keep, onCopy) {
  const request = event.request;
  const cache = await caches.open(cacheName);
  const network = fetch(request).then((response) => {
    if (keep(response)) {
      const saving = save(cache, request.url, response.clone());
      try {
        event.waitUntil(saving);
      } catch (error) {
        // The copy was already answered (slow network): the save goes on while the worker lives.
      }
    }
    return response;
  });
  try {
    return await Promise.race([network, timeout(NETWORK_WAIT_MS)]);
  } catch (error) {
    const copy = await cache.match(request.url);
    if (copy) return onCopy(copy);
    return network;
  }
}

async function save(cache, url, response) {
  const headers = new Headers(response.headers);
  headers.set("X-Saved-At", String(Date.now()));
  const body = await response.blob();
  await cache.put(url, new Response(body, { status: response.status, statusText: response.statusText, headers }));
}

const isPage = (response) => response.ok && (response.headers.get("Content-Type") || "").startsWith("text/html");
const isAsset = (response) => response.ok;
const asIs = (response) => response;

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (url.pathname.startsWith("/admin/") || url.pathname.startsWith("/accounts/")) return;
    event.respondWith(networkFirst(event, PAGES, isPage, stamped));
  } else if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/jsi18n/")) {
    // Scripts, styles, icons and the script strings: network first too, so the load after a
    // deploy or a language change runs the new scripts and strings (the browser's HTTP cache
    // still answers within the max-age the server gave); the copy only offline.
    event.respondWith(networkFirst(event, ASSETS, isAsset, asIs));
  }
});
