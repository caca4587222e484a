/* The page as an installed app: its service worker (web/sw.js) keeps the app shell so the
 * page opens while the server cannot be reached; the connection says so and reconnects
 * by itself (connection.js). Here: register the worker, and hand it the list of what
 * this page loaded (its modules, styles and catalogs), which it keeps for next time.
 *
 * The page opens offline only once every module it imports is stored (one missing and
 * the import fails, and nothing runs): the worker answers when the list is, and the page
 * marks it on <html data-offline="ready"> ("partial": some could not be fetched). */

const WORKER = '/web/sw.js';

function loadedHere() {
  const here = location.origin;
  const urls = performance.getEntriesByType('resource').map((entry) => entry.name)
    .filter((url) => url.startsWith(`${here}/web/`));
  return ['/', ...new Set(urls)];
}

/** Ask the active worker to keep `urls`; resolves with those it could not. */
function askToKeep(worker, urls) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => {
      channel.port1.close();
      resolve(Array.isArray(event.data?.missed) ? event.data.missed : []);
    };
    worker.postMessage({ type: 'keep', urls }, [channel.port2]);
  });
}

/** Register the service worker (where the browser has them: not in every private window). */
export function keepOffline() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register(WORKER, { scope: '/' }).catch(() => {
    // No worker (e.g. a host that does not allow its scope): the page works, online only.
  });
  const post = () => navigator.serviceWorker.ready.then(async (registration) => {
    if (!registration.active) return;
    const missed = await askToKeep(registration.active, loadedHere());
    document.documentElement.dataset.offline = missed.length ? 'partial' : 'ready';
  });
  if (document.readyState === 'complete') post();
  else window.addEventListener('load', post, { once: true });
}
