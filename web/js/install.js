/* The page as an installed app: its service worker (web/sw.js) keeps the app shell so the
 * page opens while the server cannot be reached; the connection says so and reconnects
 * by itself (connection.js). Here: register the worker, and hand it the list of what
 * this page loaded (its modules, styles and catalogs), which it keeps for next time. */

const WORKER = '/web/sw.js';

function loadedHere() {
  const here = location.origin;
  const urls = performance.getEntriesByType('resource').map((entry) => entry.name)
    .filter((url) => url.startsWith(`${here}/web/`));
  return ['/', ...new Set(urls)];
}

/** Register the service worker (where the browser has them: not in every private window). */
export function keepOffline() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register(WORKER, { scope: '/' }).catch(() => {
    // No worker (e.g. a host that does not allow its scope): the page works, online only.
  });
  const post = () => navigator.serviceWorker.ready.then((registration) => {
    if (registration.active) registration.active.postMessage({ type: 'keep', urls: loadedHere() });
  });
  if (document.readyState === 'complete') post();
  else window.addEventListener('load', post, { once: true });
}
