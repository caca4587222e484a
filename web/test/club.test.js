/* The lobby kept from pushed frames (js/club-model.js): the page a subscription answers
 * with, then `changes` applied in order. The frames are as PROTOCOL.md "Additions 3"
 * words them (a server's recorded ones where they differ would fail here first). */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  addChallenge, addSent, applyChanges, dropChallenge, emptyClub, fromPage, gameToOpen, gamesInPlay, lobbyShown,
  waitingIn,
} from '../js/club-model.js';
import { deepFreeze } from './helpers.js';

// Frames a real server sent (tools/capture_club_frames.py): a first page, the changes
// pushed while a proposal was made and accepted and a seek made and cancelled, and the
// page a second subscription got afterwards; a challenge and its decline; the pages that
// list a challenge made before its player subscribed, to them and to its maker.
const RECORDED = deepFreeze(JSON.parse(readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), 'club-frames.json'), 'utf8')));

const proposal = (id, by = 'ana', room = 'bridge') => ({
  id, room, by, variant: 'bridge', blocks: 'regular', clues: 30, rated: true, colour: 'random', highlighting: true,
});
const live = (game, blue = 'ana', red = 'bob') => ({ game, room: 'bridge', variant: 'bridge', players: { blue, red }, v: 3, watchers: 0 });

const PAGE = deepFreeze({
  type: 'lobby', id: 'w1-1',
  proposals: [proposal('p-1'), proposal('p-2', 'bob', 'blitz')],
  seeks: { bridge: 1, blitz: 0 },
  live: [live('g-1')],
  online: 7,
});

test('the subscription\'s page is the lobby as it is now', () => {
  const club = fromPage(deepFreeze(emptyClub()), PAGE);
  assert.deepEqual(club.proposals.map((p) => p.id), ['p-1', 'p-2']);
  assert.deepEqual(club.seeks, { bridge: 1, blitz: 0 });
  assert.deepEqual(club.live.map((g) => g.game), ['g-1']);
  assert.equal(club.online, 7);
  assert.equal(waitingIn(club, 'bridge'), 1);
  assert.equal(waitingIn(club, 'domains'), 0);
});

// Catches: a reconnect's fresh page merged into the stale lists (a proposal withdrawn
// while the connection was down would stay shown for good).
test('a page afresh replaces the lists, but keeps the challenges pushed to the player', () => {
  let club = fromPage(emptyClub(), PAGE);
  club = addChallenge(club, { ...proposal('p-9', 'cy'), to: 'ana' });
  club = fromPage(deepFreeze(club), { type: 'lobby', proposals: [proposal('p-3')], seeks: {}, live: [], online: 2 });
  assert.deepEqual(club.proposals.map((p) => p.id), ['p-3']);
  assert.deepEqual(club.live, []);
  assert.deepEqual(club.challenges.map((p) => p.id), ['p-9']);
});

test('each kind of change, applied in the frame\'s order, without touching the old model', () => {
  const before = deepFreeze(fromPage(emptyClub(), PAGE));
  const after = applyChanges(before, deepFreeze({
    type: 'changes', topic: 'lobby', changes: [
      { kind: 'proposal_added', proposal: proposal('p-3', 'cy') },
      { kind: 'proposal_removed', proposal: 'p-1', why: 'accepted' },
      { kind: 'live_added', game: live('g-2', 'cy', 'dee') },
      { kind: 'live_removed', game: 'g-1' },
      { kind: 'seeks', room: 'blitz', waiting: 2 },
      { kind: 'online', players: 9 },
    ],
  }));
  assert.deepEqual(after.proposals.map((p) => p.id), ['p-2', 'p-3']);
  assert.deepEqual(after.live.map((g) => g.game), ['g-2']);
  assert.deepEqual(after.seeks, { bridge: 1, blitz: 2 });
  assert.equal(after.online, 9);
  assert.deepEqual(before.proposals.map((p) => p.id), ['p-1', 'p-2']); // the old model as it was
});

// Catches: a proposal shown twice when its `proposal_added` arrives after a page that
// already held it (a change within the 2 s a server may take, and a subscribe between).
test('a proposal or live game added twice is listed once; removing an unknown one is harmless', () => {
  let club = fromPage(emptyClub(), PAGE);
  club = applyChanges(club, { type: 'changes', topic: 'lobby', changes: [
    { kind: 'proposal_added', proposal: proposal('p-1') },
    { kind: 'live_added', game: live('g-1') },
    { kind: 'proposal_removed', proposal: 'p-404', why: 'lapsed' },
    { kind: 'live_removed', game: 'g-404' },
  ] });
  assert.deepEqual(club.proposals.map((p) => p.id), ['p-2', 'p-1']);
  assert.deepEqual(club.live.map((g) => g.game), ['g-1']);
});

