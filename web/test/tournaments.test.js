/* The Tournaments tab's model (js/tournaments-model.js) driven by the frames a real
 * server sent (tournaments-frames.json, tools/capture_tournament_frames.py): a Swiss of
 * three over two rounds and a one-minute arena, each watched by a subscriber from its
 * first page to its final table. */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  applyChange, applyChanges, closed, emptyTournaments, fromList, fromPage, gameOf, joinable, leavable, markMine,
  pairingState, takesPart, tiebreakCount, topicOf, tournamentOf,
} from '../js/tournaments-model.js';
import { deepFreeze } from './helpers.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const RECORDED = deepFreeze(JSON.parse(readFileSync(join(HERE, 'tournaments-frames.json'), 'utf8')));
const SWISS = RECORDED;
const ARENA = RECORDED.arena;

/** The pushed frames applied in order to the page `first`: the model, and each frame's `ask`. */
function follow(first, pushed) {
  let model = fromPage(deepFreeze(emptyTournaments()), first);
  const asks = [];
  for (const frame of pushed) {
    const applied = applyChanges(deepFreeze(model), frame);
    model = applied.model;
    asks.push(applied.ask);
  }
  return { model, asks };
}

// Catches: an arena's pairings or results lost between pushes (a paired game listed
// twice, a result put on the wrong game, the newest game not first), or the page asked
// for again after each change (the pushes are there so that it is not).
test('an arena followed from its first page by its changes alone ends as the server\'s final page', () => {
  const { model, asks } = follow(ARENA.first, ARENA.pushed);
  const last = ARENA.last;
  assert.deepEqual(model.page.pairings, last.pairings);
  assert.deepEqual(model.page.standings, last.standings);
  assert.equal(model.page.tournament.status, 'finished');
  // Asked again only where the page words what no change does: its start and its end.
  const kinds = ARENA.pushed.map((f) => f.changes.map((c) => c.kind));
  asks.forEach((ask, k) => assert.equal(ask, kinds[k].includes('started') || kinds[k].includes('finished'), String(kinds[k])));
});

// Catches: a Swiss shown with no pairings for its rounds (the server pushes a round's
// pairing in the page, not as changes) because nothing asked for the page again.
test('a Swiss asks for its page afresh when it starts, when a round is played out and when it finishes', () => {
  const { model, asks } = follow(SWISS.first, SWISS.pushed);
  const kinds = SWISS.pushed.map((f) => f.changes.map((c) => c.kind).join(','));
  assert.deepEqual(kinds, ['started', 'standings', 'result', 'result,finished', 'standings']);
  assert.deepEqual(asks, [true, false, true, true, false]);
  assert.equal(model.page.tournament.status, 'finished');
  assert.deepEqual(model.page.standings, SWISS.last.standings); // the final table, pushed
  const answered = fromPage(deepFreeze(model), SWISS.last);
  assert.deepEqual(answered.page.pairings, SWISS.last.pairings);
  assert.equal(answered.page.tournament.round, 2);
});

test('a round\'s last result asks for the next round; an earlier one does not', () => {
  const page = deepFreeze({
    tournament: { id: 't-1', kind: 'swiss', status: 'running', round: 1, rounds: 3 },
    standings: [], next: null, firstNext: null,
    pairings: [{ game: 'g-1', blue: 'a', red: 'b', round: 1 }, { game: 'g-2', blue: 'c', red: 'd', round: 1 },
      { round: 1, bye: 'e' }],
  });
  const one = applyChange(page, { kind: 'result', game: 'g-1', winner: 'blue' });
  assert.equal(one.ask, false);
  assert.equal(one.page.pairings[0].winner, 'blue');
  const two = applyChange(one.page, { kind: 'result', game: 'g-2', winner: null });
  assert.equal(two.ask, true);
  assert.equal(two.page.pairings[1].winner, null);
  assert.equal(pairingState(two.page.pairings[1]), 'draw');
  assert.equal(pairingState(two.page.pairings[2]), 'bye');
  assert.equal(pairingState(page.pairings[0]), 'playing');
  // A paired game of a round the page does not show: which round it is, the page says.
  assert.equal(applyChange(two.page, { kind: 'paired', game: 'g-9', blue: 'a', red: 'c' }).ask, true);
});

