/* The service worker: keeps the app shell (the page, its modules, styles, catalogs and
 * icons) so that the page opens when the server cannot be reached, says so, and
 * reconnects by itself once it is back (connection.js retries; nothing here queues moves).
 *
 * Network first, the cache only as the fallback: the local server reads its files on
 * every request (edits show on reload), and a player should never be shown an old page
 * while the server answers. What is kept is what the page itself loaded: it posts the
 * list once this worker controls it (install.js), and every later answer refreshes it,
 * so no list of modules is written down twice. The socket and POSTs (sign-in by name)
 * never pass through here. */

const CACHE = 'numbridge-shell-v1';
// Enough to draw the page offline even before it has posted what it loaded.
const SHELL = ['/', '/web/style.css', '/web/manifest.webmanifest', '/web/favicon.svg',
  '/web/icons/icon-192.png', '/web/icons/icon-512.png'];
// A network that neither answers nor fails (a captive portal, a dead link): the cache after this.
const NETWORK_MS = 6000;

const PAGE = '/';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

const sameOrigin = (url) => new URL(url, self.location.href).origin === self.location.origin;
// The page is one document whatever its query (?token=… is taken out of the address at once);
// any other page opened (a rules page) is kept under its own address, never as the app's.
const keyOf = (request) => (request.mode === 'navigate' && new URL(request.url).pathname === PAGE
  ? PAGE : request);

// Kept: the URL (true), or it could not be fetched (false).
const keep = (cache, url) => cache.match(url)
  .then((hit) => hit || cache.add(url))
  .then(() => true, () => false);

// The page's list kept; the answer (on the port it sent, if any) says when every URL is
// stored and which were not: until then the page cannot count on opening offline.
self.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'keep' || !Array.isArray(data.urls)) return;
  const urls = data.urls.filter((url) => typeof url === 'string' && sameOrigin(url));
  const reply = event.ports && event.ports[0];
  event.waitUntil(caches.open(CACHE)
    .then((cache) => Promise.all(urls.map((url) => keep(cache, url))))
    .then((stored) => {
      if (reply) reply.postMessage({ type: 'kept', missed: urls.filter((_, k) => !stored[k]) });
    }));
});

function fromNetwork(request) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer')), NETWORK_MS);
    fetch(request).then((response) => {
      clearTimeout(timer);
      resolve(response);
    }, (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !sameOrigin(request.url)) return;
  const path = new URL(request.url).pathname;
  if (request.mode !== 'navigate' && !path.startsWith('/web/')) return;
  event.respondWith(fromNetwork(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(keyOf(request), copy)));
    }
    return response;
  }, () => caches.open(CACHE)
    .then((cache) => cache.match(keyOf(request)))
    .then((hit) => hit || Response.error())));
});
