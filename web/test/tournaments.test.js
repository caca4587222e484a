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

// Catches: a Swiss whose rounds are shown only once the page is asked again (each pairing
// and bye is pushed with its round), or the page asked for again after each round.
test('a Swiss followed by its changes shows each round as pushed; the page is asked at its start and end only', () => {
  const { model, asks } = follow(SWISS.first, SWISS.pushed);
  const kinds = SWISS.pushed.map((f) => f.changes.map((c) => c.kind).join(','));
  assert.deepEqual(kinds, ['started,paired,bye', 'standings,players', 'result,paired,bye', 'result,finished', 'standings']);
  assert.deepEqual(asks, [true, false, false, true, false]);
  assert.equal(model.page.tournament.status, 'finished');
  assert.equal(model.page.tournament.round, 2); // the second round, from its pushed pairings
  assert.deepEqual(model.page.pairings, SWISS.last.pairings); // before the page is asked
  assert.deepEqual(model.page.standings, SWISS.last.standings); // the final table, pushed
  assert.equal(model.page.tournament.players, SWISS.last.tournament.players);
  const answered = fromPage(deepFreeze(model), SWISS.last);
  assert.deepEqual(answered.page.pairings, SWISS.last.pairings);
  assert.deepEqual(answered.page.you, { joined: false, left: false }); // cy watches
});

// Catches: a Swiss shown with the last round's pairings after the next was paired (the
// server pushes each pairing and bye with its round), or the page asked for again when
// the pushes say it all.
test('a Swiss\'s pairings and byes come with their round: the next round replaces the last', () => {
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
  assert.equal(two.ask, false); // the next round comes pushed
  assert.equal(pairingState(two.page.pairings[1]), 'draw');
  assert.equal(pairingState(two.page.pairings[2]), 'bye');
  assert.equal(pairingState(page.pairings[0]), 'playing');
  const next = applyChange(two.page, { kind: 'paired', game: 'g-9', blue: 'a', red: 'c', round: 2 });
  assert.equal(next.ask, false);
  assert.equal(next.page.tournament.round, 2);
  assert.deepEqual(next.page.pairings, [{ game: 'g-9', blue: 'a', red: 'c', round: 2 }]);
  const bye = applyChange(next.page, { kind: 'bye', round: 2, player: 'd' });
  assert.deepEqual(bye.page.pairings[1], { round: 2, bye: 'd' });
  assert.equal(applyChange(bye.page, { kind: 'bye', round: 2, player: 'd' }).page, bye.page); // once
  assert.equal(applyChange(bye.page, { kind: 'paired', game: 'g-0', blue: 'x', red: 'y', round: 1 }).page, bye.page);
  // A server that does not say the round: which round it is, the page says.
  assert.equal(applyChange(two.page, { kind: 'paired', game: 'g-8', blue: 'a', red: 'c' }).ask, true);
});

// Catches: an arena's newest game not shown first, the count of players left as the page
// had it after a join or a leave (pushed as `players`), a cancelled tournament not said so.
test('an arena\'s pairing goes on top; the count of players and a cancellation come pushed', () => {
  const page = deepFreeze({
    tournament: { id: 't-1', kind: 'arena', status: 'running', players: 1 },
    standings: [{ rank: 1, player: 'ana', score: 0, games: 0 }], next: null, firstNext: null, pairings: [],
  });
  const paired = applyChange(page, { kind: 'paired', game: 'g-1', blue: 'ana', red: 'bob' });
  assert.equal(paired.ask, false);
  assert.deepEqual(paired.page.pairings, [{ game: 'g-1', blue: 'ana', red: 'bob' }]);
  const more = applyChange(paired.page, { kind: 'paired', game: 'g-2', blue: 'bob', red: 'ana' });
  assert.deepEqual(more.page.pairings.map((p) => p.game), ['g-2', 'g-1']);
  const counted = applyChange(page, { kind: 'players', players: 2 });
  assert.equal(counted.page.tournament.players, 2);
  assert.equal(counted.ask, false);
  const swiss = { ...page, tournament: { ...page.tournament, kind: 'swiss', status: 'upcoming' } };
  const cancelled = applyChange(swiss, { kind: 'finished', cancelled: 'too_few_players' });
  assert.equal(cancelled.page.tournament.status, 'finished');
  assert.equal(cancelled.page.tournament.cancelled, 'too_few_players');
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
test('who takes part: what the player did here, else what the page says', () => {
  const you = (joined, left) => ({ ...SWISS.first, you: { joined, left } });
  assert.equal(takesPart(fromPage(emptyTournaments(), you(true, false)), SWISS.tournament, 'zoe'), true);
  assert.equal(takesPart(fromPage(emptyTournaments(), you(true, true)), SWISS.tournament, 'ana'), false);
  assert.equal(takesPart(fromPage(emptyTournaments(), you(false, false)), SWISS.tournament, 'ana'), false);
  // A server before `you`: the standings, a withdrawn row not counted.
  const older = { ...SWISS.first, you: undefined, standings: [{ rank: 1, player: 'ana', score: 0, games: 0 },
    { rank: 2, player: 'bob', score: 0, games: 0, withdrawn: true }] };
  let model = fromPage(emptyTournaments(), older);
  assert.equal(takesPart(model, SWISS.tournament, 'bob'), false);
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
