// Parallel Lab's service worker: after the first visit the page keeps working offline.
//
// On install it reads the page's own index.html and caches it with every asset it names
// (Trunk's hashed wasm, JS, CSS and favicon). Pages are fetched network-first (a new
// deployment shows up at once) and fall back to the cache; assets are served from the cache
// and fetched (then cached) when missing. Only same-origin GET requests are touched: the lab
// makes no other kind. Works from any sub-path: everything is relative to this file.
const CACHE = 'parallel-lab-v1';
const PAGE = './';

async function precache() {
  const cache = await caches.open(CACHE);
  const response = await fetch(PAGE, { cache: 'no-cache' });
  if (!response.ok) return;
  const html = await response.clone().text();
  const assets = [...html.matchAll(/(?:href|src)="(\.\/[^"#?]+)"/g)].map((m) => m[1]);
  await cache.put(PAGE, response);
  await cache.addAll([...new Set(assets)]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function fromNetworkThenCache(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(PAGE, response.clone());
    return response;
  } catch (offline) {
    return (await cache.match(request)) || (await cache.match(PAGE)) || Response.error();
  }
}

async function fromCacheThenNetwork(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    request.mode === 'navigate' ? fromNetworkThenCache(request) : fromCacheThenNetwork(request),
  );
});