// Catches: an arena's table that never lists a player who joined after it was shown (a
// join pushes nothing; their pairing is the first the page hears of them).
test('an arena\'s pairing of a player the whole table does not list asks for the page', () => {
  const page = deepFreeze({
    tournament: { id: 't-1', kind: 'arena', status: 'running' },
    standings: [{ rank: 1, player: 'ana', score: 0, games: 0 }], next: null, firstNext: null, pairings: [],
  });
  const paired = applyChange(page, { kind: 'paired', game: 'g-1', blue: 'ana', red: 'bob' });
  assert.equal(paired.ask, true);
  assert.deepEqual(paired.page.pairings, [{ game: 'g-1', blue: 'ana', red: 'bob' }]);
  const both = { ...page, standings: [...page.standings, { rank: 2, player: 'bob', score: 0, games: 0 }] };
  assert.equal(applyChange(both, { kind: 'paired', game: 'g-2', blue: 'bob', red: 'ana' }).ask, false);
  // A table of many pages: a player not on its first is no news.
  assert.equal(applyChange({ ...page, next: '50.x' }, { kind: 'paired', game: 'g-3', blue: 'ana', red: 'cy' }).ask, false);
});

test('another topic\'s changes, and a change of an unknown kind, leave the model as it was', () => {
  const model = deepFreeze(fromPage(emptyTournaments(), ARENA.first));
  const lobby = applyChanges(model, { type: 'changes', topic: 'lobby', changes: [{ kind: 'started' }] });
  assert.equal(lobby.model, model);
  const other = applyChanges(model, { type: 'changes', topic: topicOf('t-other'), changes: [{ kind: 'finished' }] });
  assert.equal(other.model, model);
  const unknown = applyChanges(model, { type: 'changes', topic: topicOf(ARENA.tournament), changes: [{ kind: 'trophy' }] });
  assert.equal(unknown.model, model);
  assert.equal(unknown.ask, false);
  // Closed, the topic's late changes are kept nowhere.
  const gone = closed(model);
  assert.equal(gone.page, null);
  assert.equal(applyChanges(gone, ARENA.pushed[0]).model, gone);
});

// Catches: a tournament listed under Upcoming after it started (and under Running after
// it finished) while the tab shows both lists.
test('the lists follow the tournament shown from upcoming to running to finished', () => {
  let model = fromList(deepFreeze(emptyTournaments()), 'upcoming', SWISS.upcoming);
  model = fromList(model, 'running', { type: 'tournaments', tournaments: [], next: null });
  model = fromList(model, 'finished', { type: 'tournaments', tournaments: [], next: null });
  assert.deepEqual(model.lists.upcoming.items.map((t) => t.id), [SWISS.tournament]);
  assert.equal(model.names[SWISS.tournament], 'Friday Swiss');
  model = fromPage(model, SWISS.first);
  ({ model } = applyChanges(deepFreeze(model), SWISS.pushed[0])); // started
  assert.deepEqual(model.lists.upcoming.items, []);
  assert.deepEqual(model.lists.running.items.map((t) => t.status), ['running']);
  model = fromPage(model, SWISS.last);
  assert.deepEqual(model.lists.running.items, []);
  assert.deepEqual(model.lists.finished.items, SWISS.finished.tournaments);
});

