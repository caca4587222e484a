/* A player's first minutes, the pure parts: cells counted from 1 as the rule pages count
 * them, the replay's side panel at the step shown (not at the end of the game), and a
 * watcher's earlier moves worded as the live ones are. Each failed before its fix. */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { cellText } from '../js/format.js';
import { logEntry } from '../js/journal.js';
import { applyEvent, applyState } from '../js/reducer.js';
import { askEarlier, earlierLog } from '../js/replay-earlier.js';
import {
  clocksAt, lastStep, moveText, nextMover, positionAt, replayLog, replayPanelView, tilesAt,
} from '../js/replay.js';
import { useLanguage } from './catalogs.js';
import { deepFreeze, fixtures, isEvent } from './helpers.js';

useLanguage('en');

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'records');
const RECORDS = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort().map((file) => ({
  name: file.replace(/\.json$/, ''),
  record: deepFreeze(JSON.parse(readFileSync(join(DIR, file), 'utf8'))),
}));

// A finished game's view as the page holds it (presence included): what the replay starts from.
const finishedView = (record) => deepFreeze({
  game: record.game, v: 99, variant: record.options.variant, size: record.size, status: 'finished',
  you: 'blue', turn: 'red', bag: 0, result: record.result, options: record.options,
  players: {
    blue: { name: record.players.blue, online: true, hand_size: 0, mistakes: record.mistakes.blue, clock_ms: record.clock_ms.blue },
    red: { name: record.players.red, online: false, hand_size: 0, mistakes: record.mistakes.red, clock_ms: record.clock_ms.red },
  },
  offers: { draw: null, adjourn: null, rematch: null },
});

test('a cell is written counted from 1, as the rule pages count rows and columns', () => {
  // Caught: cells written 0-based, "(0,0)" for the first row's first cell.
  assert.equal(cellText([0, 0]), '(1,1)');
  assert.equal(cellText([8, 4]), '(9,5)');
  const move = { seat: 'blue', action: 'place', cell: [0, 2], digit: 5, mistake: false, discarded: [] };
  assert.equal(moveText(move, { blue: 'ana' }), 'ana placed 5 at (1,3)');
  assert.equal(logEntry({ you: null, moves: 1, players: { blue: { name: 'ana' } } },
    { type: 'placed', v: 1, seat: 'blue', cell: [0, 2], digit: 5 }).text, '1. ana placed 5 at (1,3)');
});

for (const { name, record } of RECORDS) {
  test(`${name}: the replay's side panel follows the step shown, not the end of the game`, () => {
    // Caught: status, clocks, mistakes, bag and result of the game's end while the board
    // shows an early move; presence ("away") in a replay.
    const view = finishedView(record);
    const n = lastStep(record);
    const k = Math.min(3, n - 1);
    const panel = replayPanelView(record, k, view);
    const position = positionAt(record, k);
    assert.equal(panel.status, 'replay');
    assert.equal(panel.result, null);
    assert.equal(panel.turn, nextMover(record, k));
    assert.equal(panel.turn, record.moves.slice(k).find((m) => m.action !== 'adjourn' && m.action !== 'resume').seat);
    for (const seat of ['blue', 'red']) {
      assert.equal(panel.players[seat].mistakes, position.mistakes[seat]);
      assert.equal('online' in panel.players[seat], false, 'no presence in a replay');
      const spent = record.moves.slice(0, k).filter((m) => m.seat === seat).reduce((sum, m) => sum + (m.time_ms || 0), 0);
      assert.equal(panel.players[seat].clock_ms, record.options.game_ms - spent);
    }
    assert.notDeepEqual([panel.players.blue.mistakes, panel.players.red.mistakes, panel.bag],
      [view.players.blue.mistakes, view.players.red.mistakes, view.bag]);
    // At the deal: the whole clocks, three tiles each, the rest of the tiles in the bag.
    const deal = replayPanelView(record, 0, view);
    const empty = [...record.givens].filter((d) => d === '.').length;
    assert.deepEqual([deal.players.blue.clock_ms, deal.players.red.clock_ms], [record.options.game_ms, record.options.game_ms]);
    assert.deepEqual([deal.players.blue.hand_size, deal.players.red.hand_size, deal.bag], [3, 3, empty - 6]);
    // At the end: the game's own result and clocks.
    const end = replayPanelView(record, n, view);
    assert.equal(end.status, 'finished');
    assert.deepEqual(end.result, record.result);
    assert.deepEqual(clocksAt(record, n), record.clock_ms);
    assert.equal('online' in end.players.blue, false);
  });

  test(`${name}: the replay's Moves card lists every move up to the step shown`, () => {
    // Caught: the Moves card empty in a replay ("shown from move 21 on").
    const k = Math.min(5, lastStep(record));
    const lines = replayLog(record, k);
    assert.equal(lines.length, k);
    const kinds = { place: 'placed', take: 'taken', exchange: 'exchanged', swap: 'swapped' };
    lines.forEach((line, j) => {
      const entry = record.moves[j];
      if (kinds[entry.action]) assert.equal(line.kind, entry.mistake ? 'mistake' : kinds[entry.action]);
      const { review, ...move } = record.moves[j];
      assert.equal(line.text, `${j + 1}. ${moveText(move, record.players)}`);
    });
    // At the end, the result as the live card said it.
    const end = replayLog(record, lastStep(record), finishedView(record));
    assert.equal(end.length, record.moves.length + 1);
    assert.equal(end.at(-1).kind, 'finished');
    assert.equal(end.at(-1).text, logEntry(finishedView(record), { type: 'finished', v: 1, result: record.result }).text);
  });
}

