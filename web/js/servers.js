/* Which server the page plays on, which servers it may reach at all, and each one's login.
 *
 * A link may name another server (`?server=wss://…`, a deployed stack's WebSocketURI, with
 * its `?login=` and `?client=`). The page asks before it connects to one the player has
 * not confirmed (server-ask.js); declining keeps the server it had. A login is the
 * address the page sends the player's refresh token to, so it is asked about too: its
 * address is shown with the server's, and a link naming a server confirmed before with
 * another login asks again. A login is kept for the server it came with and is only ever
 * used for that one. Then, before any socket opens, `limitConnections` narrows the page's
 * connect-src to its own origin, the servers confirmed and the login of the server
 * played on: the served policy allows any ws:/wss: host because the confirmed list lives
 * in this browser, and a second policy only narrows the first. */

import { appClientId, loginAddress } from './login-address.js';

const SERVER_KEY = 'numbridge.server';
const CONFIRMED_KEY = 'numbridge.servers';
// {server address: {url, client}}: the login confirmed for each server.
const LOGINS_KEY = 'numbridge.logins';

// One login for every server, set by any link without asking: never trusted, never used.
for (const old of ['numbridge.login', 'numbridge.login.client']) localStorage.removeItem(old);

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

function loginsKept() {
  try {
    const kept = JSON.parse(localStorage.getItem(LOGINS_KEY) || '{}');
    return kept && typeof kept === 'object' && !Array.isArray(kept) ? kept : {};
  } catch (_) {
    return {};
  }
}

const NO_LOGIN = Object.freeze({ url: '', client: '' });

/** The login confirmed for server `address` (NO_LOGIN: none), checked again as read. */
export function loginOf(address) {
  const logins = loginsKept();
  const kept = address && isConfirmed(address) && Object.hasOwn(logins, address) ? logins[address] : null;
  const url = kept && loginAddress(kept.url);
  const client = kept && appClientId(kept.client);
  return url && client ? { url, client } : NO_LOGIN;
}

function keepLogin(address, { url, client }) {
  localStorage.setItem(LOGINS_KEY, JSON.stringify({ ...loginsKept(), [address]: { url, client } }));
}

// What the address asks, read before sign-in.js takes it out (null: nothing asked).
const params = new URLSearchParams(location.search);
const asked = params.has('server') ? params.get('server').trim() : null;
// '' the page's own server; an address; undefined: the link names none (or nothing valid).
const linked = asked === null ? undefined
  : asked === '' || serverAddress(asked) === ownServer() ? '' : (serverAddress(asked) ?? undefined);
// The login the link names with its server (a stack's, docs/aws.md; never alone, never for
// the page's own server): null if none, or if it is not an address the page would use.
const namesLogin = Boolean(linked) && (params.has('login') || params.has('client'));
const linkedLogin = (() => {
  if (!namesLogin) return null;
  const url = loginAddress(params.get('login'));
  const client = appClientId(params.get('client'));
  return url && client ? { url, client } : null;
})();
/** The link named a login the page does not take (not https:, no client id): said once. */
export const loginRefused = namesLogin && !linkedLogin;

/** The server played on ('' the page's own). */
export let server = localStorage.getItem(SERVER_KEY) || '';
if (server && serverAddress(server) !== server) server = '';
/** Cognito's managed login of that server (the pool's domain URL and the app client id),
 * as the player confirmed it for that server; empty strings where there is none. */
export let login = loginOf(server);
/** The link was declined: nothing else it carries (a token, a login) is taken either. */
export let declined = false;

const sameLogin = (a, b) => a.url === b.url && a.client === b.client;

/** What to ask about before connecting (null: nothing): `server`, the address the link
 * names (or one kept from before servers were confirmed) that the player has not
 * confirmed, or one confirmed whose login the link would change; `login`, the address of
 * the login the link names ('' none); `known`, whether the server was confirmed before. */
export function toConfirm() {
  const wanted = linked === undefined ? server : linked;
  if (!wanted) return null;
  const known = isConfirmed(wanted);
  const newLogin = linked && linkedLogin && !(known && sameLogin(linkedLogin, loginOf(wanted)));
  if (known && !newLogin) return null;
  return { server: wanted, login: newLogin ? linkedLogin.url : '', known };
}

/** Settle which server to play on: `confirmed` is the player's answer (null: not asked). */
export function settleServer(confirmed) {
  if (confirmed === false) {
    declined = true;
    // The server kept stays, unless it was never confirmed (kept from before the page
    // asked): then the page's own. Its login stays the one confirmed before.
    if (server && !isConfirmed(server)) useServer('');
    return;
  }
  const wanted = linked === undefined ? server : linked;
  if (wanted && !isConfirmed(wanted)) {
    localStorage.setItem(CONFIRMED_KEY, JSON.stringify([...confirmedList(), wanted]));
  }
  if (linked === undefined) return;
  // A login is taken only as the player confirmed it, for the server it came with: a
  // link with the login kept, or none, leaves the kept one as it is.
  if (confirmed === true && linked && linkedLogin) keepLogin(linked, linkedLogin);
  useServer(linked);
}

function useServer(address) {
  server = address;
  if (address) localStorage.setItem(SERVER_KEY, address);
  else localStorage.removeItem(SERVER_KEY);
  login = loginOf(address);
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
 * the login confirmed for the server played on (no other server's). */
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
