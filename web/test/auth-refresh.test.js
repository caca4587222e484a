/* A refresh token goes back only to the login that issued it, and a sign-in's code only to
 * the login it was started at (auth.js). auth.js and the
 * servers.js it imports read the page's address and storage when they load: this file
 * loads them once, for a browser whose player confirmed a new login for a server after
 * the old login had issued a refresh token, against a stand-in `fetch` that records
 * every request. */

import { test } from 'node:test';
import assert from 'node:assert/strict';

const CLUB = 'wss://club.example.org/';
const LOGIN = 'https://club.auth.eu-west-1.amazoncognito.com';
const NEW_LOGIN = 'https://login.elsewhere.example';
const REFRESH = `numbridge.refresh@${CLUB}`;

class Storage {
  constructor(items = {}) {
    this.items = new Map(Object.entries(items));
  }

  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }

  setItem(key, value) {
    this.items.set(key, String(value));
  }

  removeItem(key) {
    this.items.delete(key);
  }
}

const sent = [];
globalThis.location = {
  search: '', protocol: 'http:', host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080', pathname: '/', hash: '',
};
globalThis.sessionStorage = new Storage();
globalThis.localStorage = new Storage({
  'numbridge.server': CLUB,
  'numbridge.servers': JSON.stringify([CLUB]),
  'numbridge.logins': JSON.stringify({ [CLUB]: { url: NEW_LOGIN, client: 'newclient' } }),
  'numbridge.tokens': '1',
});
globalThis.fetch = async (url, init) => {
  sent.push({ url: String(url), body: String(init.body) });
  return { ok: true, json: async () => ({ id_token: 'a-fresh-id-token' }) };
};
const auth = await import('../js/auth.js');

test('a refresh token issued by another login than the one confirmed now is never sent', async () => {
  // The bug: the refresh token was kept for the server alone, so after the player confirmed
  // another login for it (a link's), the next renewal POSTed the old login's 30-day refresh
  // token to the new one.
  assert.equal(auth.login.url, NEW_LOGIN);
  for (const kept of [JSON.stringify({ login: LOGIN, token: 'the-old-logins-refresh' }), 'a-bare-one-from-before']) {
    localStorage.setItem(REFRESH, kept);
    assert.equal(auth.canRenew(), false, kept);
    assert.equal(await auth.renewedToken(), '', kept);
  }
  assert.deepEqual(sent, []);
});

test('a refresh token issued by the login confirmed now renews there', async () => {
  // The bug this guards the other test against: no refresh token was ever sent at all.
  localStorage.setItem(REFRESH, JSON.stringify({ login: NEW_LOGIN, token: 'the-new-logins-refresh' }));
  assert.equal(auth.canRenew(), true);
  assert.equal(await auth.renewedToken(), 'a-fresh-id-token');
  assert.equal(sent.length, 1);
  assert.equal(sent[0].url, `${NEW_LOGIN}/oauth2/token`);
  assert.match(sent[0].body, /refresh_token=the-new-logins-refresh/);
});

test('a code from a sign-in started at another login is not exchanged at this one', async () => {
  // The bug: a sign-in started at the old login and finished after the player confirmed another
  // sent its code and PKCE verifier to the new login's token endpoint.
  const before = sent.length;
  for (const started of [{ login: LOGIN, server: CLUB }, { login: NEW_LOGIN, server: 'wss://other.example.org/' }]) {
    sessionStorage.setItem('numbridge.pkce', JSON.stringify({ verifier: 'v', state: 's', ...started }));
    assert.equal(await auth.finishManagedLogin(new URLSearchParams('code=the-code&state=s')), '', started.login);
  }
  assert.equal(sent.length, before);
  sessionStorage.setItem('numbridge.pkce', JSON.stringify({ verifier: 'v', state: 's', login: NEW_LOGIN, server: CLUB }));
  assert.equal(await auth.finishManagedLogin(new URLSearchParams('code=the-code&state=s')), 'a-fresh-id-token');
  assert.equal(sent.at(-1).url, `${NEW_LOGIN}/oauth2/token`);
});
