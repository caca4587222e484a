/* replay.js against real records: the `record` answers of whole games played through a
 * real `numbridge serve` (web/test/fixtures/records/, written by
 * `tools/capture_web_fixtures.py --records`; one of them against the backend's easy bot). */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { blockSummary } from '../js/geometry.js';
import {
  allPositions, applyMove, cellAt, clampStep, lastStep, mistakeAt, moveText, positionAt, replayView,
  startPosition,
} from '../js/replay.js';
import { deepFreeze } from './helpers.js';
import { useLanguage } from './catalogs.js';

useLanguage('en');

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'records');
const RECORDS = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort().map((file) => ({
  name: file.replace(/\.json$/, ''),
  record: deepFreeze(JSON.parse(readFileSync(join(DIR, file), 'utf8'))),
}));

test('there are records of each variant, a resignation and a bot game', () => {
  const variants = new Set(RECORDS.map(({ record }) => record.options.variant));
  assert.deepEqual([...variants].sort(), ['blitz', 'bridge', 'domains']);
  assert.ok(RECORDS.some(({ record }) => record.result.by === 'resign'));
  assert.ok(RECORDS.some(({ record }) => Object.values(record.players).some((p) => p.startsWith('bot-'))));
  assert.ok(RECORDS.some(({ record }) => record.moves.some((m) => m.action === 'swap')));
});

for (const { name, record } of RECORDS) {
  test(`${name}: the position after the last move is the record's final board`, () => {
    const end = positionAt(record, lastStep(record));
    assert.equal(end.step, record.moves.length);
    assert.equal(end.digits, record.digits);
    assert.equal(end.owners, record.owners);
    assert.deepEqual(end.mistakes, record.mistakes);
  });

  test(`${name}: the deal has the givens and no owner; every digit shown is the solution's`, () => {
    const start = positionAt(record, 0);
    assert.deepEqual(start, startPosition(record));
    assert.equal(start.digits, record.givens);
    assert.match(start.owners, /^\.+$/);
    assert.equal([...start.clues].filter((c) => c === '1').length, record.options.clues);
    for (const position of allPositions(record)) {
      for (let i = 0; i < record.size ** 2; i++) {
        if (position.digits[i] !== '.') assert.equal(position.digits[i], record.solution[i]);
        // A cell is owned only once its digit stands (a placement, or a clue taken).
        if (position.owners[i] !== '.') assert.notEqual(position.digits[i], '.');
      }
    }
  });

  test(`${name}: each step changes at most one cell, as its entry says`, () => {
    const positions = allPositions(record);
    assert.equal(positions.length, record.moves.length + 1);
    for (let k = 1; k < positions.length; k++) {
      const [before, after] = [positions[k - 1], positions[k]];
      const move = record.moves[k - 1];
      const changed = [];
      for (let i = 0; i < record.size ** 2; i++) {
        if (before.digits[i] !== after.digits[i] || before.owners[i] !== after.owners[i]) changed.push(i);
      }
      const changes = (move.action === 'place' && !move.mistake) || ['take', 'swap'].includes(move.action);
      assert.deepEqual(changed, changes ? [cellAt(record, after)] : [], `step ${k}: ${move.action}`);
      if (move.action === 'place' && move.mistake) {
        assert.deepEqual(mistakeAt(record, after), { index: cellAt(record, after), digit: move.digit, seat: move.seat });
        assert.notEqual(record.solution[cellAt(record, after)], String(move.digit));
      } else assert.equal(mistakeAt(record, after), null);
      assert.deepEqual(positionAt(record, k), after);
    }
  });

  test(`${name}: the replay's view at the end carries the result, before it none`, () => {
    const n = lastStep(record);
    const end = replayView(record, n);
    assert.equal(end.status, 'finished');
    assert.deepEqual(end.result, record.result);
    assert.equal(end.blocks, record.layout);
    assert.equal(end.players.blue.name, record.players.blue);
    const middle = replayView(record, Math.floor(n / 2));
    assert.equal(middle.status, 'replay');
    assert.equal(middle.result, null);
    if (record.options.variant === 'domains') {
      assert.deepEqual(end.block_table, blockSummary(record.size, record.layout, record.owners).table);
      if (record.result.block_table) assert.deepEqual(end.block_table, record.result.block_table);
    } else assert.equal('block_table' in end, false);
  });
}

test('steps are clamped to the record', () => {
  const { record } = RECORDS[0];
  const n = lastStep(record);
  assert.equal(clampStep(record, -3), 0);
  assert.equal(clampStep(record, n + 5), n);
  assert.equal(clampStep(record, 2.7), 2);
  assert.equal(clampStep(record, Number.NaN), n);
  assert.equal(positionAt(record, n + 10).step, n);
  assert.equal(lastStep(null), 0);
});

test('moves in words', () => {
  const players = { blue: 'ana', red: 'bob' };
  const base = { digit: null, mistake: false, discarded: [], time_ms: 0, at_ms: 0 };
  assert.equal(moveText({ ...base, seat: 'blue', action: 'place', cell: [2, 3], digit: 5 }, players), 'ana placed 5 at (3,4)');
  assert.equal(moveText({ ...base, seat: 'red', action: 'place', cell: [0, 1], digit: 4, mistake: true }, players),
    'bob: mistake — 4 does not go at (1,2)');
  assert.equal(moveText({ ...base, seat: 'red', action: 'take', cell: [1, 1], digit: 2, discarded: [2, 6] }, players),
    'bob took the clue at (2,2) paying 2 6');
  assert.equal(moveText({ ...base, seat: 'red', action: 'take', cell: [1, 1] }, players), 'bob took the clue at (2,2) for free');
  assert.equal(moveText({ ...base, seat: 'red', action: 'swap', cell: [4, 4] }, players), 'bob swapped (pie rule): took over (5,5)');
  assert.equal(moveText({ ...base, seat: 'blue', action: 'resign', cell: null }, players), 'ana resigned');
});

test('applyMove leaves its arguments alone', () => {
  const { record } = RECORDS[0];
  const start = deepFreeze(startPosition(record));
  const next = applyMove(record, start, record.moves[0]);
  assert.equal(next.step, 1);
  assert.equal(start.step, 0);
});
