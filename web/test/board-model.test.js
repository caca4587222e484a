/* The board's state (web/js/board/model.js): what each cell is, and where the arrow
 * keys move the focus, worked out without a browser. */

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { cellStates, stepFocus, winnerBlocks, winningPath } from '../js/board/model.js';

// A 3×3 board: a given 5 in the middle, a clue at (0,0) and one taken by red at (2,2),
// blue's digit at (0,1); blocks are the rows.
const VIEW = {
  size: 3, variant: 'bridge', status: 'playing', you: 'blue', turn: 'blue',
  clues: '100000001', owners: '.b......r', digits: '.3..5...1', blocks: '000111222',
};
const model = (extra) => ({
  view: VIEW, digit: null, candidates: null, clue: null, solution: null, flashes: [], hover: null, focus: null,
  ...extra,
});

test('each cell says what it is', () => {
  const cells = cellStates(model({}));
  assert.equal(cells.length, 9);
  assert.deepEqual([cells[0].clue, cells[0].empty, cells[0].owner], [true, false, '.']);
  assert.deepEqual([cells[1].digit, cells[1].owner, cells[1].empty], ['3', 'b', false]);
  assert.deepEqual([cells[4].digit, cells[4].owner], ['5', '.']);
  assert.deepEqual([cells[8].clue, cells[8].owner], [true, 'r']);
  assert.deepEqual([cells[5].r, cells[5].c], [1, 2]);
  assert.equal(cells.filter((cell) => cell.empty).length, 5);
});

test('a cell is playable on my move: an empty one with a tile selected, a free clue always', () => {
  const playable = (extra) => cellStates(model(extra)).filter((c) => c.playable).map((c) => c.index);
  assert.deepEqual(playable({}), [0]);
  assert.deepEqual(playable({ digit: 7 }), [0, 2, 3, 5, 6, 7]);
  assert.deepEqual(playable({ digit: 7, view: { ...VIEW, turn: 'red' } }), []);
  assert.deepEqual(playable({ digit: 7, view: { ...VIEW, you: null } }), []);
  assert.deepEqual(playable({ digit: 7, view: { ...VIEW, status: 'finished' } }), []);
});

test('selections, candidates, the solution and the one tab stop', () => {
  const cells = cellStates(model({
    clue: 0, candidates: new Set([2, 6]), solution: '912345678', focus: 5, last: 3,
  }));
  assert.deepEqual(cells.filter((c) => c.selected).map((c) => c.index), [0]);
  assert.deepEqual(cells.filter((c) => c.candidate).map((c) => c.index), [2, 6]);
  assert.deepEqual(cells.filter((c) => c.focusable).map((c) => c.index), [5]);
  assert.deepEqual(cells.filter((c) => c.last).map((c) => c.index), [3]);
  // The solution shows under empty cells only, never over a digit on the board.
  assert.equal(cells[2].solution, '2');
  assert.equal(cells[1].solution, null);
  // No focus yet: the first cell is the tab stop.
  assert.deepEqual(cellStates(model({})).filter((c) => c.focusable).map((c) => c.index), [0]);
});

test('the arrow keys move along rows and columns and stop at the edge', () => {
  assert.equal(stepFocus(4, 'ArrowRight', 3), 5);
  assert.equal(stepFocus(4, 'ArrowLeft', 3), 3);
  assert.equal(stepFocus(4, 'ArrowUp', 3), 1);
  assert.equal(stepFocus(4, 'ArrowDown', 3), 7);
  assert.equal(stepFocus(5, 'ArrowRight', 3), 5);
  assert.equal(stepFocus(0, 'ArrowUp', 3), 0);
  assert.equal(stepFocus(4, 'a', 3), null);
  assert.equal(stepFocus(4, 'ArrowUp', 0), null);
});

test('the winning chain (Bridge) and the winner\'s blocks (Domains)', () => {
  const path = [[0, 1], [1, 1], [2, 1]];
  assert.deepEqual(winningPath({ ...VIEW, result: { winner: 'blue', path } }), path);
  assert.equal(winningPath({ ...VIEW, result: null }), null);
  assert.equal(winningPath({ ...VIEW, variant: 'domains', result: { winner: 'blue', path } }), null);
  const domains = { ...VIEW, variant: 'domains', result: { winner: 'red', blocks: [0, 2] } };
  assert.deepEqual([...winnerBlocks(domains)], ['0', '2']);
  assert.equal(winnerBlocks(VIEW).size, 0);
});
