/* Which game the page shows, and what the shown game needs: opening, watching and
 * leaving a game; a view's change kept consistent with the selections; the record
 * once it is finished and the candidates for the selected tile. */

import { toast } from './dom.js';
import { resultText } from './format.js';
import { FLASH_MS } from './games.js';
import { t } from './i18n.js';
import { stopPlaying } from './replay-controls.js';
import { GAME_KEY, WATCH_KEY, clearSelections, selectedDigit, shownGame } from './ui-state.js';

export function showGame(app, gid) {
  const { ui } = app;
  if (ui.current !== gid) {
    clearSelections(ui);
    stopPlaying(app);
    ui.reveal = true;
  }
  ui.current = gid;
  const game = app.store.get(gid);
  if (game && game.watching) {
    sessionStorage.setItem(WATCH_KEY, gid);
    sessionStorage.removeItem(GAME_KEY);
  } else {
    sessionStorage.setItem(GAME_KEY, gid);
    sessionStorage.removeItem(WATCH_KEY);
  }
  if (game && game.view) afterChange(app, game);
  app.followLobby();
  app.render();
}

export function forgetShown(app, gid) {
  if (app.ui.current !== gid) return;
  app.ui.current = null;
  sessionStorage.removeItem(GAME_KEY);
  sessionStorage.removeItem(WATCH_KEY);
  app.followLobby();
  app.render();
}

/** Another player signed in: none of this one's games stay. */
export function forgetGames(app) {
  app.store.clear();
  app.ui.current = null;
  app.ui.openedAtSignIn = false; // the new player's game at their move opens
  sessionStorage.removeItem(GAME_KEY);
  sessionStorage.removeItem(WATCH_KEY);
  app.lobby.reset();
}

export function openGame(app, gid) {
  const game = app.store.entry(gid);
  showGame(app, gid);
  if (game.view) app.store.sync(game);
  else app.store.requestState(gid, () => forgetShown(app, gid));
}

export function watchGame(app, gid) {
  const game = app.store.entry(gid);
  game.watching = true;
  showGame(app, gid);
  app.store.watch(gid, (answer) => {
    if (answer.type === 'error' && !game.view) forgetShown(app, gid);
  });
}

export function stopWatching(app, gid) {
  app.store.unwatch(gid);
  forgetShown(app, gid); // the club again, subscribed afresh: its live games as they are now
}

/** After a reconnect: the game shown before a reload, asked for again. */
export function reopenRemembered(app) {
  const wanted = sessionStorage.getItem(GAME_KEY);
  if (wanted && !app.store.get(wanted)) openGame(app, wanted);
  const watched = sessionStorage.getItem(WATCH_KEY);
  if (watched && !app.store.get(watched)) watchGame(app, watched);
}

/** A game's view changed (games.js): keep the selections sensible, then what follows from it. */
export function onGameChange(app, game, { isNew, before, events, state }) {
  const { ui } = app;
  const view = game.view;
  if (game === shownGame(app)) keepSelections(app, game, before);
  for (const event of events) {
    if (event.type === 'mistake') setTimeout(app.render, FLASH_MS + 50);
    if (event.type === 'finished') {
      if (game === shownGame(app)) toast(resultText(event.result, view.players, view.variant, view.you, app.board.turned ? 'turned' : 'flat'), 'info');
      setTimeout(() => app.request('games', {}, null), 300);
    }
  }
  if (isNew) {
    // Dealt to me: the seek that asked for it is over (the proposal it came from leaves
    // the club's list by the lobby's own push).
    if (view.you && state && state.v === 0) app.lobby.dealt();
    const shown = shownGame(app);
    const opponent = view.you ? view.players[view.you === 'blue' ? 'red' : 'blue'] : null;
    if (ui.expectBot && state && state.v === 0 && opponent && /^bot-/.test(opponent.name)) {
      ui.expectBot = false; // the game asked for with "Play the bot": show it now
      showGame(app, game.id);
      return;
    }
    // A game dealt just now opens unless another in play is shown; a game of mine
    // that only came because one of its moves did (the page had not held it) stays in
    // the header: the club or the game shown is not taken from the player for it.
    const dealt = Boolean(state) && state.v === 0;
    if (ui.current === game.id || (dealt && (!shown || !shown.view || shown.view.status !== 'playing'))) {
      showGame(app, game.id); // which asks what the shown game needs
      return;
    }
    if (state && state.v === 0) {
      toast(opponent ? t('game.dealt_with', { name: opponent.name }) : t('game.dealt'), 'info');
    }
  }
  if (game === shownGame(app)) afterChange(app, game);
  app.followLobby(); // a game shown may have ended: the club comes back beside it
  app.render();
}

function keepSelections(app, game, before) {
  const { ui } = app;
  const view = game.view;
  if (before && JSON.stringify(before.hand) !== JSON.stringify(view.hand)) {
    // A new hand: keep the same digit selected if it is still there.
    const digit = ui.tile !== null && before.hand ? before.hand[ui.tile] : undefined;
    const again = digit === undefined ? -1 : (view.hand || []).indexOf(digit);
    ui.tile = again >= 0 ? again : null;
    game.candidates = null;
  }
  if (ui.clue !== null && view.owners[ui.clue] !== '.') ui.clue = null;
  if (view.status !== 'playing') {
    ui.tile = null;
    ui.clue = null;
  }
}

/** Requests the shown game needs now: its record once finished, candidates for the tile. */
function afterChange(app, game) {
  if (game.view.status === 'finished' && !game.record && game.recordTries < 4) fetchRecord(app, game);
  askCandidates(app, game);
}

export function fetchRecord(app, game, manual = false) {
  if (game.recordAsked) return;
  game.recordAsked = true;
  game.recordTries += 1;
  const id = app.request('record', { game: game.id }, (answer) => {
    game.recordAsked = false;
    if (answer.type === 'error' && !manual && game.recordTries < 4) {
      // The archive may lag the `finished` event by a moment.
      setTimeout(() => { if (shownGame(app) === game && !game.record) fetchRecord(app, game); }, 1500);
    }
  }, !manual);
  if (id === null) game.recordAsked = false;
}

export function askCandidates(app, game) {
  const digit = selectedDigit(app, game);
  const view = game.view;
  if (digit === null || !view.options || !view.options.highlighting || view.status !== 'playing') return;
  if (game.candidates && game.candidates.digit === digit) return;
  app.request('candidates', { game: game.id, digit }, null, true);
}
