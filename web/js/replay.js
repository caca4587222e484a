/* A finished game's record, move by move: the position after the first k entries.
 * Pure: no DOM, no network, no timers, no clock.
 *
 * The record (the `record` answer, docs/protocol.md) holds the deal — `size`, `layout`
 * (block id per cell), `givens` (the clues' digits, `.` elsewhere), `solution` — the
 * final `digits` and `owners`, the `result`, and `moves[]`: every turn and club action
 * in order, `{seat, action, cell, digit, mistake, discarded, time_ms, at_ms}`. What an
 * entry does to the board:
 *   place      the digit stands and the cell is the mover's — unless `mistake`: then the
 *              cell stays empty and the mover's mistake count rises;
 *   take       the clue cell becomes the mover's (its digit was shown from the start);
 *   swap       the pie rule: blue's first cell becomes red's;
 *   anything else (exchange, timeout, pass, resign, draw, time, adjourn, resume): nothing
 *   on the board.
 * Once the coach has reviewed the game the record carries `review` (docs/coach.md):
 * each turn's entry rides along on its step's `move` (as `move.review`), and
 * `reviewSummary` words the players' summaries and the board's `grade`. */

import { blockSummary } from './geometry.js';
import { cellText, resultText, seatName } from './format.js';
import { t } from './i18n.js';

/** Record actions that are a turn (the others are club actions: resign, draw, ...). */
export const TURN_ACTIONS = new Set(['place', 'take', 'exchange', 'swap', 'timeout', 'pass']);

const setAt = (text, i, ch) => text.slice(0, i) + ch + text.slice(i + 1);

/** The record's entries (an absent or malformed list is none). */
export const movesOf = (record) => (record && Array.isArray(record.moves) ? record.moves : []);

/** How many steps the replay has: one per entry (position 0 is the deal). */
export const lastStep = (record) => movesOf(record).length;

/** Clamp a wished-for step into 0..lastStep. */
export function clampStep(record, k) {
  const n = lastStep(record);
  if (!Number.isFinite(k)) return n;
  return Math.max(0, Math.min(n, Math.trunc(k)));
}

/** The position at the deal: the givens on the board, nobody owning anything. */
export function startPosition(record) {
  const n = record.size;
  const givens = record.givens;
  return {
    step: 0,
    digits: givens,
    owners: '.'.repeat(n * n),
    clues: [...givens].map((d) => (d === '.' ? '0' : '1')).join(''),
    mistakes: { blue: 0, red: 0 },
    turns: 0,
    move: null,
  };
}

// Each record's review entries by move index, made once per record.
const reviewed = new WeakMap();

/** The coach's entry for the record's move `n` (its index in `moves`), or null. */
export function reviewEntry(record, n) {
  const moves = record && record.review && Array.isArray(record.review.moves) ? record.review.moves : null;
  if (!moves) return null;
  let byMove = reviewed.get(record);
  if (!byMove) {
    byMove = new Map(moves.map((entry) => [entry.n, entry]));
    reviewed.set(record, byMove);
  }
  return byMove.get(n) || null;
}

/** The position after entry `move` (a new object; `position` is left alone). */
export function applyMove(record, position, move) {
  const n = record.size;
  const review = reviewEntry(record, position.step);
  const next = {
    ...position, step: position.step + 1, mistakes: { ...position.mistakes },
    move: review ? { ...move, review } : move,
  };
  if (TURN_ACTIONS.has(move.action)) next.turns += 1;
  const cell = Array.isArray(move.cell) ? move.cell : null;
  const i = cell ? cell[0] * n + cell[1] : -1;
  const mark = move.seat === 'blue' ? 'b' : 'r';
  if (move.action === 'place' && cell) {
    if (move.mistake) {
      next.mistakes[move.seat] = (next.mistakes[move.seat] || 0) + 1;
    } else {
      next.digits = setAt(next.digits, i, String(move.digit));
      next.owners = setAt(next.owners, i, mark);
    }
  } else if ((move.action === 'take' || move.action === 'swap') && cell) {
    next.owners = setAt(next.owners, i, mark);
  }
  return next;
}

