/* The board's state (web/js/board/model.js): what each cell is, and where the arrow
 * keys move the focus, worked out without a browser. */

import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  boardSignature, cellLabel, cellStates, ownerMark, stepFocus, winnerBlocks, winningPath,
} from '../js/board/model.js';
import { useLanguage } from './catalogs.js';

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

test('a cell\'s name says where it is, what is on it and whose it is, in words', () => {
  useLanguage('en');
  const cells = cellStates(model({ digit: 7, candidates: new Set([2]), solution: '912345678' }));
  const names = cells.map((cell) => cellLabel(cell, 7));
  assert.equal(names[0], 'row 1, column 1, clue .');
  assert.equal(names[1], 'row 1, column 2, 3, blue’s');
  assert.equal(names[4], 'row 2, column 2, 5');
  assert.equal(names[8], 'row 3, column 3, clue 1, taken by red');
  assert.equal(names[2], 'row 1, column 3, empty (the solution: 2)');
  const unsolved = cellStates(model({ digit: 7, candidates: new Set([2]) }));
  assert.equal(cellLabel(unsolved[2], 7), 'row 1, column 3, empty, a candidate for 7');
  assert.equal(cellLabel(unsolved[3], 7), 'row 2, column 1, empty');
  // Another language's words, the same facts.
  useLanguage('el');
  assert.notEqual(cellLabel(unsolved[1], 7), 'row 1, column 2, 3, blue’s');
  assert.match(cellLabel(unsolved[1], 7), /3/);
  useLanguage('en');
});

test('every owned cell carries a shape as well as its colour, and its name says whose', () => {
  useLanguage('en');
  const view = { ...VIEW, owners: 'bb.r.rb.r', digits: '43.2.6151', clues: '000000000' };
  for (const cell of cellStates(model({ view }))) {
    const mark = ownerMark(cell);
    if (cell.owner === 'b') {
      assert.equal(mark, 'dot');
      assert.match(cellLabel(cell), /blue’s$/);
    } else if (cell.owner === 'r') {
      assert.equal(mark, 'square');
      assert.match(cellLabel(cell), /red’s$/);
    } else {
      assert.equal(mark, null);
      assert.doesNotMatch(cellLabel(cell), /blue|red/);
    }
  }
});

test('the board\'s signature changes with what is drawn, not with a lobby answer or the pointer', () => {
  useLanguage('en');
  const base = model({});
  // A render after a lobby answer builds a new model of the same game: the same signature.
  assert.equal(boardSignature(base), boardSignature(model({})));
  assert.equal(boardSignature(base), boardSignature(model({ hover: 4 })));
  const changed = [
    model({ digit: 7 }), model({ clue: 0 }), model({ focus: 5 }), model({ candidates: new Set([2]) }),
    model({ view: { ...VIEW, owners: '.b..b...r', digits: '.3..5...1' } }),
    model({ view: { ...VIEW, turn: 'red' } }), model({ turned: true }),
    model({ flashes: [{ index: 2, digit: 4, at: 1 }] }),
    model({ view: { ...VIEW, result: { winner: 'blue', path: [[0, 1]] } } }),
  ];
  for (const other of changed) assert.notEqual(boardSignature(other), boardSignature(base));
  const english = boardSignature(base);
  useLanguage('el');
  assert.notEqual(boardSignature(base), english);
  useLanguage('en');
});
