/* The cards that ask before the page takes what a link brings: a server the player has
 * not confirmed, or a login for a server that is not the one confirmed for it
 * (servers.js), and a token naming another player than the one the page plays as
 * (sign-in.js). Nothing connects while one is up; "stay" is the default (it takes the
 * focus), so Enter alone never sends anyone elsewhere nor signs anyone in as somebody else. */

import { $ } from './dom.js';
import { t } from './i18n.js';

/** Show `card` until one of its two buttons is pressed: resolves true (`yes`) or false. */
function ask(card, stay, yes) {
  $('#login').hidden = true;
  $('#app').hidden = true;
  card.hidden = false;
  stay.focus();
  return new Promise((resolve) => {
    const answer = (taken) => {
      card.hidden = true;
      resolve(taken);
    };
    yes.addEventListener('click', () => answer(true), { once: true });
    stay.addEventListener('click', () => answer(false), { once: true });
  });
}

/** Ask about `server` (servers.js `toConfirm`): a server not confirmed, with the login the
 * link names if any; or one confirmed, whose login the link would change (`known`). The
 * login's address is shown: the page would send the player's sign-in there. Resolves
 * true (take what the link names) or false (stay as the page was). */
export function askAboutServer({ server, login, known }) {
  $('#server-ask-address').textContent = server;
  $('#server-ask-login').hidden = !login;
  $('#server-ask-login-address').textContent = login;
  if (known) {
    $('#server-ask-title').textContent = t('server.login_title');
    $('#server-ask-text').textContent = t('server.login_change');
    $('#server-ask-warning').textContent = t('server.login_warning');
    $('#server-stay').textContent = t('server.keep_login');
    $('#server-connect').textContent = t('server.use_login');
  }
  return ask($('#server-ask'), $('#server-stay'), $('#server-connect'));
}

/** Ask before a link's token signs the page in as `name` instead of `current`. Resolves
 * true (play as `name`) or false (stay `current`). */
export function askAboutPlayer(name, current) {
  $('#player-ask-text').textContent = t('switch.text', { name, current });
  $('#player-stay').textContent = t('switch.stay', { current });
  $('#player-switch').textContent = t('switch.take', { name });
  return ask($('#player-ask'), $('#player-stay'), $('#player-switch'));
}
