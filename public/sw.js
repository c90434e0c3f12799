// StreamDesk service worker (spec §2: registered from /sw.js on load).
//  - the app shell (the page, offline page, icons) is cached on install; the manifest is
//    /api/manifest.webmanifest, built from the business's branding, so it is never cached here
//  - navigations: network first; offline → /offline.html
//  - /assets/* (hashed by Vite, never change): cache first
//  - other same-origin files (icons, images): stale while revalidate
//  - /api/*: never cached, never touched; live data must be live
const VERSION = "v3";
const SHELL_CACHE = `streamdesk-shell-${VERSION}`;
const ASSET_CACHE = `streamdesk-assets-${VERSION}`;
const SHELL = ["/", "/app-start.js", "/offline.html", "/icon-192.png", "/favicon.svg"];
const MAX_ASSETS = 80;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      // One missing file must not stop the worker from installing.
      .then((cache) => Promise.allSettled(SHELL.map((url) => cache.add(new Request(url, { cache: "reload" })))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== SHELL_CACHE && key !== ASSET_CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname === "/api" || url.pathname.startsWith("/api/")) return;
  if (url.pathname === "/sw.js") return;

  if (request.mode === "navigate") {
    event.respondWith(networkFirstPage(request));
  } else if (url.pathname.startsWith("/assets/")) {
    event.respondWith(cacheFirst(request));
  } else {
    event.respondWith(staleWhileRevalidate(request));
  }
});

async function networkFirstPage(request) {
  try {
    const response = await fetch(request);
    // Every page is the same SPA shell: keep the newest copy.
    if (response.ok) {
      const copy = response.clone();
      caches.open(SHELL_CACHE).then((cache) => cache.put("/", copy));
    }
    return response;
  } catch {
    return (await caches.match("/offline.html")) ?? Response.error();
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(ASSET_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    await cache.put(request, response.clone());
    trim(cache);
  }
  return response;
}

async function staleWhileRevalidate(request) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(request);
  const network = fetch(request)
    .then((response) => {
      if (response.ok) {
        const copy = response.clone();
        cache.put(request, copy);
      }
      return response;
    })
    .catch(() => cached ?? Response.error());
  return cached ?? network;
}

/** Old releases' hashed files pile up; keep the newest MAX_ASSETS. */
async function trim(cache) {
  const keys = await cache.keys();
  for (const key of keys.slice(0, Math.max(0, keys.length - MAX_ASSETS))) await cache.delete(key);
}
