/* A game as one viewer knows it: the server's VIEW (docs/contract.md), brought up to date
 * frame by frame. Pure: no DOM, no network, no timers, no clock; every function returns a
 * new view and leaves its arguments alone, so a view can be kept, compared and replayed.
 *
 * The view keeps exactly the server's shape (a `state` frame at version v and the events
 * up to v make the same view), so nothing here is the page's own: selections, the log
 * and the red flash of a mistake live beside the view, not in it. */

import { SEATS } from './format.js';
import { blockSummary } from './geometry.js';

/** Events that are a turn (the view's `moves` counts them). */
export const TURN_EVENTS = new Set(['placed', 'mistake', 'taken', 'exchanged', 'swapped', 'timeout', 'passed']);
/** Events that change the board's owners. */
export const BOARD_EVENTS = new Set(['placed', 'taken', 'swapped']);
/** Frames about a game that carry no `v`: they are not game events and never wait in order. */
export const UNVERSIONED = new Set(['presence', 'rematch_offered', 'rematch_declined', 'rematch_accepted']);

const copy = (value) => structuredClone(value);
const setAt = (text, i, ch) => text.slice(0, i) + ch + text.slice(i + 1);
const cellIndex = (view, cell) => cell[0] * view.size + cell[1];

/** The view a `state` frame gives; an older one than `view` (of the same game) changes nothing. */
export function applyState(view, frame) {
  if (!frame || typeof frame.view !== 'object' || frame.view === null) return view;
  if (view && view.game === frame.game && frame.v < view.v) return view;
  return { ...copy(frame.view), v: frame.v };
}

/** The view after one event (in `v` order; a repeat changes nothing), or after a frame
 * with no `v` (presence, rematch offers). */
export function applyEvent(view, event) {
  if (!view || !event) return view;
  if (UNVERSIONED.has(event.type)) return applyUnversioned(view, event);
  if (!Number.isInteger(event.v) || event.v <= view.v) return view;
  const next = copy(view);
  next.v = event.v;
  const apply = HANDLERS[event.type];
  if (apply) apply(next, event);
  if (TURN_EVENTS.has(event.type)) next.moves = (next.moves || 0) + 1;
  // A first move lost to the clock aborts the game by itself, so two turns played
  // mean both players have moved: abort is closed from then on.
  if (next.abortable && next.moves >= 2) next.abortable = false;
  if (BOARD_EVENTS.has(event.type) && next.variant === 'domains') refreshBlocks(next);
  return next;
}

/** The view after several events in order. */
export function applyEvents(view, events) {
  return events.reduce(applyEvent, view);
}

function applyUnversioned(view, event) {
  const apply = UNVERSIONED_HANDLERS[event.type];
  if (!apply) return view;
  const next = copy(view);
  return apply(next, event) === false ? view : next;
}

// Each returns false when the frame does not apply to this view.
const UNVERSIONED_HANDLERS = {
  presence(view, ev) {
    if (!view.players || !view.players[ev.seat]) return false;
    view.players[ev.seat].online = Boolean(ev.online);
  },
  // Rematch (docs/protocol.md): pushed about a finished game, with no `v`.
  rematch_offered: (view, ev) => setOffer(view, 'rematch', ev.seat),
  rematch_declined: (view) => setOffer(view, 'rematch', null),
  rematch_accepted(view, ev) {
    setOffer(view, 'rematch', null);
    if (typeof ev.rematch === 'string') view.rematch = ev.rematch;
  },
};

// Domains: the `turn` closing a move brings the server's table; a game's last move has
// none, so the table (and the marks) are worked out from the owners after every change.
function refreshBlocks(view) {
  const { marks, table } = blockSummary(view.size, view.blocks, view.owners);
  view.block_table = table;
  if ('block_owners' in view) view.block_owners = marks;
}

function own(view, event) {
  view.owners = setAt(view.owners, cellIndex(view, event.cell), event.seat[0]);
}

function forEachSeat(view, field, values, key = field) {
  if (!values || typeof values !== 'object') return;
  for (const seat of SEATS) {
    if (view.players[seat] && seat in values) view.players[seat][key] = values[seat];
  }
}

function setOffer(view, kind, seat) {
  view.offers = { ...(view.offers || {}), [kind]: seat };
}

function stopPlay(view) {
  view.turn = null;
  view.deadline_ms = null;
  closeSwap(view);
}

// The pie rule: `swap_open` says whether the player to move may swap, `swap_available`
// whether this viewer may (a spectator's: as `swap_open`). A view has them only in Bridge
// and Blitz; `swap_open` only from servers that send it.
function closeSwap(view) {
  if ('swap_available' in view) view.swap_available = false;
  if ('swap_open' in view) view.swap_open = false;
}

