/* The board's state: what each cell is, worked out from a board model. Pure (no DOM):
 * render.js draws these facts and events.js moves the focus with `stepFocus`, so the
 * decisions about a cell are made once, here, and tested without a browser. */

import { blockOwners, cellOf, indexOf } from '../geometry.js';
import { currentLanguage, t } from '../i18n.js';

/**
 * @typedef {object} BoardModel
 * @property {object} view        the game's view
 * @property {number|null} digit  the selected tile's digit
 * @property {Set<number>|null} candidates  cells highlighted for that digit
 * @property {number|null} clue   the selected clue cell
 * @property {string|null} solution  shown under empty cells (a finished game's record)
 * @property {Array} flashes      mistakes still showing: {index, digit, at, still?} (still: no fading, a replay's)
 * @property {number|null} [last]  a replay's cell of the move just shown
 * @property {number|null} hover  the cell whose zones are lit
 * @property {number|null} focus  the cell that takes the keyboard focus
 */

/**
 * @typedef {object} CellState
 * @property {number} index
 * @property {number} r
 * @property {number} c
 * @property {boolean} clue       a clue cell (taken or not)
 * @property {string} owner       'b', 'r' or '.'
 * @property {string} digit       the digit shown, or '.'
 * @property {string|null} solution  the record's digit shown under an empty cell
 * @property {boolean} empty      no digit and no clue: a tile may go here
 * @property {boolean} candidate  highlighted for the selected tile
 * @property {boolean} selected   the clue selected to take
 * @property {boolean} last       a replay's cell of the move just shown
 * @property {boolean} playable   a click here does something now
 * @property {boolean} focusable  the board's one tab stop
 */

/** Every cell's state, in index order. */
export function cellStates(model) {
  const { view } = model;
  const n = view.size;
  const myTurn = view.status === 'playing' && Boolean(view.you) && view.turn === view.you;
  const candidates = model.candidates;
  const focus = model.focus !== null && model.focus !== undefined ? model.focus : 0;
  const cells = [];
  for (let i = 0; i < n * n; i++) {
    const [r, c] = cellOf(i, n);
    const clue = view.clues[i] === '1';
    const owner = view.owners[i];
    const digit = view.digits[i];
    const empty = digit === '.' && !clue;
    const solution = digit === '.' && model.solution && model.solution[i] && model.solution[i] !== '.'
      ? model.solution[i] : null;
    cells.push({
      index: i, r, c, clue, owner, digit, solution, empty,
      candidate: Boolean(candidates && candidates.has(i)),
      selected: model.clue === i,
      last: model.last === i,
      playable: myTurn && ((empty && model.digit !== null) || (clue && owner === '.')),
      focusable: i === focus,
    });
  }
  return cells;
}

/**
 * Everything the drawn board shows, as one string: equal signatures draw the same SVG.
 * The page renders after every lobby answer (a poll every few seconds); drawing the
 * board anew each time would replace the cell under a mouse between its press and its
 * release, and the click would be lost. The pointer's lit zones are left out: they are
 * classes toggled in place (render.js `lightZones`).
 */
export function boardSignature(model) {
  const { view } = model;
  const result = view.result
    ? [view.result.winner ?? null, view.result.path ?? null, view.result.blocks ?? null] : null;
  const flashes = (model.flashes || []).map((f) => [f.index, f.digit, f.at, Boolean(f.still)]);
  return JSON.stringify([
    currentLanguage(), Boolean(model.turned), view.variant, view.size, view.blocks, model.digit ?? null,
    result, flashes, cellStates(model),
  ]);
}

/** Whose a cell is, by a shape as well as by its colour (never colour alone): Blue's
 * cells carry a dot, Red's a square; null for a cell nobody owns. */
export function ownerMark(cell) {
  if (cell.owner === 'b') return 'dot';
  if (cell.owner === 'r') return 'square';
  return null;
}

/** Domains: the owner of each decided block ('b' or 'r'), by block id; null otherwise. */
export function decidedBlocks(view) {
  return view.variant === 'domains' ? blockOwners(view.size, view.blocks, view.owners) : null;
}

/** Domains: the blocks the winner's majority was counted on. */
export function winnerBlocks(view) {
  const result = view.result;
  return new Set(view.variant === 'domains' && result && result.winner && Array.isArray(result.blocks)
    ? result.blocks.map(String) : []);
}

/** Bridge/Blitz: the winning chain's cells, or null. */
export function winningPath(view) {
  const path = view.variant !== 'domains' && view.result && view.result.path;
  return Array.isArray(path) && path.length ? path : null;
}

/** Which sides a step off the board at (nr, nc) leaves by: Blue's top and bottom, Red's left and right. */
export const sideOf = (nr, n) => (nr < 0 || nr >= n ? 'blue' : 'red');

// Arrow keys as steps along a row (left, right) and a column (up, down).
export const ARROWS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

/** The cell a key moves the focus to from `index` (it stays at the board's edge); null: not a move key. */
export function stepFocus(index, key, n) {
  const step = ARROWS[key];
  if (!step || !n) return null;
  const [r, c] = cellOf(index, n);
  const nr = Math.min(n - 1, Math.max(0, r + step[0]));
  const nc = Math.min(n - 1, Math.max(0, c + step[1]));
  return indexOf(nr, nc, n);
}

/**
 * A cell's name for the title and the screen reader: where it is, what is on it and
 * whose it is, in words (colour is never the only sign of an owner); `digit` is the
 * selected tile's, for a candidate cell.
 */
export function cellLabel(cell, digit = null) {
  // Counted from 1, as the rule pages and the board's labels count them.
  const at = { row: cell.r + 1, column: cell.c + 1, digit: cell.digit };
  const whose = cell.owner === 'b' ? '_blue' : cell.owner === 'r' ? '_red' : '';
  if (cell.clue) return t(`cell.clue${whose}`, at);
  if (cell.digit !== '.') return t(`cell.digit${whose}`, at);
  if (cell.solution) return t('cell.solution', { ...at, digit: cell.solution });
  if (cell.candidate && digit !== null) return t('cell.candidate', { ...at, digit });
  return t('cell.empty', at);
}
