/* The player's moves in the shown game: a tile selected, a cell activated (place, or a
 * clue selected), a clue taken, the other actions, resigning (asked twice), the keys
 * outside the board; and the passing hint that explains a move refused here. */

import { askBeforePlacing } from './confirm-place.js';
import { contradicts } from './contradiction.js';
import { t } from './i18n.js';
import { askCandidates } from './shown-game.js';
import { selectedDigit, shownGame } from './ui-state.js';

const HINT_MS = 4000;
const RESIGN_ARMED_MS = 4000;

// What a hint explains: the shown game as it stood (a hint outlives no move, e.g. "It is
// not your move" once the move is yours).
const hintKey = (game) => (game && game.view ? `${game.id}|${game.view.v}|${game.view.status}|${game.view.turn}` : '');

export function hint(app, text) {
  app.ui.hint = text;
  app.ui.hintFor = hintKey(shownGame(app));
  app.ui.hintUntil = Date.now() + HINT_MS;
  app.render();
  setTimeout(app.render, HINT_MS + 50);
}

/** The passing hint to show now for `game`, or null: gone after its time or once the game moved on. */
export function currentHint(app, game) {
  const { ui } = app;
  return ui.hintUntil > Date.now() && ui.hintFor === hintKey(game) ? ui.hint : null;
}

/** An in-game action for the shown game. */
export function act(app, action, fields, after) {
  const game = shownGame(app);
  if (!game) return;
  app.request(action, { game: game.id, ...(fields || {}) }, (answer) => {
    if (after) after(answer);
  });
}

export function resign(app) {
  const { ui } = app;
  if (ui.resignArmed > Date.now()) {
    ui.resignArmed = 0;
    act(app, 'resign');
  } else {
    ui.resignArmed = Date.now() + RESIGN_ARMED_MS;
    setTimeout(app.render, RESIGN_ARMED_MS + 100);
  }
  app.render();
}

export function selectTile(app, index) {
  const game = shownGame(app);
  if (!game || !game.view) return;
  app.ui.tile = app.ui.tile === index ? null : index;
  game.candidates = null;
  askCandidates(app, game);
  app.render();
}

const cellAtIndex = (i, n) => [Math.floor(i / n), i % n];

/** A click, Enter or Space on a cell: place the selected tile, or select a clue. */
export function activateCell(app, i) {
  const { ui } = app;
  const game = shownGame(app);
  if (!game || !game.view) return;
  ui.focus = i;
  const view = game.view;
  if (view.status !== 'playing' || !view.you) return;
  const myTurn = view.turn === view.you;
  if (view.clues[i] === '1') {
    if (view.owners[i] !== '.') {
      hint(app, t('hint.clue_taken'));
      return;
    }
    ui.clue = ui.clue === i ? null : i;
    if (ui.clue !== null) {
      hint(app, myTurn ? t('hint.take_below') : t('hint.clue_selected'));
    } else app.render();
    return;
  }
  if (view.digits[i] !== '.') {
    hint(app, t('hint.solved'));
    return;
  }
  if (!myTurn) {
    hint(app, t('hint.not_your_move'));
    return;
  }
  const digit = selectedDigit(app, game);
  if (digit === null) {
    hint(app, (view.hand || []).length ? t('hint.select_first') : t('hint.hand_empty'));
    return;
  }
  const place = () => {
    if (shownGame(app) === game) act(app, 'place', { cell: cellAtIndex(i, view.size), digit });
  };
  // A digit the board already shows in the cell's row, column or block: asked, not refused.
  const clash = contradicts(view, i, digit);
  if (clash) askBeforePlacing(clash, digit, i, place);
  else place();
}

export function takeClue(app) {
  const { ui } = app;
  const game = shownGame(app);
  if (!game || ui.clue === null) return;
  const view = game.view;
  const fields = { cell: cellAtIndex(ui.clue, view.size) };
  if ((view.hand || []).length) {
    const digit = selectedDigit(app, game);
    if (digit === null) {
      hint(app, t('hint.select_payment'));
      return;
    }
    fields.digit = digit;
  }
  act(app, 'take', fields, (answer) => {
    if (answer.type === 'ack') {
      ui.clue = null;
      app.render();
    }
  });
}

/** Keys anywhere on the page but in a form field: Escape clears, a digit picks a tile. */
export function onPageKey(app, event) {
  if (event.target.closest('input, textarea, select')) return;
  const game = shownGame(app);
  if (!game || !game.view) return;
  if (event.key === 'Escape') {
    app.ui.tile = null;
    app.ui.clue = null;
    app.ui.resignArmed = 0; // "Really resign?" asked: Escape says no
    app.render();
  } else if (/^[1-9]$/.test(event.key)) {
    const index = (game.view.hand || []).indexOf(Number(event.key));
    if (index >= 0) selectTile(app, index);
  }
}