/** The position after the first `k` entries (clamped: past the end is the end). */
export function positionAt(record, k) {
  const moves = movesOf(record);
  const upTo = clampStep(record, k);
  let position = startPosition(record);
  for (let j = 0; j < upTo; j++) position = applyMove(record, position, moves[j]);
  return position;
}

/** Every position from the deal to the end (index k: after k entries). */
export function allPositions(record) {
  const positions = [startPosition(record)];
  for (const move of movesOf(record)) positions.push(applyMove(record, positions.at(-1), move));
  return positions;
}

/**
 * A board model's `view` for step `k` (board.js draws it like a live game's): the
 * position's digits and owners on the record's layout; the result (the winning chain,
 * the deciding blocks) only at the end, where the solution is shown too.
 */
export function replayView(record, k, position = positionAt(record, k)) {
  const options = record.options || {};
  const variant = options.variant || 'bridge';
  const atEnd = position.step >= lastStep(record);
  const view = {
    game: record.game,
    size: record.size,
    variant,
    room: options.room,
    blocks: record.layout,
    digits: position.digits,
    owners: position.owners,
    clues: position.clues,
    status: atEnd ? 'finished' : 'replay',
    result: atEnd ? record.result : null,
    players: {
      blue: { name: record.players?.blue ?? seatName('blue'), mistakes: position.mistakes.blue },
      red: { name: record.players?.red ?? seatName('red'), mistakes: position.mistakes.red },
    },
    options,
  };
  if (variant === 'domains') view.block_table = blockSummary(record.size, record.layout, position.owners).table;
  return view;
}

/** Where the step's entry put a red mark (a mistake): `{index, digit, seat}`, or null. */
export function mistakeAt(record, position) {
  const move = position.move;
  if (!move || move.action !== 'place' || !move.mistake || !Array.isArray(move.cell)) return null;
  return { index: move.cell[0] * record.size + move.cell[1], digit: move.digit, seat: move.seat };
}

/** Who moves after step `k`: the seat of the next turn entry; null when none is left. */
export function nextMover(record, k) {
  const next = movesOf(record).slice(clampStep(record, k)).find((move) => TURN_ACTIONS.has(move.action));
  return next ? next.seat : null;
}

/**
 * Each player's game clock after step `k`: the game's time less the time of that
 * player's turns so far (the record's own clocks at the end); null without a game clock.
 */
export function clocksAt(record, k) {
  const gameMs = record.options && record.options.game_ms;
  if (typeof gameMs !== 'number') return { blue: null, red: null };
  if (clampStep(record, k) === lastStep(record) && record.clock_ms) return { ...record.clock_ms };
  const clocks = { blue: gameMs, red: gameMs };
  for (const move of movesOf(record).slice(0, clampStep(record, k))) {
    if (move.seat in clocks && typeof move.time_ms === 'number') clocks[move.seat] -= move.time_ms;
  }
  return { blue: Math.max(0, clocks.blue), red: Math.max(0, clocks.red) };
}

const HAND = 3; // tiles a hand refills to (docs/rules.md §3)

/**
 * How many tiles are in the bag and in each hand after step `k` (docs/rules.md §3): one
 * tile per empty cell, three to each hand at the deal (blue first), the rest in the bag;
 * a correct tile leaves the game, a mistake's and a take's price and an exchanged hand
 * go back to the bag, and the mover's hand refills to three after each turn — except
 * after a take that cost two, which waits for the taker's next turn.
 */
