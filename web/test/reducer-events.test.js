/* One event at a time, on small hand-made views: each kind the server sends (and the
 * additions it will send), spectators, repeats and unknown kinds. */

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { applyEvent, applyState, clockNow, features, isSpectator, secondOfPair, UNVERSIONED } from '../js/reducer.js';
import { deepFreeze } from './helpers.js';

const G = 'g-1';

function bridgeView(extra = {}) {
  return deepFreeze({
    game: G, v: 10, room: 'bridge', variant: 'bridge', size: 3,
    blocks: '000111222', digits: '1........', owners: '.........', clues: '100000000',
    you: 'red',
    players: {
      blue: { name: 'ana', hand_size: 3, mistakes: 0, clock_ms: 60000 },
      red: { name: 'bob', hand_size: 3, mistakes: 1, clock_ms: 50000 },
    },
    hand: [2, 3, 3], bag: 4, turn: 'red', now_ms: 1000, deadline_ms: 46000,
    status: 'playing', result: null, swap_available: true,
    offers: { draw: null, adjourn: null },
    options: { blocks: 'regular', clues: 1, take_price: 1, move_ms: 45000, game_ms: 900000,
      highlighting: true, rated: false },
    last_mistake: null, resume_requested: [], moves: 1,
    ...extra,
  });
}

const ev = (type, v, fields = {}) => deepFreeze({ type, game: G, v, ...fields });

test('a state frame gives its view at its version; an older one changes nothing', () => {
  const view = applyState(null, { type: 'state', game: G, v: 10, view: bridgeView() });
  assert.equal(view.v, 10);
  assert.equal(applyState(view, { type: 'state', game: G, v: 9, view: bridgeView({ v: 9 }) }), view);
  const newer = applyState(view, { type: 'state', game: G, v: 12, view: bridgeView({ v: 12, bag: 1 }) });
  assert.equal(newer.bag, 1);
});

test('placed: the digit and the owner; a turn counted', () => {
  const view = applyEvent(bridgeView(), ev('placed', 11, { seat: 'red', cell: [1, 2], digit: 7 }));
  assert.equal(view.digits, '1....7...');
  assert.equal(view.owners, '.....r...');
  assert.equal(view.moves, 2);
  assert.equal(view.v, 11);
});

test('mistake: public, counted, nothing on the board', () => {
  const view = applyEvent(bridgeView(), ev('mistake', 11, { seat: 'red', cell: [2, 2], digit: 4 }));
  assert.deepEqual(view.last_mistake, { seat: 'red', cell: [2, 2], digit: 4, v: 11 });
  assert.equal(view.players.red.mistakes, 2);
  assert.equal(view.digits, bridgeView().digits);
  assert.equal(view.moves, 2);
});

test('taken and swapped own a cell; swapped closes the pie rule', () => {
  let view = applyEvent(bridgeView(), ev('taken', 11, { seat: 'blue', cell: [0, 0], paid: 1 }));
  assert.equal(view.owners[0], 'b');
  view = applyEvent(view, ev('swapped', 12, { seat: 'red', cell: [0, 0] }));
  assert.equal(view.owners[0], 'r');
  assert.equal(view.swap_available, false);
  assert.equal(view.moves, 3);
});

test('hidden only advances the version', () => {
  const before = bridgeView();
  const view = applyEvent(before, ev('hidden', 11));
  assert.deepEqual({ ...view, v: 10 }, before);
  assert.equal(view.v, 11);
});

test('a repeat or an event from the past changes nothing', () => {
  const view = bridgeView();
  assert.equal(applyEvent(view, ev('placed', 10, { seat: 'red', cell: [1, 1], digit: 5 })), view);
  assert.equal(applyEvent(view, ev('placed', 3, { seat: 'red', cell: [1, 1], digit: 5 })), view);
});

test('an unknown kind advances v and nothing else (a newer server)', () => {
  const view = applyEvent(bridgeView(), ev('comet', 11, { seat: 'red' }));
  assert.equal(view.v, 11);
  assert.equal(view.moves, 1);
});

test('hand: the viewer\'s own tiles; a spectator has none to change', () => {
  assert.deepEqual(applyEvent(bridgeView(), ev('hand', 11, { hand: [9] })).hand, [9]);
  const { you: _you, hand: _hand, ...spectator } = bridgeView();
  assert.equal('hand' in applyEvent(spectator, ev('hand', 11, { hand: [9] })), false);
});

