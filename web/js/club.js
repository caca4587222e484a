/* The club comes to the player: the lobby subscribed while it is on screen (its changes
 * pushed, nothing asked again on a timer), put away while a game in play is shown; the
 * player's games in play in the header wherever they are, and the one at their move
 * opened where they sign in; "Play again" after a game against the bot; a link's
 * proposal (/web/?proposal=PID) offered to accept. */

import { lobbyShown, gameToOpen, gamesInPlay } from './club-model.js';
import { $, fill, h } from './dom.js';
import { variantName } from './format.js';
import { t } from './i18n.js';
import { forgetShown, openGame } from './shown-game.js';
import { connectedTournaments, followTournament } from './tournaments.js';

/** Whether the club is on screen: no game shown, or one shown that is over. A game asked
 * for whose view has not come yet is judged by its row in My games (a replay opened
 * there), else counted as in play: no subscription made only to be taken back. */
export function clubOnScreen(app) {
  if (!app.ui.current) return true;
  const game = app.store.get(app.ui.current);
  if (game && game.view) return lobbyShown(game.view);
  const row = app.lobby.summary(app.ui.current);
  return Boolean(row) && lobbyShown(row);
}

/** Whether the club is seen: on screen in a page in view (a tab behind another, a phone
 * in a pocket, is pushed nothing; it subscribes afresh when it comes back into view). */
function clubSeen(app) {
  return clubOnScreen(app) && !document.hidden;
}

/** What #app shows: the club alone, the club beside a game over, or a game in play alone. */
export function screenOf(app) {
  if (!app.ui.current) return 'club';
  return clubOnScreen(app) ? 'beside' : 'game';
}

/**
 * Subscribed to the lobby exactly while it is on screen (and the socket is open): called
 * whenever what is shown may have changed and on each connection. A subscription belongs
 * to its connection, so after a reconnect it is made again and its page comes afresh.
 */
export function followLobby(app) {
  const { lobby } = app;
  followTournament(app, clubSeen(app)); // the tournament shown in the Tournaments tab, likewise
  const want = Boolean(app.me) && app.conn.isOpen && clubSeen(app);
  if (want === lobby.subscribed) return;
  lobby.subscribed = want;
  if (lobby.pushless) {
    if (want) lobby.askOnce();
    return;
  }
  app.request(want ? 'subscribe' : 'unsubscribe', { topic: 'lobby' }, (answer) => {
    if (answer.type === 'error' && answer.code === 'unknown_action') {
      // A server from before subscriptions: its lists once per showing, never on a timer.
      lobby.pushless = true;
      if (want) lobby.askOnce();
    }
  }, true);
}

/** A new connection: nothing is subscribed on it yet. */
export function connected(app) {
  app.lobby.subscribed = false;
  connectedTournaments(app);
  followLobby(app);
}

/** The `games` rows came (the first page, after signing in): once per player and page,
 * the game at the player's move is opened (or the most recent in play) unless one is
 * shown already — a second tab, another device, a reload in a new tab. */
export function openWhereToMove(app) {
  if (app.ui.openedAtSignIn) return;
  app.ui.openedAtSignIn = true;
  if (app.ui.current) return;
  const gid = gameToOpen(app.lobby.games, viewsOf(app));
  if (gid) openGame(app, gid);
}

function viewsOf(app) {
  const views = new Map();
  for (const game of app.store.games.values()) if (game.view) views.set(game.id, game.view);
  return views;
}

/** The header: each game in play, whose move it is (a tap opens it), and the way back to the club. */
export function renderHeader(app) {
  const games = app.me ? gamesInPlay(app.lobby.games, viewsOf(app)) : [];
  const nav = $('#in-play');
  nav.hidden = !games.length;
  fill(nav, ...games.map((g) => h('button', {
    type: 'button', class: `in-play${g.mine ? ' mine' : ''}`, dataset: { game: g.game, mine: g.mine ? '1' : '0' },
    'aria-current': app.ui.current === g.game ? 'true' : null,
    onclick: () => openGame(app, g.game),
  }, t(g.mine ? 'inplay.mine' : 'inplay.theirs', { name: g.opponent || '?', variant: variantName(g.variant) }))));
  $('#to-club').hidden = !app.ui.current;
}

export function attachClub(app) {
  document.addEventListener('visibilitychange', () => followLobby(app));
  $('#to-club').addEventListener('click', () => {
    if (app.ui.current) forgetShown(app, app.ui.current);
  });
  // A link to a proposal: offered once signed in; the address keeps no trace of it.
  const params = new URLSearchParams(location.search);
  const pid = (params.get('proposal') || '').trim();
  if (pid) {
    params.delete('proposal');
    const query = params.toString();
    history.replaceState(null, '', location.pathname + (query ? `?${query}` : '') + location.hash);
    app.lobby.offer(pid);
  }
}

/** After a game against the bot: the same level, room and options, dealt at once. */
export function playAgain(app, game) {
  const view = game.view;
  const bot = view.players[view.you === 'blue' ? 'red' : 'blue'].name;
  const options = view.options || {};
  const room = app.lobby.roomById(view.room);
  const fields = {
    room: view.room, bot: bot.replace(/^bot-/, ''), blocks: options.blocks, clues: options.clues,
    colour: view.you, rated: false, highlighting: Boolean(options.highlighting),
  };
  if (room && (room.variants || []).length > 1) fields.variant = view.variant;
  app.ui.expectBot = true;
  app.request('propose', fields, (answer) => {
    if (answer.type !== 'ack') app.ui.expectBot = false;
  });
}
