/* The race (js/race.js): each side's fewest cells still to claim in Bridge and Blitz,
 * the same numbers as the bot's count (numbridge/bot/hex_distance.py) on the same
 * positions (fixtures/race/positions.json, written by tools/race_fixture.py and kept
 * current by tests/unit/test_race_fixture.py), and a chain that really is one. */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { cellOf, indexOf, neighbours } from '../js/geometry.js';
import { applyEvents, applyState } from '../js/reducer.js';
import { cellsToClaim, distance, distances, edges, hasRace, shortestChain } from '../js/race.js';
import { fixtures, isEvent, isState, seeded } from './helpers.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const GOLDEN = JSON.parse(readFileSync(join(HERE, 'fixtures', 'race', 'positions.json'), 'utf8')).positions;
const SEATS = ['blue', 'red'];
const MARK = { blue: 'b', red: 'r' };

const boardOf = (size, owners, variant = size === 6 ? 'blitz' : 'bridge') => ({ variant, size, owners });

function randomOwners(random, size, density) {
  let owners = '';
  for (let i = 0; i < size * size; i++) owners += random() < density ? (random() < 0.5 ? 'b' : 'r') : '.';
  return owners;
}

/** What makes a chain a chain: from the side's first edge to its second, neighbour to
 * neighbour, never through the opponent, its free cells as many as the count. */
function assertChain(view, seat, chain, where) {
  const n = view.size;
  const [first, second] = edges(seat, n);
  assert.ok(first.includes(chain[0]), `${where}: starts on ${seat}'s first edge`);
  assert.ok(second.includes(chain[chain.length - 1]), `${where}: ends on ${seat}'s second edge`);
  for (let k = 1; k < chain.length; k++) {
    const [r, c] = cellOf(chain[k - 1], n);
    const next = neighbours(r, c, n).map(([a, b]) => indexOf(a, b, n));
    assert.ok(next.includes(chain[k]), `${where}: ${chain[k - 1]} and ${chain[k]} are neighbours`);
  }
  assert.equal(new Set(chain).size, chain.length, `${where}: no cell twice`);
  for (const i of chain) assert.ok(['.', MARK[seat]].includes(view.owners[i]), `${where}: through the opponent at ${i}`);
  assert.equal(cellsToClaim(view, chain).length, distance(view, seat), `${where}: free cells on the chain`);
}

test('the client counts as the bot does, on every golden position', () => {
  // Catches: a count that differs from the bot's and the coach's (an edge mixed up, a
  // clue counted as owned or as a wall, the opponent's cell crossed).
  assert.ok(GOLDEN.length >= 50);
  for (const position of GOLDEN) {
    const view = boardOf(position.size, position.owners);
    const where = `${position.name} (${position.size}×${position.size})`;
    assert.deepEqual(distances(view), { blue: position.blue.distance, red: position.red.distance }, where);
    for (const seat of SEATS) {
      const chain = shortestChain(view, seat);
      if (position[seat].distance === null) {
        assert.deepEqual(chain, [], `${where}: ${seat} is cut off`);
        continue;
      }
      assertChain(view, seat, chain, `${where} ${seat}`);
      // The bot's on_path: every free cell on some cheapest chain; the one drawn is one of them.
      const onPath = new Set(position[seat].on_path);
      for (const i of cellsToClaim(view, chain)) assert.ok(onPath.has(i), `${where} ${seat}: ${i} is on no cheapest chain`);
    }
  }
});

test('an empty board: each side needs a whole row or column; a connected side needs nothing', () => {
  // Catches: the edges taken for the wrong side, or an own chain still costing cells.
  for (const n of [6, 9]) {
    assert.deepEqual(distances(boardOf(n, '.'.repeat(n * n))), { blue: n, red: n });
    const blue = Array.from({ length: n * n }, (_, i) => (cellOf(i, n)[1] === 0 ? 'b' : '.')).join('');
    assert.deepEqual(distances(boardOf(n, blue)), { blue: 0, red: null });
    assert.deepEqual(shortestChain(boardOf(n, blue), 'blue'), Array.from({ length: n }, (_, r) => indexOf(r, 0, n)));
    const red = Array.from({ length: n * n }, (_, i) => (cellOf(i, n)[0] === n - 1 ? 'r' : '.')).join('');
    assert.deepEqual(distances(boardOf(n, red)), { blue: null, red: 0 });
  }
});

test('the chain drawn is one of the straightest: no detour through free cells it does not need', () => {
  // Catches: a chain with as few free cells but wandering (drawn as a snake on an empty board).
  const view = boardOf(9, '.'.repeat(81));
  assert.equal(shortestChain(view, 'blue').length, 9);
  assert.equal(shortestChain(view, 'red').length, 9);
  // The same board always draws the same chain.
  assert.deepEqual(shortestChain(view, 'red'), shortestChain(boardOf(9, '.'.repeat(81)), 'red'));
});

