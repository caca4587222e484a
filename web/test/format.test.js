import { test } from 'node:test';
import assert from 'node:assert/strict';

import { fmtClock, fmtDuration, plural, resultText } from '../js/format.js';

const players = { blue: { name: 'ana' }, red: { name: 'bob' } };

test('clocks and durations', () => {
  assert.equal(fmtClock(65000), '1:05');
  assert.equal(fmtClock(3725000), '1:02:05');
  assert.equal(fmtClock(-5), '0:00');
  assert.equal(fmtClock(null), '—');
  assert.equal(fmtDuration(45000), '45 s');
  assert.equal(fmtDuration(1200000), '20 min');
  assert.equal(fmtDuration(null), 'no limit');
  assert.equal(plural(1, 'tile'), '1 tile');
  assert.equal(plural(2, 'tile'), '2 tiles');
});

test('results in words, for a player and for a spectator', () => {
  assert.equal(resultText({ winner: 'blue', by: 'goal' }, players, 'bridge', 'blue'),
    'You win: sides connected (top ↔ bottom)');
  assert.equal(resultText({ winner: 'red', by: 'resign' }, players, 'bridge', null), 'ana resigned — bob wins');
  assert.equal(resultText({ winner: 'red', by: 'time' }, players, 'blitz', 'blue'), 'You ran out of time — bob wins');
  assert.equal(resultText({ winner: 'blue', by: 'goal', block_table: { blue: 5, red: 2, undecided: 2 } },
    players, 'domains', 'red'), 'ana wins: a majority of the blocks (5–2, 2 undecided)');
  assert.equal(resultText({ winner: null, by: 'agreement' }, players, 'domains', 'red'), 'Draw by agreement');
  assert.equal(resultText({ winner: null, by: 'aborted' }, players, 'bridge', 'red'), 'Aborted — no result, unrated');
  assert.equal(resultText(null, players, 'bridge', 'red'), '');
});
