/* Numbridge — the reference browser client: the page's wiring.
 *
 * ES modules, no build step, no dependencies, no network but the page's own server (or
 * the deployed stack it is pointed at, see auth.js). It speaks docs/contract.md:
 *   connection.js  the socket, request ids, answers, resending, reconnecting
 *   frames.js      frames routed to the store, the lobby and the shown game
 *   games.js       the games known, events in `v` order through the pure reducer.js
 *   lobby.js       the club: quick pairing, the bot, challenges, proposals, live and my games
 *   club.js        the club subscribed while shown, the games in play in the header
 *   tournaments.js the club's Tournaments tab: the lists, one shown live, join and leave
 *   shown-game.js  the game shown, and what it needs; play.js the player's moves in it
 *   board.js       the board (board/: model, render, events); panels.js all around it
 *   replay-controls.js  a finished game replayed; sign-in.js, conn-status.js the header
 *   servers.js     which server (and login) is played on (server-ask.js asks about a link's first)
 *   i18n.js        every word shown, from web/i18n/<lang>.json; language.js picks the language
 * Every module here gets the one `app` below: the connection, the store, the lobby, the
 * board, the selections (ui-state.js) and `render`. Frames change the model; the page is
 * drawn from it (render-page.js) at most once per animation frame. Requests are sent by
 * event handlers, never while rendering. */

import * as auth from './auth.js';
import { announceChange, attachAnnouncer } from './announce.js';
import { Board } from './board.js';
import { attachClub, connected, followLobby, openWhereToMove } from './club.js';
import { Connection } from './connection.js';
import { showConnState, explainRefusal } from './conn-status.js';
import { $, oncePerFrame, toast } from './dom.js';
import { onFrame } from './frames.js';
import { GameStore } from './games.js';
import { t } from './i18n.js';
import { keepOffline } from './install.js';
import { attachKeys } from './keys.js';
import { startLanguage } from './language.js';
import { Lobby } from './lobby.js';
import { attachNotices, noticeMove } from './notice.js';
import { tickClocks } from './panels.js';
import { activateCell, onPageKey } from './play.js';
import { renderPage } from './render-page.js';
import { askEarlier, collectEarlier } from './replay-earlier.js';
import { askAboutServer } from './server-ask.js';
import { limitConnections, loginRefused, settleServer, toConfirm } from './servers.js';
import { onGameChange, openGame, reopenRemembered, watchGame } from './shown-game.js';
import { attachSignIn, freshToken, showApp, signInAtStart } from './sign-in.js';
import {
  attachTournaments, createTournaments, noteTournamentGame, renderTournamentLink,
} from './tournaments.js';
import { createUi, shownGame } from './ui-state.js';

const app = {
  ui: createUi(),
  me: '', // the player signed in
  renewingByName: false, // signing the remembered name in again after a refused token
};
app.conn = new Connection({
  url: () => auth.server || `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/`,
  freshToken: (token) => freshToken(app, token),
  onFrame: (frame, pending) => {
    collectEarlier(frame);
    onFrame(app, frame, pending);
  },
  onOpen,
  onState: () => showConnState(app),
  onNeverOpened: () => explainRefusal(app),
  onQueued: () => toast(t('conn.queued'), 'info'),
});
app.request = (action, fields, onAnswer, quiet) => app.conn.request(action, fields, onAnswer, quiet);
app.store = new GameStore(app.request, (game, change) => {
  onGameChange(app, game, change);
  announceChange(app, game, change);
  noticeMove(game, change);
  noteTournamentGame(app, game);
  askEarlier(app, game, change);
});
app.lobby = new Lobby({
  request: app.request,
  me: () => app.me,
  games: () => app.store.games,
  current: () => app.ui.current,
  open: (gid) => openGame(app, gid),
  watch: (gid) => watchGame(app, gid),
  expectBot: (expected) => { app.ui.expectBot = expected; },
  gamesCame: () => openWhereToMove(app),
});
app.tournaments = createTournaments(); // the Tournaments tab (tournaments.js)
app.render = oncePerFrame(() => {
  renderPage(app);
  renderTournamentLink(app);
});
app.followLobby = () => followLobby(app);

/** Connected (again): the lists, the games caught up, the game shown before a reload,
 * the club subscribed afresh if it is on screen. */
function onOpen() {
  app.renewingByName = false;
  if (!app.ui.changingName && !$('#login').hidden) showApp(app);
  app.lobby.askAll();
  app.store.syncAll();
  reopenRemembered(app);
  connected(app);
}

function attachPage() {
  attachSignIn(app);
  app.lobby.attach();
  attachClub(app);
  attachTournaments(app);
  app.board = new Board($('#board'), {
    onHover: (index) => {
      app.ui.hover = index;
      app.board.lightZones(index ?? app.ui.focus);
    },
    onActivate: (index) => activateCell(app, index),
    onFocus: (index) => { app.ui.focus = index; },
    size: () => shownGame(app)?.view?.size || 0,
    onTurn: () => app.render(),
  });
  document.addEventListener('keydown', (event) => onPageKey(app, event));
  attachKeys();
  attachAnnouncer();
  attachNotices(() => app.render());
  window.addEventListener('online', () => { if (app.conn.state === 'waiting') app.conn.connect(); });
  setInterval(() => {
    if (app.conn.state === 'waiting') showConnState(app);
    tickClocks(shownGame(app), app.store.serverNow());
  }, 250);
  // Nothing is asked on a timer: the club's lists are pushed while it is shown (club.js).
}

async function start() {
  await startLanguage();
  keepOffline(); // after the catalogs came: the worker is told to keep them too
  attachPage();
  showConnState(app);
  app.lobby.render();
  // A server the link names and the player never confirmed, or a login the player never
  // confirmed for it: asked first, nothing connects meanwhile; then the page may reach
  // only the servers confirmed and the login confirmed for the one played on.
  const question = toConfirm();
  settleServer(question ? await askAboutServer(question) : null);
  if (loginRefused) toast(t('server.login_refused'), 'error');
  limitConnections();
  signInAtStart(app);
}

start();