test('turn: who moves, until when, and the public counters', () => {
  const view = applyEvent(bridgeView(), ev('turn', 11, {
    turn: 'blue', deadline_ms: 99000, now_ms: 54000, bag: 2,
    hand_sizes: { blue: 2, red: 3 }, clock_ms: { blue: 59000, red: 49000 },
    mistakes: { blue: 1, red: 1 }, swap_available: false,
  }));
  assert.equal(view.turn, 'blue');
  assert.equal(view.deadline_ms, 99000);
  assert.equal(view.now_ms, 54000);
  assert.equal(view.bag, 2);
  assert.deepEqual(view.players.blue, { name: 'ana', hand_size: 2, mistakes: 1, clock_ms: 59000 });
  assert.equal(view.swap_available, false);
  assert.equal(view.moves, 1, 'a turn event is not a turn played');
});

test('swap_available: for the player to move only; a spectator sees whether red may', () => {
  const turn = ev('turn', 11, { turn: 'red', deadline_ms: 1, now_ms: 1, swap_available: true });
  assert.equal(applyEvent(bridgeView({ you: 'red' }), turn).swap_available, true);
  assert.equal(applyEvent(bridgeView({ you: 'blue' }), turn).swap_available, false);
  const { you: _you, hand: _hand, ...spectator } = bridgeView();
  assert.equal(applyEvent(spectator, turn).swap_available, true);
});

test('swap_open: the player to move may swap, in every view; swap_available stays the viewer\'s', () => {
  const turn = ev('turn', 11, { turn: 'red', deadline_ms: 1, now_ms: 1, swap_available: true, swap_open: true });
  const blue = applyEvent(bridgeView({ you: 'blue', swap_available: false, swap_open: false }), turn);
  assert.equal(blue.swap_open, true);
  assert.equal(blue.swap_available, false);
  const red = applyEvent(bridgeView({ swap_open: false }), turn);
  assert.equal(red.swap_open, true);
  assert.equal(red.swap_available, true);
  const swapped = applyEvent(red, ev('swapped', 12, { seat: 'red', cell: [0, 1] }));
  assert.equal(swapped.swap_open, false);
  assert.equal(swapped.swap_available, false);
  assert.equal('swap_open' in applyEvent(bridgeView(), turn), false, 'an older view keeps its shape');
});

test('timeout and passed are turns; timeouts counts every turn it folds', () => {
  let view = applyEvent(bridgeView(), ev('timeout', 11, { seat: 'red' }));
  view = applyEvent(view, ev('passed', 12, { seat: 'blue' }));
  assert.equal(view.moves, 3);
  view = applyEvent(view, ev('timeouts', 13, { count: 46, seats: { blue: 23, red: 23 }, passes: 2 }));
  assert.equal(view.moves, 51);
  assert.equal(view.status, 'playing');
});

test('draw and adjournment offers, declined and lapsed', () => {
  let view = applyEvent(bridgeView(), ev('draw_offered', 11, { seat: 'blue' }));
  assert.equal(view.offers.draw, 'blue');
  view = applyEvent(view, ev('draw_declined', 12, { seat: 'red' }));
  assert.equal(view.offers.draw, null);
  view = applyEvent(view, ev('draw_offered', 13, { seat: 'red' }));
  view = applyEvent(view, ev('draw_lapsed', 14, { seat: 'red' }));
  assert.equal(view.offers.draw, null);
  view = applyEvent(view, ev('adjourn_offered', 15, { seat: 'blue' }));
  assert.equal(view.offers.adjourn, 'blue');
  view = applyEvent(view, ev('adjourn_lapsed', 16, { seat: 'blue' }));
  assert.equal(view.offers.adjourn, null);
});

test('adjourned (by the rules too), resume asked, resumed, then the turn', () => {
  let view = applyEvent(bridgeView(), ev('adjourned', 11, {
    seat: 'red', clock_ms: { blue: null, red: null }, auto: true,
  }));
  assert.equal(view.status, 'adjourned');
  assert.equal(view.turn, null);
  assert.equal(view.deadline_ms, null);
  assert.equal(view.players.red.clock_ms, null);
  assert.equal(view.swap_available, false);
  view = applyEvent(view, ev('resume_requested', 12, { seat: 'red' }));
  view = applyEvent(view, ev('resume_requested', 13, { seat: 'blue' }));
  assert.deepEqual(view.resume_requested, ['blue', 'red']);
  view = applyEvent(view, ev('resumed', 14, { seat: 'blue' }));
  assert.equal(view.status, 'playing');
  assert.deepEqual(view.resume_requested, []);
  view = applyEvent(view, ev('turn', 15, { turn: 'red', deadline_ms: 5, now_ms: 4 }));
  assert.equal(view.turn, 'red');
});

test('finished: the result; play stops; offers close', () => {
  const view = applyEvent(bridgeView({ offers: { draw: 'blue', adjourn: null, rematch: null } }),
    ev('finished', 11, { result: { winner: null, by: 'aborted' } }));
  assert.equal(view.status, 'finished');
  assert.deepEqual(view.result, { winner: null, by: 'aborted' });
  assert.equal(view.turn, null);
  assert.deepEqual(view.offers, { draw: null, adjourn: null, rematch: null });
});

