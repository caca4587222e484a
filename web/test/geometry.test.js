import { test } from 'node:test';
import assert from 'node:assert/strict';

import { blockOwners, blockSummary, cellOf, centre, indexOf, neighbours, W, zonesOf } from '../js/geometry.js';

const REGULAR_9 = Array.from({ length: 81 }, (_, i) => {
  const [r, c] = cellOf(i, 9);
  return String(Math.floor(r / 3) * 3 + Math.floor(c / 3));
}).join('');

test('each row is drawn half a cell right of the one above', () => {
  const [x00, y00] = centre(0, 0);
  const [x01, y01] = centre(0, 1);
  const [x10, y10] = centre(1, 0);
  assert.equal(y00, y01);
  assert.ok(Math.abs(x01 - x00 - W) < 1e-9);
  assert.ok(Math.abs(x10 - x00 - W / 2) < 1e-9, '(1,0) is down and right of (0,0)');
  assert.ok(y10 > y00);
});

test('the six neighbours, fewer at the edges', () => {
  const around = (r, c) => neighbours(r, c, 9).map(([a, b]) => `${a},${b}`).sort();
  assert.deepEqual(around(4, 4), ['3,4', '3,5', '4,3', '4,5', '5,3', '5,4']);
  assert.deepEqual(around(0, 0), ['0,1', '1,0']);
  assert.equal(neighbours(8, 8, 9).length, 2);
  assert.equal(neighbours(0, 8, 9).length, 3);
});

test('three zones: the row, the slanted column, the block', () => {
  const { row, column, block } = zonesOf(indexOf(4, 4, 9), 9, REGULAR_9);
  assert.deepEqual(row.map((i) => cellOf(i, 9)), Array.from({ length: 9 }, (_, c) => [4, c]));
  assert.deepEqual(column.map((i) => cellOf(i, 9)), Array.from({ length: 9 }, (_, r) => [r, 4]));
  assert.equal(block.length, 9);
  assert.ok(block.every((i) => REGULAR_9[i] === '4'));
  assert.equal(new Set([...row, ...column, ...block]).size, 21);
});

test('zones on an irregular 6×6 board', () => {
  const blocks = '000111' + '002211' + '022221' + '333444' + '335544' + '355554';
  const { block } = zonesOf(indexOf(1, 2, 6), 6, blocks);
  assert.equal(block.length, 6);
  assert.ok(block.every((i) => blocks[i] === '2'));
});

test('a block is owned with a majority of its cells', () => {
  const owners = 'bbbbb....' + 'rrrr.....' + '.'.repeat(63);
  const byBlock = blockOwners(9, REGULAR_9, owners);
  assert.equal(byBlock.get('0'), '.');
  const mostly = 'bbb' + '......' + 'bb.' + '......' + '...' + '.'.repeat(60);
  assert.equal(blockOwners(9, REGULAR_9, mostly).get('0'), 'b');
  const summary = blockSummary(9, REGULAR_9, mostly);
  assert.equal(summary.marks, 'b........');
  assert.deepEqual(summary.table, { blue: 1, red: 0, undecided: 8 });
});
