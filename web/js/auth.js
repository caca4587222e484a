/* Who the page plays as: a player token, and the ways to get one.
 *
 * - the local server (`numbridge serve`): a name and a password, `POST /local/token`
 *   (a new name makes the account; a name alone where the server runs --open-sign-in);
 * - any server: a pasted token (`numbridge token NAME`) or `?token=TOKEN`;
 * - a deployed stack: `?server=wss://…` (its WebSocketURI) and, for Cognito's managed
 *   login, `?login=https://…` (CognitoLoginUrl) with `&client=…` (CognitoClientId).
 * Settings given in the address are remembered and then taken out of it; which server
 * is played on, and whether a link's server and login are taken, is servers.js's. A
 * refresh token is kept with the login that issued it and only ever sent back there. */

import { REFUSED_BY_STATUS, SIGN_IN_CODES, WEAK_PASSWORD_REASONS } from './refusals.js';
import { declined, login, server } from './servers.js';

export { login, server } from './servers.js';

const TOKEN_KEY = 'numbridge.token';
const NAME_KEY = 'numbridge.name';
const REFRESH_KEY = 'numbridge.refresh';
const PKCE_KEY = 'numbridge.pkce';
const PER_SERVER_KEY = 'numbridge.tokens';

// Tokens are kept per server: a server's token is never sent to another. The page's own
// server keeps the old key; another's is suffixed with its address.
const keyFor = (base) => (server ? `${base}@${server}` : base);

// Once: a token kept under the one key of old was the server then chosen's.
if (!localStorage.getItem(PER_SERVER_KEY)) {
  const chosen = localStorage.getItem('numbridge.server');
  const old = localStorage.getItem(TOKEN_KEY);
  if (chosen && old) {
    localStorage.setItem(`${TOKEN_KEY}@${chosen}`, old);
    localStorage.removeItem(TOKEN_KEY);
  }
  localStorage.setItem(PER_SERVER_KEY, '1');
}

/** Signing in by name works only against the page's own (local) server. */
export const canSignInByName = () => !server;
export const hasManagedLogin = () => Boolean(server && login.url && login.client);

export function tokenClaims(token) {
  try {
    const part = token.split('.')[1];
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
    const json = atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, '='));
    const claims = JSON.parse(json);
    return claims && typeof claims === 'object' ? claims : null;
  } catch (_) {
    return null;
  }
}

/** The player a token names: Cognito's username (ID or access token), else `sub`. */
export function playerName(token) {
  const claims = tokenClaims(token);
  if (!claims) return '';
  for (const key of ['cognito:username', 'username', 'sub']) {
    if (typeof claims[key] === 'string') return claims[key];
  }
  return '';
}

export function expired(token, marginMs = 0) {
  const claims = tokenClaims(token);
  return Boolean(claims) && typeof claims.exp === 'number' && claims.exp * 1000 < Date.now() + marginMs;
}

/** The token a link brought ('' none), taken out of the address (history, screenshots)
 * with the rest of what the link set. Whether it is used is the player's to say when it
 * names somebody else than the page plays as (sign-in.js). */
export function takeLinkToken() {
  const params = new URLSearchParams(location.search);
  const fromUrl = (params.get('token') || '').trim();
  for (const name of ['token', 'server', 'login', 'client', 'code', 'state']) params.delete(name);
  const query = params.toString();
  history.replaceState(null, '', location.pathname + (query ? `?${query}` : '') + location.hash);
  // A link declined brought a token for the server it named: not this one's.
  return declined ? '' : fromUrl;
}

/** The token kept for the server played on ('' none). */
export const storedToken = () => sessionStorage.getItem(keyFor(TOKEN_KEY)) || localStorage.getItem(keyFor(TOKEN_KEY)) || '';

export function rememberToken(token) {
  sessionStorage.setItem(keyFor(TOKEN_KEY), token);
  localStorage.setItem(keyFor(TOKEN_KEY), token);
}

export function forgetToken() {
  sessionStorage.removeItem(keyFor(TOKEN_KEY));
  localStorage.removeItem(keyFor(TOKEN_KEY));
  localStorage.removeItem(keyFor(REFRESH_KEY));
}

export const rememberedName = () => localStorage.getItem(NAME_KEY) || '';
export const rememberName = (name) => localStorage.setItem(NAME_KEY, name);
export const forgetName = () => localStorage.removeItem(NAME_KEY);

/**
 * Why signing in failed, as a catalog key's last part (`signin.<code>`, i18n.js) and
 * what fills it: the page words it in the player's language.
 */
