/* The page's own selections (never sent, never in a view), and the shown game. */

/** sessionStorage keys: the game shown (played or watched) comes back after a reload. */
export const GAME_KEY = 'numbridge.game';
export const WATCH_KEY = 'numbridge.watch';

export function createUi() {
  return {
    current: null, // the game shown
    tile: null, // index in the hand
    clue: null, // cell index of a selected clue
    hover: null, // cell whose zones are lit
    focus: null, // cell with the board's tab stop
    resignArmed: 0,
    step: null, // the replay's position in the shown record (null: its end)
    playing: null, // the replay's timer while it plays
    expectBot: false, // a bot game was asked for: open it when its state comes
    hint: null,
    hintUntil: 0,
    changingName: false,
    reveal: false, // a game was just opened: bring its board into view once drawn
  };
}

/** Another game shown: nothing selected in it yet. */
export function clearSelections(ui) {
  ui.tile = null;
  ui.clue = null;
  ui.hover = null;
  ui.focus = null;
  ui.step = null;
}

/** The games.js entry shown, or null. */
export const shownGame = (app) => (app.ui.current ? app.store.get(app.ui.current) : null);

/** The digit of the tile selected in `game`'s hand (only the shown game has one), or null. */
export function selectedDigit(app, game) {
  const { ui } = app;
  if (!game || game !== shownGame(app) || ui.tile === null || !game.view) return null;
  const hand = game.view.hand || [];
  return ui.tile < hand.length ? hand[ui.tile] : null;
}
