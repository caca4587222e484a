/* The reducer against frames recorded from a real server (tools/capture_web_fixtures.py):
 * a view plus the events after it is the view the server gives later. */

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';

import { applyEvent, applyEvents, applyState, clockNow, KNOWN_EVENTS } from '../js/reducer.js';
import { admit, emptyQueue } from '../js/sequence.js';
import { deepFreeze, fixtures, isEvent, isState, seeded } from './helpers.js';

const GAMES = fixtures();

/** What two views of the same version must share: all but the moment each was made
 * (its time, and who was online then: presence has no `v`). */
function sameView(actual, expected, where) {
  const { now_ms: _a, players: pa, ...restA } = actual;
  const { now_ms: _b, players: pb, ...restB } = expected;
  assert.deepEqual(restA, restB, where);
  const late = [];
  for (const seat of ['blue', 'red']) {
    const { clock_ms: _ca, online: _oa, ...playerA } = pa[seat];
    const { clock_ms: _cb, online: _ob, ...playerB } = pb[seat];
    assert.deepEqual(playerA, playerB, `${where}: players.${seat}`);
    // The mover's clock runs between the two moments; the reducer's view projects it.
    const projected = clockNow(actual, seat, expected.now_ms);
    if (expected.status === 'finished' && projected !== pb[seat].clock_ms) {
      // `finished` carries no clocks: the last mover's thinking time is not in the events.
      assert.ok(projected > pb[seat].clock_ms, `${where}: ${seat}'s clock`);
      late.push(seat);
    } else {
      assert.equal(projected, pb[seat].clock_ms, `${where}: ${seat}'s clock`);
    }
  }
  assert.ok(late.length < 2, `${where}: both clocks differ`);
}

/**
 * Plays one player's stream: the first `state`, then every event in `v` order; each
 * `state` asked for later is compared when the events reach its version.
 * Returns how many views were compared and the last view.
 */
function replay(stream, where, reorder = (frames) => frames) {
  let view = null;
  let waiting = emptyQueue();
  const asked = [];
  let compared = 0;
  const compare = () => {
    for (const frame of asked.filter((f) => f.v === view.v)) {
      sameView(view, frame.view, `${where} at v${frame.v}`);
      compared += 1;
    }
  };
  const first = stream.find(isState);
  view = applyState(null, first);
  const events = reorder(stream.filter(isEvent));
  asked.push(...stream.filter((f) => isState(f) && f !== first));
  compare();
  for (const frame of events) {
    const admitted = admit(waiting, view.v, frame);
    waiting = admitted.waiting;
    for (const ready of admitted.ready) {
      view = applyEvent(view, ready);
      compare();
    }
  }
  assert.equal(waiting.size, 0, `${where}: events left waiting`);
  const last = Math.max(...asked.map((f) => f.v));
  assert.ok(view.v >= last, `${where}: the events stop at v${view.v}, before v${last}`);
  return { compared, view };
}

describe('recorded games: a state and its events make the later state', () => {
  for (const game of GAMES) {
    for (const [player, stream] of Object.entries(game.players)) {
      test(`${game.name}, as ${player}`, () => {
        const { compared, view } = replay(stream, `${game.name}/${player}`);
        assert.ok(compared >= 3, `only ${compared} views compared`);
        const kinds = new Set(stream.filter(isEvent).map((f) => f.type));
        for (const kind of kinds) assert.ok(KNOWN_EVENTS.has(kind), `unknown event ${kind}`);
        if (game.name !== 'timeouts') assert.equal(view.status, 'finished');
      });
    }
  }
});

test('the recordings hold every kind of event the server sends', () => {
  const kinds = new Set(GAMES.flatMap((g) => Object.values(g.players).flat()).filter(isEvent)
    .map((f) => f.type));
  for (const kind of ['placed', 'mistake', 'taken', 'exchanged', 'swapped', 'timeout', 'timeouts',
    'hand', 'turn', 'hidden', 'draw_offered', 'draw_declined', 'draw_lapsed', 'adjourn_offered',
    'adjourn_lapsed', 'adjourned', 'resume_requested', 'resumed', 'finished']) {
    assert.ok(kinds.has(kind), kind);
  }
});

test('from any recorded state, the events after it make every later state', () => {
  for (const game of GAMES) {
    for (const [player, stream] of Object.entries(game.players)) {
      const states = stream.filter(isState);
      const events = stream.filter(isEvent).sort((a, b) => a.v - b.v);
      for (const start of states) {
        let view = applyState(null, start);
        for (const later of states.filter((s) => s.v > start.v)) {
          view = applyEvents(view, events.filter((e) => e.v > view.v && e.v <= later.v));
          sameView(view, later.view, `${game.name}/${player} v${start.v}→v${later.v}`);
        }
      }
    }
  }
});

test('shuffled and repeated delivery (a reconnect) ends in the same view', () => {
  const random = seeded(12);
  for (const game of GAMES) {
    for (const [player, stream] of Object.entries(game.players)) {
      const inOrder = replay(stream, `${game.name}/${player}`).view;
      for (let round = 0; round < 5; round++) {
        const jumbled = (frames) => {
          const copies = [...frames, ...frames.filter(() => random() < 0.3)];
          // Shuffle within windows: live events overtaking a sync's answer, and repeats.
          for (let i = copies.length - 1; i > 0; i--) {
            const j = Math.max(0, i - Math.floor(random() * 6));
            [copies[i], copies[j]] = [copies[j], copies[i]];
          }
          return copies;
        };
        const { view } = replay(stream, `${game.name}/${player} shuffled`, jumbled);
        assert.deepEqual(view, inOrder);
      }
    }
  }
});

test('the reducer changes none of its arguments', () => {
  for (const game of GAMES) {
    const stream = game.players.ana;
    let view = deepFreeze(applyState(null, stream.find(isState)));
    for (const event of stream.filter(isEvent).sort((a, b) => a.v - b.v)) {
      view = deepFreeze(applyEvent(view, deepFreeze(event))); // a write to a frozen object throws
    }
  }
});