test('a further page of a list or of the standings is added below; a pushed first page drops the rest', () => {
  const t = (id, starts) => ({ id, name: id, kind: 'arena', room: 'blitz', rated: false, status: 'finished', starts_ms: starts, players: 2 });
  let model = fromList(emptyTournaments(), 'finished', { type: 'tournaments', tournaments: [t('t-1', 1), t('t-2', 2)], next: 'c1' });
  model = fromList(deepFreeze(model), 'finished', { type: 'tournaments', tournaments: [t('t-2', 2), t('t-3', 3)], next: null }, true);
  assert.deepEqual(model.lists.finished.items.map((x) => x.id), ['t-1', 't-2', 't-3']);
  assert.equal(model.lists.finished.next, null);
  const row = (rank, player) => ({ rank, player, score: 10 - rank, games: 3 });
  const tour = { ...t('t-9', 9), status: 'running', kind: 'swiss', rounds: 5, round: 2 };
  model = fromPage(model, { type: 'tournament', tournament: tour, standings: [row(1, 'a'), row(2, 'b')], pairings: [], next: '2.x' });
  model = fromPage(deepFreeze(model), { type: 'tournament', tournament: tour, standings: [row(3, 'c')], pairings: [], next: null }, true);
  assert.deepEqual(model.page.standings.map((r) => r.player), ['a', 'b', 'c']);
  assert.equal(model.page.next, null);
  ({ model } = applyChanges(model, { type: 'changes', topic: topicOf('t-9'), changes: [{ kind: 'standings', standings: [row(1, 'b'), row(2, 'a')] }] }));
  assert.deepEqual(model.page.standings.map((r) => r.player), ['b', 'a']);
  assert.equal(model.page.next, '2.x'); // the rest asked again from the first page's cursor
});

// Catches: Join offered to a player already in (or Leave to one who is not) after a reload.
test('who takes part: what the player did here, else whether the standings list them', () => {
  let model = fromPage(emptyTournaments(), SWISS.first);
  assert.equal(takesPart(model, SWISS.tournament, 'ana'), true);
  assert.equal(takesPart(model, SWISS.tournament, 'zoe'), false);
  assert.equal(takesPart(model, 't-elsewhere', 'ana'), false);
  model = markMine(deepFreeze(model), SWISS.tournament, false);
  assert.equal(takesPart(model, SWISS.tournament, 'ana'), false);
  model = markMine(deepFreeze(model), 't-elsewhere', true);
  assert.equal(takesPart(model, 't-elsewhere', 'zoe'), true);
});

test('joining is for an upcoming tournament or a running arena; leaving until it finishes', () => {
  assert.equal(joinable({ status: 'upcoming', kind: 'swiss' }), true);
  assert.equal(joinable({ status: 'running', kind: 'arena' }), true);
  assert.equal(joinable({ status: 'running', kind: 'swiss' }), false);
  assert.equal(joinable({ status: 'running', kind: 'round_robin' }), false);
  assert.equal(joinable({ status: 'finished', kind: 'arena' }), false);
  assert.equal(leavable({ status: 'running', kind: 'swiss' }), true);
  assert.equal(leavable({ status: 'finished', kind: 'swiss' }), false);
});

test('a tournament game\'s view names its tournament; the player\'s game in the pairings is found', () => {
  for (const state of SWISS.states) assert.equal(tournamentOf(state.view), SWISS.tournament);
  assert.equal(tournamentOf({ status: 'playing' }), null);
  assert.equal(tournamentOf(null), null);
  const { model } = follow(ARENA.first, ARENA.pushed.slice(0, 1));
  assert.equal(gameOf(model.page, 'bob'), ARENA.pushed[0].changes[1].game);
  assert.equal(gameOf(model.page, 'zoe'), null);
  assert.equal(gameOf(follow(ARENA.first, ARENA.pushed).model.page, 'bob'), null); // all played
});

test('tie-break columns: as many as the rows carry', () => {
  assert.equal(tiebreakCount(SWISS.last.standings), 2);
  assert.equal(tiebreakCount(ARENA.last.standings), 1);
  assert.equal(tiebreakCount(SWISS.first.standings), 0);
  assert.equal(tiebreakCount([]), 0);
});

test('the tournaments model uses no browser globals (it runs in node as in the page)', () => {
  const source = readFileSync(join(HERE, '..', 'js', 'tournaments-model.js'), 'utf8')
    .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  for (const word of ['document', 'window', 'WebSocket', 'setTimeout', 'setInterval', 'Date.now', 'sessionStorage']) {
    assert.ok(!new RegExp(`\\b${word.replace('.', '\\.')}\\b`).test(source), word);
  }
});
