// Parallel Lab's service worker: after the first visit the page keeps working offline.
//
// On install it reads the lesson (index.html) and embed.html (embedded widgets) and caches each
// with every asset it names (Trunk's hashed wasm, JS, CSS and favicon, and the split modules
// its parts drawn later are fetched from); the RL page and the
// planner (rl.html, plan.html) are cached with their assets as they are visited, so a lesson's
// visitor never downloads them. Pages
// are fetched network-first (a new deployment shows up at once) and fall back to the cache;
// assets are served from the cache and fetched (then cached) when missing. Only same-origin GET requests are touched: the lab
// makes no other kind. Works from any sub-path: everything is relative to this file.
const CACHE = 'parallel-lab-v3';
const PAGE = './';
const PAGES = [PAGE, './embed.html'];

async function precachePage(cache, page) {
  const response = await fetch(page, { cache: 'no-cache' });
  if (!response.ok) return;
  const html = await response.clone().text();
  const assets = [...html.matchAll(/(?:href|src)="(\.\/[^"#?]+)"/g)].map((m) => m[1]);
  // The page's split modules, fetched by the page only when it draws their parts
  // (scripts/split.mjs names them on the loader's <link>).
  for (const [, modules] of html.matchAll(/data-split-modules="([^"]*)"/g)) {
    assets.push(...modules.split(' ').filter(Boolean));
  }
  await cache.put(page, response);
  await cache.addAll([...new Set(assets)]);
}

async function precache() {
  const cache = await caches.open(CACHE);
  for (const page of PAGES) await precachePage(cache, page);
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

/** Entry points other than the lesson, each cached under its own address. */
const OTHERS = ['embed.html', 'rl.html', 'plan.html'];

/** The cache key of a page: each entry point its own; every other address is the lesson. */
function pageKey(request) {
  const path = new URL(request.url).pathname;
  const other = OTHERS.find((name) => path.endsWith('/' + name));
  return other ? './' + other : PAGE;
}

async function fromNetworkThenCache(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    // Each page under its own address (the lesson, `./` or `./index.html`, or another entry
    // point).
    if (response.ok) await cache.put(pageKey(request), response.clone());
    return response;
  } catch (offline) {
    return (await cache.match(pageKey(request))) || (await cache.match(PAGE)) || Response.error();
  }
}

/**
 * The planner's search worker: Trunk writes its files without a content hash, so a new
 * deployment reuses their names. They go network-first, so the worker always matches the page
 * that starts it; the cache answers offline.
 */
const WORKER_FILE = /\/parallel-search(_loader\.js|\.js|_bg\.wasm)$/;

async function networkThenCached(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (offline) {
    return (await cache.match(request)) || Response.error();
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
  let answer;
  if (request.mode === 'navigate') answer = fromNetworkThenCache(request);
  else if (WORKER_FILE.test(new URL(request.url).pathname)) answer = networkThenCached(request);
  else answer = fromCacheThenNetwork(request);
  event.respondWith(answer);
});
