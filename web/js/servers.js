/* Which server the page plays on, and which servers it may reach at all.
 *
 * A link may name another server (`?server=wss://…`, a deployed stack's WebSocketURI, with
 * its `?login=` and `?client=`). The page asks before it connects to one the player has
 * not confirmed (server-ask.js); declining keeps the server it had. Then, before any
 * socket opens, `limitConnections` narrows the page's connect-src to its own origin, the
 * servers confirmed and their login: the served policy allows any ws:/wss: host because
 * the confirmed list lives in this browser, and a second policy only narrows the first. */

const SERVER_KEY = 'numbridge.server';
const CONFIRMED_KEY = 'numbridge.servers';
const LOGIN_KEY = 'numbridge.login';
const CLIENT_KEY = `${LOGIN_KEY}.client`;

/** A server's address (a ws: or wss: URL, normalised), or null for anything else. */
export function serverAddress(value) {
  try {
    const url = new URL(String(value).trim());
    return url.protocol === 'ws:' || url.protocol === 'wss:' ? url.href : null;
  } catch (_) {
    return null;
  }
}

/** The page's own server: the one that served it. */
export const ownServer = () => `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/`;

function confirmedList() {
  try {
    const list = JSON.parse(localStorage.getItem(CONFIRMED_KEY) || '[]');
    return Array.isArray(list) ? list.filter((item) => serverAddress(item) === item) : [];
  } catch (_) {
    return [];
  }
}

const isConfirmed = (address) => confirmedList().includes(address);

// What the address asks, read before sign-in.js takes it out (null: nothing asked).
const params = new URLSearchParams(location.search);
const asked = params.has('server') ? params.get('server').trim() : null;
// '' the page's own server; an address; undefined: the link names none (or nothing valid).
const linked = asked === null ? undefined
  : asked === '' || serverAddress(asked) === ownServer() ? '' : (serverAddress(asked) ?? undefined);

/** The server played on ('' the page's own). */
export let server = localStorage.getItem(SERVER_KEY) || '';
if (server && serverAddress(server) !== server) server = '';
/** Cognito's managed login of that server: the pool's domain URL and the app client id. */
export let login = { url: localStorage.getItem(LOGIN_KEY) || '', client: localStorage.getItem(CLIENT_KEY) || '' };
/** The link was declined: nothing else it carries (a token, a login) is taken either. */
export let declined = false;

/** The server to ask about before connecting ('' none): one the link names, or one kept
 * from before servers were confirmed, that the player has not confirmed. */
export function serverToConfirm() {
  const wanted = linked === undefined ? server : linked;
  return wanted && !isConfirmed(wanted) ? wanted : '';
}

/** Settle which server to play on: `confirmed` is the player's answer (null: not asked). */
export function settleServer(confirmed) {
  if (confirmed === false) {
    declined = true;
    // The server kept stays, unless it was never confirmed (kept from before the page
    // asked): then the page's own.
    if (server && !isConfirmed(server)) useServer('');
    return;
  }
  const wanted = linked === undefined ? server : linked;
  if (wanted && !isConfirmed(wanted)) {
    localStorage.setItem(CONFIRMED_KEY, JSON.stringify([...confirmedList(), wanted]));
  }
  if (linked === undefined) return;
  useServer(linked);
  // A stack's login comes with its server in the link (docs/aws.md), never alone.
  if (linked) {
    for (const [name, key] of [['login', LOGIN_KEY], ['client', CLIENT_KEY]]) {
      const value = (params.get(name) || '').trim();
      if (value) localStorage.setItem(key, value);
      else localStorage.removeItem(key);
    }
  }
  login = { url: localStorage.getItem(LOGIN_KEY) || '', client: localStorage.getItem(CLIENT_KEY) || '' };
}

function useServer(address) {
  server = address;
  if (address) localStorage.setItem(SERVER_KEY, address);
  else localStorage.removeItem(SERVER_KEY);
}

const originOf = (url) => {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch (_) {
    return null;
  }
};

/** What connect-src allows: the page's own origin (and its socket), the confirmed servers,
 * the login of the server played on. */
export function allowedSources() {
  const own = originOf(ownServer());
  const sources = new Set(["'self'", own]);
  for (const address of confirmedList()) sources.add(originOf(address));
  if (server && login.url) sources.add(originOf(login.url));
  sources.delete(null);
  return [...sources];
}

/** Narrow connect-src for the rest of the page's life (a policy can only be narrowed):
 * called once the server is settled, before any socket opens. */
export function limitConnections() {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = `connect-src ${allowedSources().join(' ')}`;
  document.head.append(meta);
}
