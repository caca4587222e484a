/* Who the page plays as: the sign-in card (a name, a pasted token, the club's managed
 * login), the identity in the header, and starting the connection with a token. */

import { checkedName, passwordProblem } from './account-rules.js';
import * as auth from './auth.js';
import { $, toast } from './dom.js';
import { fmtUnit, t } from './i18n.js';
import { askAboutPlayer } from './server-ask.js';
import { forgetGames } from './shown-game.js';

/** A token about to expire renewed first (Cognito's last an hour), where it can be. */
export async function freshToken(app, token) {
  if (!auth.expired(token, 30000) || !auth.canRenew()) return token;
  const renewed = await auth.renewedToken();
  if (renewed) setIdentity(app, renewed);
  return renewed || token;
}

/** Why signing in failed, in the player's words (auth.js SignInError; anything else: the browser's). */
function signInProblem(err) {
  if (err instanceof auth.SignInError) {
    // A wait in the language's own unit ("45 s", "45 δευτ.", "45 сек").
    const wait = typeof err.params.seconds === 'number' ? fmtUnit(err.params.seconds, 'second') : undefined;
    return t(`signin.${err.code}`, { ...err.params, wait });
  }
  return t('signin.failed_because', { reason: String(err.message || err) });
}

function setIdentity(app, token) {
  auth.rememberToken(token);
  app.me = auth.playerName(token);
  $('#who').textContent = app.me ? t('header.playing_as', { name: app.me }) : '';
  $('#change-name').hidden = false;
}

export function showApp(app) {
  app.ui.changingName = false;
  $('#login').hidden = true;
  $('#app').hidden = false;
}

/** The sign-in card, with `problem` (if any) said above it. */
export function showLogin(app, problem, { changing = false } = {}) {
  app.ui.changingName = changing;
  $('#login').hidden = false;
  $('#app').hidden = true;
  $('#name-form').hidden = !auth.canSignInByName();
  $('#cognito-login').hidden = !auth.hasManagedLogin();
  $('#login-cancel').hidden = !app.conn.token;
  const details = $('#token-login');
  if (!auth.canSignInByName()) details.open = true;
  const node = $('#login-problem');
  node.hidden = !problem;
  node.textContent = problem || '';
  const name = $('#name-input');
  if (!name.value) name.value = auth.rememberedName() || app.me;
  const first = name.value ? $('#password-input') : name;
  (auth.canSignInByName() ? first : $('#token-input')).focus();
}

export function startWith(app, token) {
  const player = auth.playerName(token);
  if (!player) {
    showLogin(app, t('signin.not_a_token'));
    return;
  }
  if (app.me && player !== app.me) forgetGames(app);
  app.conn.use(token); // nothing of another token's is sent again
  setIdentity(app, token);
  if (auth.expired(token) && !auth.canRenew()) {
    toast(t('signin.token_expired'), 'error');
  }
  showApp(app);
  app.lobby.render();
  app.render();
  app.conn.connect();
}

/** Sign `name` in with `password` (none: a name alone, which only an --open-sign-in
 * server takes; any other asks for the password on the card). The password is never kept. */
export async function signInAs(app, typed, password = '') {
  // The name as the server reads it (NFC); one it would surely refuse is said so here.
  const name = checkedName(typed);
  const weak = passwordProblem(password);
  const problem = !name ? t('signin.name_rule') : weak ? t(`signin.password_${weak}`) : null;
  if (problem) {
    showLogin(app, problem, { changing: app.ui.changingName });
    return;
  }
  const submit = $('#name-form button[type=submit]');
  submit.disabled = true;
  try {
    const token = await auth.signInByName(name, password);
    auth.rememberName(name);
    $('#password-input').value = '';
    startWith(app, token);
  } catch (err) {
    showLogin(app, signInProblem(err), { changing: app.ui.changingName });
  } finally {
    submit.disabled = false;
  }
}

export function attachSignIn(app) {
  $('#name-form').addEventListener('submit', (event) => {
    event.preventDefault();
    app.renewingByName = false;
    signInAs(app, $('#name-input').value.trim(), $('#password-input').value);
  });
  $('#token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const token = $('#token-input').value.trim();
    if (!token) return;
    auth.forgetName(); // this token is who we are now, not a remembered name
    app.renewingByName = false;
    startWith(app, token);
  });
  $('#change-name').addEventListener('click', () => {
    $('#name-input').value = auth.rememberedName() || app.me;
    $('#token-input').value = '';
    showLogin(app, '', { changing: true });
    $('#name-input').select();
  });
  $('#login-cancel').addEventListener('click', () => showApp(app));
  $('#cognito-button').addEventListener('click', () => {
    auth.startManagedLogin().catch((err) => showLogin(app, signInProblem(err)));
  });
}

/** Who the page plays as now, before a link's token: the kept token's player, else the
 * name it signs in by ('' nobody). */
function currentPlayer() {
  const kept = auth.storedToken();
  return (kept && auth.playerName(kept)) || (auth.canSignInByName() ? auth.rememberedName() : '');
}

/** The token to start with: a link's, if it names the player the page plays as (or
 * nobody plays yet) or the player says to switch; else the one kept. A link must not sign
 * a page in as somebody else unasked (its games and moves would be that player's). */
async function tokenAtStart() {
  const linked = auth.takeLinkToken();
  if (!linked) return auth.storedToken();
  const name = auth.playerName(linked);
  const current = currentPlayer();
  if (!name || !current || name === current) return linked;
  return (await askAboutPlayer(name, current)) ? linked : auth.storedToken();
}

/** The page opened: a managed login's return, a token, a remembered name, or the card. */
export async function signInAtStart(app) {
  const params = new URLSearchParams(location.search); // before the token is taken out of it
  const token = await tokenAtStart();
  let signedIn = '';
  try {
    signedIn = await auth.finishManagedLogin(params);
  } catch (err) {
    showLogin(app, signInProblem(err));
    return;
  }
  if (signedIn) return startWith(app, signedIn);
  const stale = token && auth.expired(token) && !auth.canRenew();
  if (token && !stale) return startWith(app, token);
  const name = auth.rememberedName();
  if (name && auth.canSignInByName()) return signInAs(app, name);
  if (token) return startWith(app, token);
  showLogin(app, '');
}
