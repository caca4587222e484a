import { test } from 'node:test';
import assert from 'node:assert/strict';

import { becameMyMove, onTheClock } from '../js/turns.js';

const view = (fields) => ({ you: 'blue', status: 'playing', turn: 'blue', v: 5, ...fields });

test('it becomes my move when the turn passes to me, not while it stays mine', () => {
  assert.equal(becameMyMove(view({}), view({ turn: 'red' })), true);
  assert.equal(becameMyMove(view({}), view({})), false, 'still mine (a second move of a pair)');
  assert.equal(becameMyMove(view({ turn: 'red' }), view({})), false, 'it went to them');
  assert.equal(becameMyMove(view({}), view({ status: 'adjourned' })), true, 'resumed, my move');
});

test('a new game is my move only if I move first; a spectator has no move', () => {
  assert.equal(becameMyMove(view({ v: 0 }), null), true);
  assert.equal(becameMyMove(view({ v: 0, turn: 'red' }), null), false);
  assert.equal(becameMyMove(view({ v: 7 }), null), false, 'an old game opened: nothing new');
  assert.equal(becameMyMove(view({ you: null }), view({ you: null, turn: 'red' })), false);
  assert.equal(becameMyMove(view({ status: 'finished' }), view({ turn: 'red' })), false);
});

test('a game is on the clock with a move deadline or a game clock, and only in play', () => {
  assert.equal(onTheClock(view({ deadline_ms: 1000 })), true);
  assert.equal(onTheClock(view({ players: { blue: { clock_ms: 5000 }, red: { clock_ms: 4000 } } })), true);
  assert.equal(onTheClock(view({ players: { blue: { clock_ms: null }, red: { clock_ms: null } } })), false);
  assert.equal(onTheClock(view({ status: 'finished', deadline_ms: 1000 })), false);
});
