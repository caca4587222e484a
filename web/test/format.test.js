import { test } from 'node:test';
import assert from 'node:assert/strict';

import { fmtClock, fmtDuration, resultText } from '../js/format.js';
import { useLanguage } from './catalogs.js';

useLanguage('en');

const players = { blue: { name: 'ana' }, red: { name: 'bob' } };

test('clocks and durations', () => {
  assert.equal(fmtClock(65000), '1:05');
  assert.equal(fmtClock(3725000), '1:02:05');
  assert.equal(fmtClock(-5), '0:00');
  assert.equal(fmtClock(null), '—');
  // Durations in Intl's short units (the language's own abbreviations).
  assert.equal(fmtDuration(45000), '45 sec');
  assert.equal(fmtDuration(1200000), '20 min');
  assert.equal(fmtDuration(null), 'no limit');
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
