/* What a link may change without the player's word (servers.js, login-address.js) and
 * what the sign-in form lets through (account-rules.js). servers.js reads the page's
 * address and storage when it loads: each case loads a fresh copy of it against a
 * stand-in `location` and `localStorage`. */

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { checkedName, passwordProblem } from '../js/account-rules.js';
import { appClientId, loginAddress } from '../js/login-address.js';

const PAGE = 'http://127.0.0.1:8080';
const CLUB = 'wss://club.example.org/';
const OTHER = 'wss://other.example.org/';
const LOGIN = 'https://club.auth.eu-west-1.amazoncognito.com';
const EVIL = 'https://login.evil.example';

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

let loads = 0;

/** servers.js loaded afresh for a page opened at `query` with `stored` in its storage. */
async function serversAt(query, stored = {}) {
  const url = new URL(`${PAGE}/${query}`);
  globalThis.location = { search: url.search, protocol: url.protocol, host: url.host };
  globalThis.localStorage = new Storage(stored);
  loads += 1;
  return import(`../js/servers.js?load=${loads}`);
}

const link = (server, login, client) => `?${new URLSearchParams(
  Object.fromEntries(Object.entries({ server, login, client }).filter(([, v]) => v !== undefined)))}`;

// A browser that confirmed CLUB with its login, and OTHER without one.
const CONFIRMED = {
  'numbridge.server': CLUB,
  'numbridge.servers': JSON.stringify([CLUB, OTHER]),
  'numbridge.logins': JSON.stringify({ [CLUB]: { url: LOGIN, client: 'clubclient' } }),
};

test('a link with an attacker\'s login for a confirmed server asks, and declining keeps the login', async () => {
  // The bug: the link's login replaced the stored one unasked, and the refresh token went there.
  const servers = await serversAt(link(CLUB, EVIL, 'evilclient'), CONFIRMED);
  assert.deepEqual(servers.toConfirm(), { server: CLUB, login: EVIL, known: true });
  assert.deepEqual(servers.login, { url: LOGIN, client: 'clubclient' });
  servers.settleServer(false);
  assert.equal(servers.declined, true);
  assert.deepEqual(servers.login, { url: LOGIN, client: 'clubclient' });
  assert.ok(!servers.allowedSources().includes(EVIL), servers.allowedSources());
  assert.ok(servers.allowedSources().includes(LOGIN));
  assert.equal(JSON.parse(localStorage.getItem('numbridge.logins'))[CLUB].url, LOGIN);
});

test('a login the player confirms is kept for its server, and connect-src names it', async () => {
  // The bug: a login the player confirmed was not kept for its server, or connect-src still named the old one.
  const servers = await serversAt(link(CLUB, EVIL, 'evilclient'), CONFIRMED);
  servers.settleServer(true);
  assert.deepEqual(servers.login, { url: EVIL, client: 'evilclient' });
  assert.ok(servers.allowedSources().includes(EVIL));
  assert.ok(!servers.allowedSources().includes(LOGIN));
});

test('the first question about a server shows the login that comes with it', async () => {
  // The bug: the question named the server alone, and the login its refresh tokens would go to came unseen.
  const servers = await serversAt(link(CLUB, LOGIN, 'clubclient'));
  assert.deepEqual(servers.toConfirm(), { server: CLUB, login: LOGIN, known: false });
  assert.deepEqual(servers.login, { url: '', client: '' }); // nothing before the answer
  servers.settleServer(true);
  assert.equal(servers.server, CLUB);
  assert.deepEqual(servers.login, { url: LOGIN, client: 'clubclient' });
});

test('a link naming the login kept, or none, asks nothing and keeps the login', async () => {
  // The bug: every link to a confirmed server asked again, or one without login= dropped the login kept.
  for (const query of [link(CLUB, LOGIN, 'clubclient'), link(CLUB)]) {
    const servers = await serversAt(query, CONFIRMED);
    assert.equal(servers.toConfirm(), null, query);
    servers.settleServer(null);
    assert.deepEqual(servers.login, { url: LOGIN, client: 'clubclient' }, query);
  }
});

test('a login kept for one server is never another server\'s', async () => {
  // The bug: one login for every server, so server B's page sent A's login its tokens.
  const servers = await serversAt(link(OTHER), CONFIRMED);
  servers.settleServer(null);
  assert.equal(servers.server, OTHER);
  assert.deepEqual(servers.login, { url: '', client: '' });
  assert.ok(!servers.allowedSources().includes(LOGIN));
  // The login a link names for the page's own server is not taken at all.
  const own = await serversAt(link('', EVIL, 'evilclient'), CONFIRMED);
  assert.equal(own.toConfirm(), null);
  own.settleServer(null);
  assert.deepEqual(own.login, { url: '', client: '' });
});

