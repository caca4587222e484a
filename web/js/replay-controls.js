/* A finished game's record replayed on the board: the step shown, stepping, playing. */

import { cellAt, clampStep, lastStep, mistakeAt, positionAt, replayView } from './replay.js';
import { shownGame } from './ui-state.js';

const REPLAY_MS = 700; // one move per this while the replay plays

/** A finished game with its record: the board is the replay's. */
export const replaying = (game) => Boolean(game.record && game.view && game.view.status === 'finished');

function replayStep(app, game) {
  return app.ui.step === null ? lastStep(game.record) : clampStep(game.record, app.ui.step);
}

/** The board at the replay's step: the red mark of a mistake, the solution at the end. */
export function replayBoard(app, game) {
  const record = game.record;
  const k = replayStep(app, game);
  const position = positionAt(record, k);
  const mistake = mistakeAt(record, position);
  return {
    view: replayView(record, k, position),
    digit: null,
    candidates: null,
    clue: null,
    solution: k === lastStep(record) ? record.solution : null,
    flashes: mistake ? [{ ...mistake, at: 0, still: true }] : [],
    last: mistake ? null : cellAt(record, position),
    hover: app.ui.hover,
    focus: app.ui.focus,
  };
}

export function replayTo(app, k) {
  const game = shownGame(app);
  if (!game || !game.record) return;
  const step = clampStep(game.record, k);
  app.ui.step = step === lastStep(game.record) ? null : step;
  if (app.ui.step === null) stopPlaying(app);
  app.render();
}

export function stopPlaying(app) {
  if (app.ui.playing) clearInterval(app.ui.playing);
  app.ui.playing = null;
}

export function togglePlay(app) {
  const { ui } = app;
  const game = shownGame(app);
  if (!game || !game.record) return;
  if (ui.playing) {
    stopPlaying(app);
    app.render();
    return;
  }
  if (ui.step === null) ui.step = 0; // from the end: play it again from the deal
  ui.playing = setInterval(() => {
    const shown = shownGame(app);
    if (!shown || !shown.record || ui.step === null) {
      stopPlaying(app);
      app.render();
      return;
    }
    replayTo(app, ui.step + 1);
  }, REPLAY_MS);
  app.render();
}
