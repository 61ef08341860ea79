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
  // The copy carries when it was fetched; the page reads it from a meta tag.
  return response.text().then((html) => {
    const saved = `<meta name="offline-saved-at" content="${Date.now()}">`;
    const body = html.includes("</head>") ? html.replace("</head>", saved + "</head>") : saved + html;
    return new Response(body, { status: 200, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

function timeout(ms) {
  return new Promise((resolve, reject) => setTimeout(() => reject(new Error("slow network")), ms));
}

async function page(request) {
  const cache = await caches.open(PAGES);
  const network = fetch(request).then((response) => {
    if (response.ok && (response.headers.get("Content-Type") || "").startsWith("text/html")) {
      cache.put(request.url, response.clone());
    }
    return response;
  });
  try {
    return await Promise.race([network, timeout(NETWORK_WAIT_MS)]);
  } catch (error) {
    const copy = await cache.match(request.url);
    if (copy) return stamped(copy);
    return network; // no copy: the browser's own offline page
  }
}

async function asset(request) {
  const cache = await caches.open(ASSETS);
  const copy = await cache.match(request);
  const network = fetch(request)
    .then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    })
    .catch(() => copy);
  return copy || network;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    if (url.pathname.startsWith("/admin/") || url.pathname.startsWith("/accounts/")) return;
    event.respondWith(page(request));
  } else if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/jsi18n/")) {
    // Scripts, styles, icons and the script strings: from the copy at once, refreshed behind.
    event.respondWith(asset(request));
  }
});