/** A player's events as record entries (what `record` keeps of each turn). */
function entriesOf(events) {
  const entries = [];
  for (const ev of events) {
    const base = { seat: ev.seat, cell: ev.cell ?? null, digit: ev.digit ?? null, mistake: false, discarded: [] };
    if (ev.type === 'placed') entries.push({ ...base, action: 'place' });
    else if (ev.type === 'mistake') entries.push({ ...base, action: 'place', mistake: true });
    else if (ev.type === 'taken') entries.push({ ...base, action: 'take', discarded: Array(ev.paid || 0).fill(0) });
    else if (ev.type === 'exchanged') entries.push({ ...base, action: 'exchange' });
    else if (ev.type === 'swapped') entries.push({ ...base, action: 'swap' });
    else if (ev.type === 'timeout') entries.push({ ...base, action: 'timeout' });
    else if (ev.type === 'passed') entries.push({ ...base, action: 'pass' });
    else if (ev.type === 'timeouts') return null; // folded: the record's entries are not in the frames
  }
  return entries;
}

test("the tiles a replay shows at each step are the game's own (bag and hands, as each turn said)", () => {
  // Caught: the bag and the hands of the game's end shown at every step of a replay.
  let checked = 0;
  for (const game of fixtures()) {
    const frames = game.players.ana;
    const first = frames.find((f) => f.type === 'state' && f.v === 0);
    if (!first) continue;
    const events = [...new Map(frames.filter(isEvent).map((f) => [f.v, f])).values()].sort((a, b) => a.v - b.v);
    const givens = first.view.digits; // at the deal only the clues show
    for (const turn of events.filter((ev) => ev.type === 'turn' && ev.hand_sizes)) {
      const entries = entriesOf(events.filter((ev) => ev.v < turn.v));
      if (!entries) break;
      const record = { givens, size: first.view.size, moves: entries };
      const tiles = tilesAt(record, entries.length);
      assert.deepEqual([tiles.bag, tiles.hands], [turn.bag, turn.hand_sizes], `${game.name} v${turn.v}`);
      checked += 1;
    }
  }
  assert.ok(checked > 20, `only ${checked} turns checked`);
});

test("a watcher arriving mid-game sees the game's earlier moves, worded as the live ones", () => {
  // Caught: a watcher's Moves card starting at "(shown from move 3 on)".
  let checked = 0;
  for (const game of fixtures()) {
    const frames = game.players.cy;
    if (!frames) continue;
    const start = frames.find((f) => f.type === 'state');
    let view = applyState(null, start);
    const live = [];
    const events = [];
    for (const frame of frames) {
      if (!isEvent(frame) || frame.v <= view.v) continue;
      view = applyEvent(view, frame);
      events.push(frame);
      const line = logEntry(view, frame);
      if (line) live.push(line);
    }
    assert.ok(live.length > 5, game.name);
    assert.deepEqual(earlierLog(view, events).map((l) => l.text), live.map((l) => l.text), game.name);
    checked += 1;
  }
  assert.ok(checked >= 2);
});

test('a game opened mid-way asks for its earlier moves, in play or adjourned', () => {
  // Caught: an adjourned game opened mid-way (a player back after a reload) listed no
  // earlier moves: only games in play asked for them. A finished game has its record,
  // and a game at its deal has nothing earlier.
  const asks = (status, v = 7) => {
    const calls = [];
    const app = { request: (action, fields) => { calls.push([action, fields]); return calls.length; }, render() {} };
    const game = { id: `g-${status}-${v}`, view: { status, v }, log: [] };
    askEarlier(app, game, { isNew: true, state: { type: 'state', v } });
    return calls;
  };
  assert.deepEqual(asks('playing'), [['sync', { game: 'g-playing-7', v: 0 }]]);
  assert.deepEqual(asks('adjourned'), [['sync', { game: 'g-adjourned-7', v: 0 }]]);
  assert.deepEqual(asks('finished'), []);
  assert.deepEqual(asks('playing', 0), []);
});
