/* A placement the board already contradicts (js/contradiction.js): found in the row, the
 * column or the block, only in games with highlighting, never for the cell itself. */

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { contradicts, highlights } from '../js/contradiction.js';
import { cellOf, indexOf } from '../js/geometry.js';
import { applyState } from '../js/reducer.js';
import { fixtures, isState } from './helpers.js';

const REGULAR_9 = Array.from({ length: 81 }, (_, i) => {
  const [r, c] = cellOf(i, 9);
  return String(Math.floor(r / 3) * 3 + Math.floor(c / 3));
}).join('');

/** A 9×9 view with `digits` at the given cells (index → digit). */
function board(placed, highlighting = true) {
  const digits = [...'.'.repeat(81)];
  for (const [i, d] of Object.entries(placed)) digits[Number(i)] = String(d);
  return { variant: 'bridge', size: 9, blocks: REGULAR_9, digits: digits.join(''), options: { highlighting } };
}

test('a digit already in the row, the column or the block is found, and where', () => {
  // Catches: a unit not looked at, or the wrong one named (the warning would say "row" for a block).
  const at = indexOf(4, 4, 9);
  assert.deepEqual(contradicts(board({ [indexOf(4, 8, 9)]: 5 }), at, 5), { unit: 'row', cell: indexOf(4, 8, 9) });
  assert.deepEqual(contradicts(board({ [indexOf(0, 4, 9)]: 5 }), at, 5), { unit: 'column', cell: indexOf(0, 4, 9) });
  assert.deepEqual(contradicts(board({ [indexOf(3, 5, 9)]: 5 }), at, 5), { unit: 'block', cell: indexOf(3, 5, 9) });
  assert.deepEqual(contradicts(board({ [indexOf(4, 0, 9)]: 5 }), [4, 4], 5), { unit: 'row', cell: indexOf(4, 0, 9) });
});

test('nothing contradicts a digit the three units do not hold', () => {
  // Catches: a warning for a digit elsewhere on the board, another digit, or the slant
  // of the columns ignored (a cell one row down and one column left is not the column).
  const at = indexOf(4, 4, 9);
  assert.equal(contradicts(board({ [indexOf(4, 8, 9)]: 6 }), at, 5), null);
  assert.equal(contradicts(board({ [indexOf(0, 0, 9)]: 5, [indexOf(8, 8, 9)]: 5 }), at, 5), null);
  assert.equal(contradicts(board({ [indexOf(6, 3, 9)]: 5 }), at, 5), null);
  assert.equal(contradicts(board({}), at, 5), null);
});

test('only where the game has highlighting: without it the player chose to look alone', () => {
  // Catches: the warning in a game whose proposal turned highlighting off.
  const view = board({ [indexOf(4, 8, 9)]: 5 }, false);
  assert.equal(highlights(view), false);
  assert.equal(contradicts(view, indexOf(4, 4, 9), 5), null);
  assert.equal(contradicts({ ...view, options: undefined }, indexOf(4, 4, 9), 5), null);
});

test('on real boards: each given contradicts its own digit in every other cell of its row', () => {
  // Catches: the view's strings read the wrong way (blocks, digits, an irregular layout).
  let checked = 0;
  for (const game of fixtures()) {
    const frame = Object.values(game.players).flat().find(isState);
    const view = applyState(null, frame);
    if (!view || !view.options.highlighting) continue;
    const n = view.size;
    for (let i = 0; i < n * n; i++) {
      if (view.digits[i] === '.') continue;
      const [r, c] = cellOf(i, n);
      for (let k = 0; k < n; k++) {
        const there = indexOf(r, k, n);
        if (there === i || view.digits[there] !== '.') continue;
        const found = contradicts(view, there, view.digits[i]);
        assert.ok(found, `${game.name}: ${view.digits[i]} at ${i} not seen from ${there}`);
        assert.equal(view.digits[found.cell], view.digits[i]);
        checked += 1;
      }
    }
  }
  assert.ok(checked > 100, `only ${checked} checks`);
});