test('a login that is not https: is not taken, and the page says so', async () => {
  // The bug: an http:, javascript: or credentialed login was taken from a link (the refresh token sent
  // in the clear, or to a script), or dropped without a word to the player.
  for (const bad of ['http://login.evil.example', 'javascript:alert(1)', 'https://user:pw@login.example', '']) {
    const servers = await serversAt(link(CLUB, bad, 'evilclient'), CONFIRMED);
    assert.equal(servers.loginRefused, true, bad);
    assert.equal(servers.toConfirm(), null, bad);
    servers.settleServer(null);
    assert.deepEqual(servers.login, { url: LOGIN, client: 'clubclient' }, bad);
  }
});

test('a login kept for a server the player never confirmed is not used', async () => {
  // The bug: a login found in storage for a server kept from before servers were confirmed was used
  // (its address in connect-src, the refresh token sent there) before the player said yes, and after no.
  const stored = {
    'numbridge.server': OTHER,
    'numbridge.logins': JSON.stringify({ [OTHER]: { url: EVIL, client: 'evilclient' } }),
  };
  const servers = await serversAt('', stored);
  assert.deepEqual(servers.toConfirm(), { server: OTHER, login: '', known: false });
  assert.deepEqual(servers.login, { url: '', client: '' });
  assert.ok(!servers.allowedSources().includes(EVIL), servers.allowedSources());
  servers.settleServer(false);
  assert.equal(servers.server, '');
  assert.deepEqual(servers.login, { url: '', client: '' });
});

test('the one login of old, set by any link unasked, is dropped and never used', async () => {
  // The bug: the single login of before, which any link set without asking, still got the refresh token.
  const servers = await serversAt('', {
    ...CONFIRMED, 'numbridge.logins': '{}', 'numbridge.login': EVIL, 'numbridge.login.client': 'evilclient',
  });
  assert.deepEqual(servers.login, { url: '', client: '' });
  assert.equal(localStorage.getItem('numbridge.login'), null);
  assert.equal(localStorage.getItem('numbridge.login.client'), null);
});

test('a login is https:, or http: on this machine only; an app client id is Cognito\'s shape', () => {
  // The bug: a login with a query, a fragment or credentials, or a client id that carries parameters
  // (`&redirect_uri=`), was taken from a link.
  assert.equal(loginAddress('https://club.auth.eu-west-1.amazoncognito.com/'), 'https://club.auth.eu-west-1.amazoncognito.com');
  assert.equal(loginAddress(' https://login.club.example/auth '), 'https://login.club.example/auth');
  assert.equal(loginAddress('http://localhost:9229'), 'http://localhost:9229');
  assert.equal(loginAddress('http://127.0.0.1:9229/'), 'http://127.0.0.1:9229');
  for (const bad of ['http://club.example', 'http://127.0.0.2', 'ftp://club.example', 'data:text/html,x',
    'https://a@club.example', 'https://club.example/?x=1', 'https://club.example/#x', 'club.example', null]) {
    assert.equal(loginAddress(bad), null, String(bad));
  }
  assert.equal(appClientId('4d6q1r2s3t4u5v6w7x8y9z0abc'), '4d6q1r2s3t4u5v6w7x8y9z0abc');
  for (const bad of ['', 'a b', 'x&redirect_uri=https://evil', 'x'.repeat(129), null]) assert.equal(appClientId(bad), null);
});

test('a name of one alphabet, Latin, Greek or Cyrillic, passes as NFC', () => {
  // The bug: the form's rule was ASCII only, so Greek and Cyrillic names never reached the server.
  for (const name of ['ana', 'Γιώργος', 'Пламен', 'José_2', 'a.b-c', 'Zoë', 'x'.repeat(32), 'ab']) {
    assert.equal(checkedName(name), name, name);
  }
  assert.equal(checkedName('Γιώργος'.normalize('NFD')), 'Γιώργος'); // typed with a combining accent
  for (const bad of ['a', 'x'.repeat(33), 'no spaces', 'ana\n', 'Аna', 'Γιώργοςabc', '名字', 'ana!', '']) {
    assert.equal(checkedName(bad), null, JSON.stringify(bad));
  }
  // Counted in characters, not UTF-16 units: 32 Greek letters pass, 33 do not; and 32 Latin letters
  // beyond the BMP (U+1DF00, two units each, a name the server takes) pass too.
  assert.equal(checkedName('α'.repeat(32)), 'α'.repeat(32));
  assert.equal(checkedName('α'.repeat(33)), null);
  assert.equal(checkedName('\u{1DF00}'.repeat(32)), '\u{1DF00}'.repeat(32));
  assert.equal(checkedName('\u{1DF00}'.repeat(33)), null);
});

test('a password is 8 to 128 characters, or none at all (a name alone)', () => {
  // The bug: the form let a 129-character password through to a server that takes 128, or refused an
  // empty one, which a server with open sign-in takes.
  assert.equal(passwordProblem(''), '');
  assert.equal(passwordProblem('short'), 'short');
  assert.equal(passwordProblem('eight ch'), '');
  assert.equal(passwordProblem('x'.repeat(128)), '');
  assert.equal(passwordProblem('x'.repeat(129)), 'long');
});
