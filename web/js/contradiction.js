/* A placement the board already contradicts: the digit is shown in the cell's row, its
 * column or its block (RULES.md §2: each digit once in each). Every digit on the board
 * is right (a given, or a correct placement), so such a tile is sure to be a mistake;
 * the page asks before sending it (confirm-place.js) but never refuses it.
 *
 * Only where the game has candidate highlighting (the proposal's `highlighting`, allowed
 * by the room, RULES.md §8): the same check a player who turned it off chose to do alone.
 * Pure: no DOM. */

import { indexOf, zonesOf } from './geometry.js';

export const UNITS = ['row', 'column', 'block'];

/** Whether the game shows candidate highlighting (the view's options). */
export const highlights = (view) => Boolean(view && view.options && view.options.highlighting);

/**
 * Where the board already shows `digit` around `cell` (an index, or [r, c]): the first
 * unit of row, column, block that holds it and the cell (an index) it is in; null when
 * nothing contradicts it, or when the game has no highlighting.
 */
export function contradicts(view, cell, digit) {
  if (!highlights(view) || !view.digits || !view.blocks) return null;
  const n = view.size;
  const index = Array.isArray(cell) ? indexOf(cell[0], cell[1], n) : cell;
  const wanted = String(digit);
  const zones = zonesOf(index, n, view.blocks);
  for (const unit of UNITS) {
    const found = zones[unit].find((i) => i !== index && view.digits[i] === wanted);
    if (found !== undefined) return { unit, cell: found };
  }
  return null;
}