export class SignInError extends Error {
  constructor(code, params = {}) {
    super(code);
    this.code = code;
    this.params = params;
  }
}


/** `POST /local/token`: a token for `name` from the local server (SignInError: why not).
 * Without a password only a server started with --open-sign-in signs the name in. */
export async function signInByName(name, password = '') {
  let response;
  try {
    response = await fetch('/local/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(password ? { name, password } : { name }),
      cache: 'no-store',
    });
  } catch (_) {
    throw new SignInError('server_down');
  }
  let answer = null;
  try {
    answer = await response.json();
  } catch (_) {
    answer = null;
  }
  if (response.ok && answer && typeof answer.token === 'string') return answer.token;
  const code = answer && typeof answer.code === 'string' ? answer.code : '';
  if (code === 'rate_limited') {
    throw new SignInError('rate_limited', { seconds: Math.ceil((answer.retry_after_ms || 1000) / 1000) });
  }
  if (code === 'bad_request' && !password) throw new SignInError('need_password');
  if (code === 'weak_password' && WEAK_PASSWORD_REASONS.includes(answer.reason)) {
    throw new SignInError(`password_${answer.reason}`);
  }
  if (SIGN_IN_CODES.includes(code)) throw new SignInError(code);
  if (!code && REFUSED_BY_STATUS[response.status]) throw new SignInError(REFUSED_BY_STATUS[response.status]);
  // A code this page does not know (a newer server): the server's own words, English.
  if (answer && typeof answer.error === 'string') throw new SignInError('refused', { reason: answer.error });
  if (response.status === 404 || response.status === 405) throw new SignInError('no_name_sign_in');
  throw new SignInError('failed', { status: response.status });
}

// ------------------------------------------------------- Cognito managed login (PKCE)

const base64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)))
  .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const redirectUri = () => location.origin + location.pathname;

export async function startManagedLogin() {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const state = base64url(crypto.getRandomValues(new Uint8Array(16)));
  const challenge = base64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  // The code is exchanged only with the login it came from, for the same server.
  sessionStorage.setItem(PKCE_KEY, JSON.stringify({ verifier, state, login: login.url, server }));
  const query = new URLSearchParams({
    response_type: 'code', client_id: login.client, redirect_uri: redirectUri(),
    scope: 'openid email profile', state, code_challenge_method: 'S256', code_challenge: challenge,
  });
  location.assign(`${login.url}/oauth2/authorize?${query}`);
}

/** Tokens from Cognito's token endpoint; the ID token is the player token. */
async function cognitoTokens(grant) {
  const response = await fetch(`${login.url}/oauth2/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: login.client, ...grant }),
  });
  if (!response.ok) throw new SignInError('failed', { status: response.status });
  const tokens = await response.json();
  if (tokens.refresh_token) {
    localStorage.setItem(keyFor(REFRESH_KEY), JSON.stringify({ login: login.url, token: tokens.refresh_token }));
  }
  return tokens.id_token;
}

/** The refresh token kept for this server, if the login confirmed for it now is the one
 * that issued it ('' otherwise: a token kept bare, from before, names no login). */
function keptRefresh() {
  try {
    const kept = JSON.parse(localStorage.getItem(keyFor(REFRESH_KEY)) || 'null');
    const fits = kept && typeof kept.token === 'string' && login.url && kept.login === login.url;
    return fits ? kept.token : '';
  } catch (_) {
    return '';
  }
}

/** Back from managed login with `?code=`: the player token, or '' if this is no such return. */
export async function finishManagedLogin(params) {
  const code = params.get('code');
  let pending = null;
  try {
    pending = JSON.parse(sessionStorage.getItem(PKCE_KEY) || 'null');
  } catch (_) {
    pending = null;
  }
  sessionStorage.removeItem(PKCE_KEY);
  if (!code || !pending || !login.url || params.get('state') !== pending.state) return '';
  if (pending.login !== login.url || pending.server !== server) return '';
  return cognitoTokens({
    grant_type: 'authorization_code', code, redirect_uri: redirectUri(), code_verifier: pending.verifier,
  });
}

export const canRenew = () => Boolean(keptRefresh());

/** A fresh ID token for an expired one, when Cognito gave us a refresh token; else ''. */
export async function renewedToken() {
  const refresh = keptRefresh();
  if (!refresh) return '';
  try {
    return await cognitoTokens({ grant_type: 'refresh_token', refresh_token: refresh });
  } catch (_) {
    localStorage.removeItem(keyFor(REFRESH_KEY));
    return '';
  }
}
