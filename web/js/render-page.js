/* The page drawn from the model: the lobby's lists, and the shown game's panels and
 * board (a live game's, or the replay's step). Called at most once per animation frame
 * (main.js), it reads and draws and never sends a request. */

import { playAgain, renderHeader, screenOf } from './club.js';
import { $ } from './dom.js';
import { fitGame, reveal } from './game-layout.js';
import { focusIntoGame } from './keys.js';
import { noticeShown } from './notice.js';
import { renderPanels, tickClocks } from './panels.js';
import { renderRace } from './race-panel.js';
import { act, currentHint, resign, selectTile, takeClue } from './play.js';
import { replayBoard, replayBy, replayTo, replaying, togglePlay } from './replay-controls.js';
import { fetchRecord, stopWatching } from './shown-game.js';
import { selectedDigit, shownGame } from './ui-state.js';

/** A game in play as the board draws it (board/model.js BoardModel). */
function liveBoard(app, game, digit) {
  const { ui } = app;
  return {
    view: game.view,
    digit,
    candidates: game.candidates && game.candidates.digit === digit ? game.candidates.cells : null,
    clue: ui.clue,
    solution: null,
    flashes: app.store.liveFlashes(game),
    hover: ui.hover,
    focus: ui.focus,
  };
}

export function renderPage(app) {
  const { ui } = app;
  $('#app').dataset.screen = screenOf(app);
  renderHeader(app);
  app.lobby.renderGames();
  app.lobby.renderLive();
  const game = shownGame(app);
  const shown = Boolean(game && game.view);
  $('#no-game').hidden = shown;
  $('#game-view').hidden = !shown;
  noticeShown(shown ? game : null);
  if (!shown) return;
  const digit = selectedDigit(app, game);
  renderPanels({
    game, ui, digit, summary: app.lobby.summary(game.id), sides: app.board.turned ? 'turned' : 'flat',
    hint: currentHint(app, game),
    act: (action, fields, after) => act(app, action, fields, after),
    selectTile: (index) => selectTile(app, index),
    takeClue: () => takeClue(app),
    resign: () => resign(app),
    askRecord: (manual) => fetchRecord(app, game, manual),
    unwatch: () => stopWatching(app, game.id),
    playAgain: () => playAgain(app, game),
    replay: { to: (k) => replayTo(app, k), by: (delta) => replayBy(app, delta), toggle: () => togglePlay(app) },
  });
  const model = replaying(game) ? replayBoard(app, game) : liveBoard(app, game, digit);
  app.board.set(model);
  renderRace({ view: model.view, you: game.view.you, ui, turned: app.board.turned, render: app.render });
  tickClocks(game, app.store.serverNow());
  fitGame(); // on a phone, the board as high as the rest of the move leaves it
  if (ui.reveal) {
    ui.reveal = false;
    reveal();
    focusIntoGame();
  }
}