export function tilesAt(record, k) {
  let bag = [...record.givens].filter((d) => d === '.').length;
  const hands = { blue: 0, red: 0 };
  const draw = (seat) => {
    const got = Math.min(HAND - hands[seat], bag);
    if (got > 0) {
      hands[seat] += got;
      bag -= got;
    }
  };
  draw('blue');
  draw('red');
  for (const move of movesOf(record).slice(0, clampStep(record, k))) {
    const seat = move.seat;
    if (!(seat in hands) || !TURN_ACTIONS.has(move.action)) continue;
    let refill = true;
    if (move.action === 'place') {
      hands[seat] = Math.max(0, hands[seat] - 1);
      if (move.mistake) bag += 1;
    } else if (move.action === 'take') {
      const paid = Array.isArray(move.discarded) ? move.discarded.length : 0;
      hands[seat] = Math.max(0, hands[seat] - paid);
      bag += paid;
      refill = paid < 2;
    } else if (move.action === 'exchange') {
      bag += hands[seat];
      hands[seat] = 0;
    }
    if (refill) draw(seat);
  }
  return { bag, hands };
}

/**
 * The side panel's view at step `k` of a replay: the finished game's `view` with what
 * the position changes — whose move is next, each player's clock, tiles and mistakes,
 * the bag, the Domains block table, and the result only at the end. No presence: who
 * is online now says nothing about the game as it was.
 */
export function replayPanelView(record, k, view) {
  const step = clampStep(record, k);
  const atEnd = step === lastStep(record);
  const position = positionAt(record, step);
  const clocks = clocksAt(record, step);
  const tiles = tilesAt(record, step);
  const players = {};
  for (const seat of ['blue', 'red']) {
    const { online, ...player } = (view.players && view.players[seat]) || {};
    players[seat] = {
      ...player,
      name: player.name ?? record.players?.[seat] ?? seatName(seat),
      mistakes: position.mistakes[seat] || 0,
      clock_ms: clocks[seat],
      hand_size: tiles.hands[seat],
    };
  }
  const replay = {
    ...view,
    status: atEnd ? 'finished' : 'replay',
    turn: atEnd ? null : nextMover(record, step),
    players,
    bag: tiles.bag,
    moves: position.turns,
    step,
    steps: lastStep(record),
    result: atEnd ? view.result ?? record.result : null,
  };
  if ((view.variant || record.options?.variant) === 'domains') {
    replay.block_table = blockSummary(record.size, record.layout, position.owners).table;
  }
  return replay;
}

// A record entry's kind as the live Moves card names its event (journal.js: the event's type).
const LOG_KIND = {
  place: 'placed', take: 'taken', exchange: 'exchanged', swap: 'swapped', pass: 'passed',
  adjourn: 'adjourned', auto_adjourn: 'adjourned', resume: 'resumed',
};

/**
 * The Moves card at step `k` of a replay: each entry up to it in words, numbered as the
 * moves table is; at the end the result, as the live card said it (the finished game's
 * `view`: names and the viewer's seat).
 */
export function replayLog(record, k, view = null) {
  const players = record.players || {};
  const step = clampStep(record, k);
  const lines = movesOf(record).slice(0, step).map((move, j) => ({
    kind: move.mistake ? 'mistake' : LOG_KIND[move.action] || move.action,
    seat: move.seat,
    text: `${j + 1}. ${entryText(move, players)}`,
    step: j + 1,
  }));
  const result = (view && view.result) || record.result;
  if (step === lastStep(record) && result) {
    const names = view && view.players ? view.players : { blue: { name: players.blue }, red: { name: players.red } };
    // The sides unnamed, as the live line (journal.js): the screen, and so the board, may turn.
    lines.push({ kind: 'finished', seat: null, text: resultText(result, names, record.options?.variant, view?.you ?? null, null) });
  }
  return lines;
}

/** The cell the step's entry was about (to mark it on the board), or null. */
export function cellAt(record, position) {
  const move = position.move;
  if (!move || !Array.isArray(move.cell)) return null;
  return move.cell[0] * record.size + move.cell[1];
}

// Record entries worded by key `record.<action>` (place and take have their own).
const WORDED = new Set(['exchange', 'timeout', 'pass', 'resign', 'draw', 'time', 'adjourn', 'auto_adjourn', 'resume']);