const HANDLERS = {
  placed(view, ev) {
    view.digits = setAt(view.digits, cellIndex(view, ev.cell), String(ev.digit));
    own(view, ev);
  },
  mistake(view, ev) {
    view.last_mistake = { seat: ev.seat, cell: [...ev.cell], digit: ev.digit, v: ev.v };
    if (view.players[ev.seat]) view.players[ev.seat].mistakes += 1;
  },
  taken: own,
  swapped(view, ev) {
    own(view, ev);
    closeSwap(view);
  },
  timeouts(view, ev) {
    // A long absence folded by the server: every turn it stands for still counts.
    view.moves = (view.moves || 0) + (ev.count || 0) + (ev.passes || 0);
  },
  hand(view, ev) {
    if ('you' in view) view.hand = Array.isArray(ev.hand) ? [...ev.hand] : [];
  },
  turn(view, ev) {
    view.turn = ev.turn;
    view.deadline_ms = ev.deadline_ms;
    view.now_ms = ev.now_ms;
    if (typeof ev.bag === 'number') view.bag = ev.bag;
    forEachSeat(view, 'hand_size', ev.hand_sizes);
    forEachSeat(view, 'clock_ms', ev.clock_ms);
    forEachSeat(view, 'mistakes', ev.mistakes);
    if ('moves_left_in_pair' in ev) view.moves_left_in_pair = ev.moves_left_in_pair;
    if ('block_table' in ev) view.block_table = { ...ev.block_table };
    if ('swap_open' in ev || 'swap_available' in ev) {
      // Servers before `swap_open` sent the same as `swap_available`.
      const open = Boolean('swap_open' in ev ? ev.swap_open : ev.swap_available);
      if ('swap_open' in view) view.swap_open = open;
      view.swap_available = open && (!('you' in view) || ev.turn === view.you);
    }
    if (view.status === 'adjourned') view.status = 'playing';
  },
  draw_offered: (view, ev) => setOffer(view, 'draw', ev.seat),
  draw_declined: (view) => setOffer(view, 'draw', null),
  draw_lapsed: (view) => setOffer(view, 'draw', null),
  adjourn_offered: (view, ev) => setOffer(view, 'adjourn', ev.seat),
  adjourn_lapsed: (view) => setOffer(view, 'adjourn', null),
  adjourned(view, ev) {
    view.status = 'adjourned';
    setOffer(view, 'adjourn', null);
    view.resume_requested = [];
    stopPlay(view);
    forEachSeat(view, 'clock_ms', ev.clock_ms);
  },
  resume_requested(view, ev) {
    const asked = new Set([...(view.resume_requested || []), ev.seat]);
    view.resume_requested = SEATS.filter((seat) => asked.has(seat));
  },
  resumed(view) {
    view.status = 'playing';
    view.resume_requested = [];
  },
  finished(view, ev) {
    view.status = 'finished';
    view.result = copy(ev.result);
    stopPlay(view);
    if (ev.result && ev.result.block_table) view.block_table = { ...ev.result.block_table };
    const offers = { ...(view.offers || {}), draw: null, adjourn: null };
    view.offers = offers;
  },
  hidden() {},
};

/** The event kinds this reducer knows (everything else only advances `v`). */
export const KNOWN_EVENTS = new Set([...Object.keys(HANDLERS), ...TURN_EVENTS, ...UNVERSIONED]);

// ------------------------------------------------------------------ what the server offers

/** The additions a view shows the server supports (absent data: the UI stays hidden). */
export function features(view) {
  const players = (view && view.players) || {};
  const presence = SEATS.some((seat) => players[seat] && typeof players[seat].online === 'boolean');
  const offers = (view && view.offers) || {};
  return { presence, rematch: 'rematch' in offers, abort: canAbort(view, presence) };
}

// Abort is open until each player has made a first move. A server that says so sends
// `abortable`; one that announces the additions (presence) without it: fewer than two
// turns played (a first move lost to the clock aborts the game by itself).
function canAbort(view, presence) {
  if (!view || view.status !== 'playing') return false;
  if (typeof view.abortable === 'boolean') return view.abortable;
  return presence && (view.moves || 0) < 2;
}

/** Whether the viewer is a spectator (a view without a seat). */
export const isSpectator = (view) => Boolean(view) && !view.you;

/** Domains: the second move of a pair is due. */
export function secondOfPair(view) {
  return view.variant === 'domains' && view.status === 'playing' && view.moves_left_in_pair === 1
    && (view.moves || 0) > 0;
}

/**
 * A player's game clock at server time `nowMs`: the view's `clock_ms` is as of its
 * `now_ms`, and only the player to move is spending time (null: no game clock).
 */
export function clockNow(view, seat, nowMs) {
  const player = view.players && view.players[seat];
  if (!player || player.clock_ms === null || player.clock_ms === undefined) return null;
  if (view.status !== 'playing' || view.turn !== seat) return player.clock_ms;
  return Math.max(0, player.clock_ms - Math.max(0, nowMs - view.now_ms));
}