test('Domains: the block table follows the owners, also on the last move', () => {
  const domains = bridgeView({
    variant: 'domains', blocks: '000111222', owners: 'bb.......', block_table: { blue: 0, red: 0, undecided: 3 },
    block_owners: '...', moves_left_in_pair: 2,
  });
  const view = applyEvent(domains, ev('placed', 11, { seat: 'blue', cell: [0, 2], digit: 3 }));
  assert.deepEqual(view.block_table, { blue: 1, red: 0, undecided: 2 });
  assert.equal(view.block_owners, 'b..');
  assert.equal(secondOfPair({ ...view, moves_left_in_pair: 1 }), true);
  assert.equal(secondOfPair(view), false);
});

test('presence: no version, the player\'s online flag', () => {
  const view = applyEvent(bridgeView(), deepFreeze({ type: 'presence', game: G, seat: 'blue', online: false }));
  assert.equal(view.v, 10);
  assert.equal(view.players.blue.online, false);
  assert.equal(features(view).presence, true);
  assert.equal(features(bridgeView()).presence, false);
});

test('rematch offers on a finished game: pushed with no version', () => {
  const pushed = (type, fields) => deepFreeze({ type, game: G, ...fields });
  let view = bridgeView({ status: 'finished', turn: null, offers: { draw: null, adjourn: null, rematch: null } });
  assert.equal(features(view).rematch, true);
  assert.equal(features(bridgeView()).rematch, false);
  for (const type of ['rematch_offered', 'rematch_declined', 'rematch_accepted']) {
    assert.ok(UNVERSIONED.has(type), `${type} waits for no version`);
  }
  view = applyEvent(view, pushed('rematch_offered', { seat: 'blue' }));
  assert.equal(view.offers.rematch, 'blue');
  assert.equal(view.v, 10);
  view = applyEvent(view, pushed('rematch_declined', { seat: 'red' }));
  assert.equal(view.offers.rematch, null);
  view = applyEvent(view, pushed('rematch_offered', { seat: 'red' }));
  view = applyEvent(view, pushed('rematch_accepted', { seat: 'blue', rematch: 'g-2' }));
  assert.equal(view.offers.rematch, null);
  assert.equal(view.rematch, 'g-2');
  assert.equal(view.v, 10);
});

test('abort closes once two turns are played (a first move lost to the clock aborts)', () => {
  let view = bridgeView({ abortable: true, moves: 0 });
  view = applyEvent(view, ev('exchanged', 11, { seat: 'blue', count: 3 }));
  assert.equal(view.abortable, true, 'red has not moved yet');
  view = applyEvent(view, ev('placed', 12, { seat: 'red', cell: [1, 1], digit: 5 }));
  assert.equal(view.abortable, false);
  assert.equal(features(view).abort, false);
  const hidden = applyEvent(bridgeView({ abortable: true, moves: 1 }), ev('hidden', 11));
  assert.equal(hidden.abortable, true, 'a hidden event is no turn');
});

test('abort: offered while the server says so, or before both have moved once', () => {
  assert.equal(features(bridgeView()).abort, false, 'no sign of support: hidden');
  assert.equal(features(bridgeView({ abortable: true })).abort, true);
  assert.equal(features(bridgeView({ abortable: false, moves: 0 })).abort, false);
  const online = { blue: { name: 'ana', online: true }, red: { name: 'bob', online: true } };
  assert.equal(features(bridgeView({ players: online, moves: 1 })).abort, true);
  assert.equal(features(bridgeView({ players: online, moves: 2 })).abort, false);
  assert.equal(features(bridgeView({ abortable: true, status: 'finished' })).abort, false);
});

test('spectator views have no seat', () => {
  const { you: _you, hand: _hand, ...spectator } = bridgeView();
  assert.equal(isSpectator(spectator), true);
  assert.equal(isSpectator(bridgeView()), false);
});

test('the mover\'s clock runs from the view\'s moment; the other\'s stands', () => {
  const view = bridgeView();
  assert.equal(clockNow(view, 'red', 3000), 48000);
  assert.equal(clockNow(view, 'blue', 3000), 60000);
  assert.equal(clockNow(view, 'red', 999999999), 0);
  assert.equal(clockNow(bridgeView({ status: 'adjourned' }), 'red', 3000), 50000);
  const noClock = bridgeView({ players: { blue: { name: 'a', clock_ms: null }, red: { name: 'b', clock_ms: null } } });
  assert.equal(clockNow(noClock, 'red', 3000), null);
});
