// The players' pages' service worker (tournaments/views/report_offline.py): once a player's
// page has been opened, it and its scripts come from the phone when the network does not answer.
// Reports are never sent from here except on a Background Sync; the page's queue
// (static/js/report-queue.js) does the sending.
const CONFIG = {{ config }};
const PAGE = /^\/r\/[A-Za-z0-9_-]+\/$/;  // a player's page, not its polls or forms
const WAIT_MS = 4000;  // weak Wi-Fi: after this the phone's copy is shown

importScripts(...CONFIG.scripts);

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CONFIG.cache).then((cache) => cache.addAll(CONFIG.files)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("pegboard-player-") && name !== CONFIG.cache)
          .map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

// The page: from the network when it answers in time (and kept), else the phone's copy.
async function page(request) {
  const cache = await caches.open(CONFIG.cache);
  const fromNetwork = fetch(request).then((response) => {
    if (response.status === 200) cache.put(request, response.clone());
    return response;
  });
  const late = new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  try {
    const first = await Promise.race([fromNetwork, late]);
    if (first) return first;
  } catch (error) {
    // No network: the copy below.
  }
  const kept = await cache.match(request, { ignoreSearch: true });
  if (kept) return kept;
  return fromNetwork.catch(() => new Response(
    "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<title>No connection</title><h1>No connection</h1><p>This phone has not opened this page " +
    "with a connection yet. Try again when the Wi-Fi is back, or report on paper.</p>",
    { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } }
  ));
}

// A script or style: the phone's copy at once, refreshed from the network for next time.
async function file(request) {
  const cache = await caches.open(CONFIG.cache);
  const kept = await cache.match(request);
  const fresh = fetch(request).then((response) => {
    if (response.status === 200) cache.put(request, response.clone());
    return response;
  });
  if (kept) {
    fresh.catch(() => null);
    return kept;
  }
  return fresh;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (PAGE.test(url.pathname) && !url.search) event.respondWith(page(request));
  else if (url.pathname.startsWith(CONFIG.static)) event.respondWith(file(request));
});

// Background Sync (Chromium): reports queued on the phone are sent even after the page closed.
self.addEventListener("sync", (event) => {
  if (event.tag !== "pegboard-reports") return;
  // Still waiting (no network yet): the browser tries the sync again later.
  event.waitUntil(self.ReportQueue.sendAll(null, tell).then((left) => {
    if (left > 0) throw new Error(`${left} reports still wait`);
  }));
});

// Open players' pages draw their queue again when the worker changed it.
function tell() {
  return self.clients.matchAll({ type: "window" }).then((clients) => {
    clients.forEach((client) => client.postMessage("reports-changed"));
  });
}
