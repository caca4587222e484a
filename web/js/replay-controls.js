/* A finished game's record replayed on the board: the step shown, stepping, playing. */

import { $, h, fill } from './dom.js';
import { t } from './i18n.js';
import { cellAt, clampStep, lastStep, mistakeAt, positionAt, replayView, reviewSummary } from './replay.js';
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
  showReview(record);
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

/**
 * The coach's summary under the replay's step (the panel is built before the board is
 * drawn, so this comes after it): the board's grade and each player's review, once the
 * record has them. Redrawn only when the record or the language changes.
 */
function showReview(record) {
  const holder = $('#record');
  if (!holder) return;
  let node = holder.querySelector('#replay-review');
  const lines = reviewSummary(record);
  if (!lines.length) {
    if (node) node.remove();
    return;
  }
  const key = `${record.game}|${document.documentElement.lang}|${record.review ? 1 : 0}`;
  if (node && node.dataset.key === key) return;
  if (!node) {
    node = h('div', { id: 'replay-review', class: 'replay-review small' });
    const end = holder.querySelector('#replay-end');
    if (end) end.after(node);
    else holder.append(node);
  }
  node.dataset.key = key;
  fill(node, h('h4', {}, t('review.title')), lines.map((line) => h('p', {}, line)));
}

export function replayTo(app, k) {
  const game = shownGame(app);
  if (!game || !game.record) return;
  const step = clampStep(game.record, k);
  app.ui.step = step === lastStep(game.record) ? null : step;
  if (app.ui.step === null) stopPlaying(app);
  app.render();
}

/**
 * `delta` moves on from the step the model holds, not the one last drawn: clicks that come
 * before the next frame (a quick double click, Start then Forward) each count.
 */
export function replayBy(app, delta) {
  const game = shownGame(app);
  if (!game || !game.record) return;
  replayTo(app, replayStep(app, game) + delta);
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
