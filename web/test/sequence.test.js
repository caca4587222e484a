import { test } from 'node:test';
import assert from 'node:assert/strict';

import { admit, emptyQueue, release } from '../js/sequence.js';

const e = (v) => ({ type: 'hidden', game: 'g', v });

test('the next event is ready at once', () => {
  const { ready, waiting, gap } = admit(emptyQueue(), 4, e(5));
  assert.deepEqual(ready.map((f) => f.v), [5]);
  assert.equal(waiting.size, 0);
  assert.equal(gap, false);
});

test('an early event waits, and the gap is reported, until it is filled', () => {
  let step = admit(emptyQueue(), 4, e(7));
  assert.deepEqual(step.ready, []);
  assert.equal(step.gap, true);
  step = admit(step.waiting, 4, e(6));
  assert.equal(step.gap, true);
  step = admit(step.waiting, 4, e(5));
  assert.deepEqual(step.ready.map((f) => f.v), [5, 6, 7]);
  assert.equal(step.gap, false);
});

test('repeats and events from the past are dropped', () => {
  assert.deepEqual(admit(emptyQueue(), 4, e(4)).ready, []);
  assert.deepEqual(admit(emptyQueue(), 4, e(2)).waiting.size, 0);
  const twice = admit(admit(emptyQueue(), 4, e(6)).waiting, 4, e(6));
  assert.equal(twice.waiting.size, 1);
});

test('a state that jumps ahead releases what follows it and forgets what it covers', () => {
  let waiting = emptyQueue();
  for (const v of [6, 9, 11, 12]) waiting = admit(waiting, 4, e(v)).waiting;
  const step = release(waiting, 10);
  assert.deepEqual(step.ready.map((f) => f.v), [11, 12]);
  assert.equal(step.waiting.size, 0);
});

test('the queue given is never changed', () => {
  const waiting = admit(emptyQueue(), 1, e(3)).waiting;
  admit(waiting, 1, e(2));
  release(waiting, 5);
  assert.deepEqual([...waiting.keys()], [3]);
});