const readingName = (reading) => t(`review.reading.${reading}`);
const raceCells = (cells) => (cells === null || cells === undefined ? t('review.cut_off') : cells);

/**
 * A turn as the coach saw it, in words: a placement's reading (a guess among how many
 * digits), a mistake's or a take's or an exchange's verdict (what was provable in hand
 * instead), and in Bridge and Blitz the race after it. Empty for no entry.
 */
export function reviewText(entry, move, players = {}) {
  if (!entry) return '';
  const parts = [];
  if (entry.reading === 'guess') parts.push(t('review.guess', { count: entry.candidates ?? 2 }));
  else if (entry.reading && entry.unit) {
    parts.push(t('review.reading_in', { reading: readingName(entry.reading), unit: t(`review.unit.${entry.unit}`) }));
  } else if (entry.reading) parts.push(readingName(entry.reading));
  else {
    if (entry.ruled_out && move) parts.push(t('review.ruled_out', { digit: move.digit }));
    if (entry.avoidable === true && entry.instead) {
      parts.push(t('review.avoidable', {
        digit: entry.instead.digit, cell: cellText(entry.instead.cell), reading: readingName(entry.instead.reading),
      }));
    } else if (entry.avoidable === false && !entry.ruled_out) {
      parts.push(t(move && move.action === 'place' ? 'review.gamble' : 'review.nothing_sure'));
    }
  }
  if (entry.race) {
    parts.push(t('review.race', {
      blue: players.blue || seatName('blue'), blue_cells: raceCells(entry.race.blue),
      red: players.red || seatName('red'), red_cells: raceCells(entry.race.red),
    }));
  }
  return parts.join(' · ');
}

/**
 * The review's summary in words, one line each: the board's grade, then per player the
 * placements proven, the guesses (and how many paid), the avoidable mistakes, and in
 * Bridge and Blitz the moves (numbered as the moves list is) that changed the race most.
 * Empty when the record has no review and no grade.
 */
export function reviewSummary(record) {
  const lines = [];
  if (record && record.grade) lines.push(t('review.grade', { reading: readingName(record.grade) }));
  const summary = record && record.review && record.review.summary;
  if (!summary) return lines;
  const players = record.players || {};
  for (const seat of ['blue', 'red']) {
    const mine = summary[seat];
    if (!mine) continue;
    const name = players[seat] || seatName(seat);
    lines.push(t('review.summary', {
      name, proven: mine.proven ?? 0, placements: mine.placements ?? 0, guesses: mine.guesses ?? 0,
      paid: mine.guesses_paid ?? 0, avoidable: mine.avoidable_mistakes ?? 0,
    }));
    const race = Array.isArray(mine.race_moves) ? mine.race_moves : [];
    if (race.length) lines.push(t('review.race_moves', { name, moves: race.map((m) => `#${m.n + 1}`).join(', ') }));
  }
  return lines;
}

/** One entry in words: `(r,c)` cells, digits, what was paid; the coach's word on it once reviewed. */
export function moveText(move, players = {}) {
  const text = entryText(move, players);
  const review = move.review ? reviewText(move.review, move, players) : '';
  return review ? t('review.with', { move: text, review }) : text;
}

function entryText(move, players) {
  const who = players[move.seat] || seatName(move.seat);
  const cell = Array.isArray(move.cell) ? cellText(move.cell) : '';
  const paid = Array.isArray(move.discarded) && move.discarded.length ? move.discarded.join(' ') : '';
  switch (move.action) {
    case 'place':
      return t(move.mistake ? 'record.mistake' : 'record.place', { who, digit: move.digit, cell });
    case 'take':
      return paid ? t('record.take', { who, cell, paid }) : t('record.take_free', { who, cell });
    case 'swap':
      return t('record.swap', { who, cell });
    default:
      return WORDED.has(move.action) ? t(`record.${move.action}`, { who }) : `${who} ${move.action}`;
  }
}