test('a full board: exactly one side is connected (the Hex theorem), the other cut off', () => {
  // Catches: a count where both or neither side connects on a board where every cell is owned.
  const random = seeded(7);
  for (let k = 0; k < 200; k++) {
    const n = k % 2 ? 9 : 6;
    const { blue, red } = distances(boardOf(n, randomOwners(random, n, 1)));
    assert.ok((blue === 0 && red === null) || (red === 0 && blue === null), `board ${k}: ${blue} · ${red}`);
  }
});

test('claiming a cell never makes the claimer farther, nor the opponent nearer', () => {
  // Catches: a cost that rewards the opponent's cells or punishes one's own.
  const random = seeded(2026);
  for (let k = 0; k < 300; k++) {
    const n = k % 2 ? 9 : 6;
    const owners = randomOwners(random, n, random());
    const free = [...owners].flatMap((o, i) => (o === '.' ? [i] : []));
    if (!free.length) continue;
    const i = free[Math.floor(random() * free.length)];
    const before = distances(boardOf(n, owners));
    for (const seat of SEATS) {
      const after = distances(boardOf(n, owners.slice(0, i) + MARK[seat] + owners.slice(i + 1)));
      const them = seat === 'blue' ? 'red' : 'blue';
      const far = (d) => (d === null ? Infinity : d);
      assert.ok(far(after[seat]) <= far(before[seat]), `board ${k}: ${seat} farther after claiming ${i}`);
      assert.ok(far(after[seat]) >= far(before[seat]) - 1, `board ${k}: one cell saves at most one`);
      assert.ok(far(after[them]) >= far(before[them]), `board ${k}: ${them} nearer after ${seat} claimed ${i}`);
    }
  }
});

test('random positions: every chain is a chain and holds as many free cells as the count', () => {
  // Catches: a chain that skips a cell, crosses the opponent or ends off the edge.
  const random = seeded(99);
  for (let k = 0; k < 300; k++) {
    const n = k % 2 ? 9 : 6;
    const view = boardOf(n, randomOwners(random, n, random() * 0.9));
    for (const seat of SEATS) {
      const chain = shortestChain(view, seat);
      if (distance(view, seat) === null) assert.deepEqual(chain, []);
      else assertChain(view, seat, chain, `board ${k} ${seat}`);
    }
  }
});

test('recorded games: the side that connected has 0, and its winning path is its own', () => {
  // Catches: a count that misses a real winning chain (the server's own, at the game's end).
  let checked = 0;
  for (const game of fixtures()) {
    for (const frames of Object.values(game.players)) {
      let view = null;
      for (const frame of frames) {
        if (isState(frame)) view = applyState(view, frame);
        else if (isEvent(frame) && view && frame.game === view.game) view = applyEvents(view, [frame]);
        if (!view || !hasRace(view) || view.status !== 'finished' || view.result?.by !== 'goal') continue;
        const winner = view.result.winner;
        assert.equal(distance(view, winner), 0, `${game.name}: ${winner} connected`);
        assert.equal(distance(view, winner === 'blue' ? 'red' : 'blue') === 0, false);
        const chain = shortestChain(view, winner);
        assert.ok(chain.every((i) => view.owners[i] === MARK[winner]), `${game.name}: the chain is all ${winner}'s`);
        for (const [r, c] of view.result.path) assert.equal(view.owners[indexOf(r, c, view.size)], MARK[winner]);
        checked += 1;
        break;
      }
    }
  }
  assert.ok(checked >= 2, `only ${checked} games won by connecting`);
});

test('Domains has no race (its block table says how close each side is)', () => {
  // Catches: the count shown in a variant where nothing has to be connected.
  assert.equal(hasRace({ variant: 'domains', size: 9, owners: '.'.repeat(81) }), false);
  assert.equal(hasRace({ variant: 'bridge' }), true);
  assert.equal(hasRace({ variant: 'blitz' }), true);
  assert.equal(hasRace(null), false);
});

test('race.js and contradiction.js are pure: no browser globals, no clock, no randomness', () => {
  // Catches: the DOM or the clock creeping into the modules the Node tests run bare.
  for (const file of ['race.js', 'contradiction.js']) {
    const source = readFileSync(join(HERE, '..', 'js', file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const word of ['document', 'window', 'WebSocket', 'fetch', 'setTimeout', 'Date.now', 'Math.random', 'localStorage']) {
      assert.ok(!new RegExp(`\\b${word.replace('.', '\\.')}\\b`).test(source), `${file} uses ${word}`);
    }
  }
});