// Catches: a proposal pushed off the subscriber's page by a newcomer (`why` "paged": still
// open, only off this page) kept on the list, where no later change would ever reach it,
// or the one sliding in with it not listed.
test('a page-scoped frame: one off the page and one slid in keep the page its size', () => {
  let club = fromPage(emptyClub(), PAGE);
  club = applyChanges(club, { type: 'changes', topic: 'lobby', changes: [
    { kind: 'proposal_removed', proposal: 'p-1', why: 'accepted' },
    { kind: 'proposal_added', proposal: proposal('p-7', 'cy') },
    { kind: 'proposal_removed', proposal: 'p-2', why: 'paged' },
    { kind: 'proposal_added', proposal: proposal('p-8', 'dee') },
  ] });
  assert.deepEqual(club.proposals.map((p) => p.id), ['p-7', 'p-8']);
});

// Catches: the player's own proposal, listed by the page though off the circle's part of
// the list, kept on their list after the server pushed its end (lapsed after the hour, or
// accepted by another player while this device looked at the lobby).
test("a player's own proposal leaves their list when its lapse or acceptance is pushed", () => {
  let club = fromPage(emptyClub(), { ...PAGE, proposals: [...PAGE.proposals, proposal('p-9'), proposal('p-10')] });
  club = applyChanges(club, { type: 'changes', topic: 'lobby', changes: [
    { kind: 'proposal_removed', proposal: 'p-9', why: 'lapsed' },
  ] });
  assert.deepEqual(club.proposals.map((p) => p.id), ['p-1', 'p-2', 'p-10']);
  club = applyChanges(club, { type: 'changes', topic: 'lobby', changes: [
    { kind: 'proposal_removed', proposal: 'p-10', why: 'accepted' },
  ] });
  assert.deepEqual(club.proposals.map((p) => p.id), ['p-1', 'p-2']);
});

// Catches: a change of a kind added later (or another topic's frame) throwing, or
// wiping the lists, in a client that does not know it.
test('unknown kinds, malformed changes and other topics change nothing', () => {
  const club = deepFreeze(fromPage(emptyClub(), PAGE));
  assert.equal(applyChanges(club, { type: 'changes', topic: 'tournament:t-1', changes: [{ kind: 'started' }] }), club);
  const same = applyChanges(club, { type: 'changes', topic: 'lobby', changes: [
    { kind: 'mystery' }, null, { kind: 'seeks', room: 'bridge' }, { kind: 'online', players: 'many' },
    { kind: 'proposal_added', proposal: { by: 'x' } }, { kind: 'live_added', game: {} },
  ] });
  assert.deepEqual(same, club);
});

test('challenges: added once, dropped when answered', () => {
  let club = addChallenge(emptyClub(), { ...proposal('p-5', 'bob'), to: 'ana' });
  club = addChallenge(club, { ...proposal('p-5', 'bob'), to: 'ana' });
  assert.equal(club.challenges.length, 1);
  assert.deepEqual(dropChallenge(club, 'p-5').challenges, []);
});

// Catches: a challenge made while the player was away never shown (it is pushed once,
// when made), or one that ended meanwhile (declined on another page, withdrawn, lapsed)
// kept for good; and a page from a server before the lists wiping what was pushed.
test('the page lists the challenges to the player and those they sent, in place of those kept', () => {
  let club = addChallenge(emptyClub(), { ...proposal('p-gone', 'cy'), to: 'ana' });
  club = addSent(club, { ...proposal('p-mine', 'ana'), to: 'dee' });
  club = fromPage(deepFreeze(club), {
    ...PAGE,
    challenges: [{ ...proposal('p-7', 'bob'), to: 'ana' }, { id: 7 }, proposal('p-open')],
    challenged: [{ ...proposal('p-8', 'ana'), to: 'cy' }],
  });
  assert.deepEqual(club.challenges.map((p) => p.id), ['p-7']); // an open proposal is no challenge
  assert.deepEqual(club.sent.map((p) => p.id), ['p-8']);
  const older = fromPage(deepFreeze(club), PAGE); // a server that lists none: kept
  assert.deepEqual(older.challenges.map((p) => p.id), ['p-7']);
  assert.deepEqual(older.sent.map((p) => p.id), ['p-8']);
  const ended = dropChallenge(dropChallenge(deepFreeze(club), 'p-7'), 'p-8');
  assert.deepEqual([ended.challenges, ended.sent], [[], []]);
  assert.deepEqual(addSent(deepFreeze(ended), proposal('p-open')), ended); // not a challenge
});

const row = (game, fields) => ({ game, status: 'playing', room: 'bridge', variant: 'bridge', opponent: 'bob', ...fields });

