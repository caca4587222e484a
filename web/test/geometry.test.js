import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  R, W, blockOwners, blockSummary, cellOf, centre, indexOf, layout, neighbours, zonesOf,
} from '../js/geometry.js';

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

test('turned, the board stands on a corner: (0,0) on top, (n-1,n-1) below it, upright', () => {
  for (const n of [6, 9]) {
    const turned = layout(n, true);
    const [xTop, yTop] = turned.centre(0, 0);
    const [xBottom, yBottom] = turned.centre(n - 1, n - 1);
    assert.ok(Math.abs(xTop - xBottom) < 1e-9 && yBottom > yTop, 'the long diagonal is upright');
    assert.ok(Math.abs(xTop - turned.size.width / 2) < 1e-9, 'centred across');
    const flat = layout(n);
    // Taller than wide, and narrower than flat: the cells get bigger on a portrait screen.
    assert.ok(turned.size.height > turned.size.width);
    assert.ok(turned.size.width < flat.size.width * 0.75);
    for (let i = 0; i < n * n; i++) {
      const [x, y] = turned.centre(...cellOf(i, n));
      assert.ok(x >= W / 2 - 1e-9 && x <= turned.size.width - W / 2 + 1e-9, `cell ${i} across`);
      assert.ok(y >= R - 1e-9 && y <= turned.size.height - R + 1e-9, `cell ${i} down`);
    }
  }
});

test('either way, the cell across each drawn edge is the neighbour whose centre lies there', () => {
  for (const turned of [false, true]) {
    const at = layout(9, turned);
    const [x, y] = at.centre(4, 4);
    for (let k = 0; k < 6; k++) {
      const [dr, dc] = at.across(k);
      const [nx, ny] = at.centre(4 + dr, 4 + dc);
      // The edge's midpoint is halfway between the two centres (hexagons tile the plane).
      const a = (Math.PI / 180) * (60 * k - 90);
      const b = (Math.PI / 180) * (60 * (k + 1) - 90);
      const mid = [x + (R * (Math.cos(a) + Math.cos(b))) / 2, y + (R * (Math.sin(a) + Math.sin(b))) / 2];
      assert.ok(Math.hypot((x + nx) / 2 - mid[0], (y + ny) / 2 - mid[1]) < 1e-9, `turned=${turned} edge ${k}`);
    }
  }
});
