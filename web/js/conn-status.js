/* The connection's state in the header, and, when it never opened, why: the server
 * down, or the token refused (then sign in anew by name where that can work). */

import * as auth from './auth.js';
import { $ } from './dom.js';
import { fmtIn, t } from './i18n.js';
import { showLogin, signInAs } from './sign-in.js';

export function showConnState(app) {
  const { conn } = app;
  const node = $('#conn');
  node.dataset.state = conn.state;
  if (conn.state === 'open') node.textContent = t('conn.open');
  else if (conn.state === 'connecting') node.textContent = t('conn.connecting');
  else if (conn.state === 'waiting') {
    const secs = Math.max(0, Math.ceil((conn.retryAt - Date.now()) / 1000));
    node.textContent = t(conn.everOpened ? 'conn.lost' : 'conn.cannot', { when: fmtIn(secs, 'second') });
  } else if (conn.state === 'refused') node.textContent = t('conn.refused');
  else node.textContent = t('conn.idle');
}

/** Never connected with this token: is the server down, or did it refuse the token? */
export function explainRefusal(app) {
  const { conn } = app;
  const token = conn.token;
  if (auth.server) {
    // No HTTP side to ask: API Gateway only answers the socket.
    showLogin(app, t('conn.stack_refused', { server: auth.server }));
    return;
  }
  fetch('/web/favicon.svg', { method: 'HEAD', cache: 'no-store' }).then(
    (response) => response.ok,
    () => false,
  ).then((serverUp) => {
    if (conn.everOpened || conn.token !== token) return;
    if (!serverUp) {
      showLogin(app, t('conn.server_down'));
      return;
    }
    // The server answers HTTP but refuses the socket: retrying this token will not help.
    conn.stop('refused');
    if (auth.canSignInByName() && app.me && auth.rememberedName() === app.me && !app.renewingByName) {
      // A token from another data directory, say: this server signs the same name anew.
      app.renewingByName = true;
      signInAs(app, app.me);
      return;
    }
    showLogin(app, t('conn.token_refused'));
  });
}