// Catches: a player signing in on a second device being shown their most recent game
// while another one's clock runs down at their move.
test('the game to open is the one at the player\'s move with the nearest deadline', () => {
  const rows = [
    row('g-new', { you: 'blue', turn: 'red', deadline_ms: 900, updated_ms: 50 }),
    row('g-late', { you: 'red', turn: 'red', deadline_ms: 5000, updated_ms: 40 }),
    row('g-soon', { you: 'blue', turn: 'blue', deadline_ms: 2000, updated_ms: 10 }),
    row('g-done', { status: 'finished', you: 'blue', updated_ms: 99 }),
  ];
  assert.equal(gameToOpen(rows, new Map()), 'g-soon');
  assert.deepEqual(gamesInPlay(rows, new Map()).map((g) => [g.game, g.mine]),
    [['g-soon', true], ['g-late', true], ['g-new', false]]);
});

test('with no game at the player\'s move, the most recent in play; with none in play, none', () => {
  const rows = [
    row('g-old', { you: 'blue', turn: 'red', updated_ms: 10 }),
    row('g-recent', { you: 'red', turn: 'blue', updated_ms: 30 }),
  ];
  assert.equal(gameToOpen(rows, new Map()), 'g-recent');
  assert.equal(gameToOpen([row('g-x', { status: 'finished', you: 'blue' })], new Map()), null);
  assert.equal(gameToOpen([], new Map()), null);
});

// Catches: the header saying "your move" in a game whose move the page has since seen
// pass to the opponent (the `games` row is from sign-in; the view is newer).
test('a game\'s view the page holds is newer than its row: the turn, and a game over', () => {
  const rows = [row('g-1', { you: 'blue', turn: 'blue', deadline_ms: 10 }), row('g-2', { you: 'red', turn: 'red' })];
  const views = new Map([
    ['g-1', { you: 'blue', turn: 'red', status: 'playing', deadline_ms: 99, room: 'bridge', variant: 'bridge',
      players: { blue: { name: 'ana' }, red: { name: 'bob' } } }],
    ['g-2', { you: 'red', turn: 'red', status: 'finished' }],
    ['g-watched', { turn: 'red', status: 'playing' }], // a spectator's view: not the player's game
  ]);
  const games = gamesInPlay(rows, views);
  assert.deepEqual(games.map((g) => [g.game, g.mine, g.opponent]), [['g-1', false, 'bob']]);
});

// Catches a client whose reading of the pushed frames differs from what the server
// sends (a field named otherwise, a change kind missed): the first page with every
// recorded change applied is the page the server gave a later subscriber.
test('recorded: the first page with the pushed changes applied is the later page', () => {
  const club = RECORDED.changes.reduce(applyChanges, fromPage(emptyClub(), RECORDED.first));
  const later = fromPage(emptyClub(), RECORDED.last);
  const kinds = RECORDED.changes.flatMap((frame) => frame.changes.map((c) => c.kind));
  for (const kind of ['proposal_added', 'proposal_removed', 'seeks', 'live_added']) assert.ok(kinds.includes(kind), kind);
  assert.deepEqual(club.proposals, later.proposals);
  assert.deepEqual(club.live, later.live);
  assert.deepEqual(club.seeks, later.seeks);
  assert.equal(club.online, later.online);
});

test('recorded: a pushed challenge is kept, and its decline names it', () => {
  const club = addChallenge(emptyClub(), RECORDED.challenge.proposal);
  assert.deepEqual(club.challenges.map((p) => p.to), ['bob']);
  assert.deepEqual(dropChallenge(club, RECORDED.declined.proposal).challenges, []);
});

test('recorded: a challenge made before its player subscribed is listed in their page, and in its maker\'s', () => {
  const bob = fromPage(emptyClub(), RECORDED.to_bob);
  assert.deepEqual(bob.challenges.map((p) => [p.by, p.to]), [['ana', 'bob']]);
  assert.deepEqual(bob.sent, []);
  const ana = fromPage(emptyClub(), RECORDED.by_ana);
  assert.deepEqual(ana.sent.map((p) => p.id), bob.challenges.map((p) => p.id));
  assert.deepEqual(ana.challenges, []);
  assert.deepEqual(fromPage(emptyClub(), RECORDED.last).challenges, []); // nobody else's
});

test('the lobby is shown with no game, or beside a game over; a game in play takes the screen', () => {
  assert.equal(lobbyShown(null), true);
  assert.equal(lobbyShown({ status: 'finished' }), true);
  assert.equal(lobbyShown({ status: 'adjourned' }), true);
  assert.equal(lobbyShown({ status: 'playing' }), false);
});

test('the club model uses no browser globals (it runs in node as in the page)', () => {
  const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'js', 'club-model.js'), 'utf8')
    .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  for (const word of ['document', 'window', 'WebSocket', 'setTimeout', 'setInterval', 'Date.now', 'sessionStorage']) {
    assert.ok(!new RegExp(`\\b${word.replace('.', '\\.')}\\b`).test(source), word);
  }
});
