import { test } from 'node:test';
import assert from 'node:assert/strict';

import { logEntry } from '../js/journal.js';
import { applyEvent, applyState } from '../js/reducer.js';
import { fixtures, isEvent, isState } from './helpers.js';
import { useLanguage } from './catalogs.js';

useLanguage('en');

const view = {
  you: 'blue', moves: 7, variant: 'bridge',
  players: { blue: { name: 'ana' }, red: { name: 'bob' } },
};

test('turns are numbered, and the viewer is "you"', () => {
  assert.deepEqual(logEntry(view, { type: 'placed', v: 9, seat: 'blue', cell: [4, 3], digit: 7 }),
    { kind: 'placed', seat: 'blue', text: '7. ana (you) placed 7 at (5,4)', v: 9 });
  assert.equal(logEntry(view, { type: 'mistake', v: 9, seat: 'red', cell: [1, 2], digit: 5 }).text,
    '7. bob: mistake — 5 does not go at (2,3)');
  assert.equal(logEntry(view, { type: 'taken', v: 9, seat: 'red', cell: [0, 0], paid: 0 }).text,
    '7. bob took the clue at (1,1) for free');
});

test('folded timeouts and an automatic adjournment read as such', () => {
  assert.equal(logEntry(view, { type: 'timeouts', v: 3, count: 46, seats: {}, passes: 0 }).text,
    '46 more moves lost to the clock');
  assert.equal(logEntry(view, { type: 'timeouts', v: 3, count: 2, seats: {}, passes: 1 }).text,
    '2 more moves lost to the clock (and 1 automatic pass)');
  assert.equal(logEntry(view, { type: 'adjourned', v: 3, seat: 'red', auto: true }).text,
    'Four moves in a row lost to the clock: the game is adjourned');
});

test('silent events make no line; unknown ones say their kind', () => {
  for (const type of ['hidden', 'hand', 'turn', 'presence']) assert.equal(logEntry(view, { type, v: 1 }), null);
  assert.equal(logEntry(view, { type: 'comet', v: 1 }).text, '(comet)');
});

test('every recorded event has a line or is silent by design, never an unknown kind', () => {
  for (const game of fixtures()) {
    const stream = game.players.ana;
    let current = applyState(null, stream.find(isState));
    for (const event of stream.filter(isEvent).sort((a, b) => a.v - b.v)) {
      current = applyEvent(current, event);
      const line = logEntry(current, event);
      if (line) assert.ok(!line.text.startsWith('('), `${game.name}: ${event.type}`);
    }
  }
});
