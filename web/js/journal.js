/* The moves list beside the board: one line per event, in words. Pure. */

import { cellText, plural, resultText } from './format.js';
import { TURN_EVENTS } from './reducer.js';

/** Seat name as the viewer reads it. */
function seatName(view, seat) {
  const player = view.players && view.players[seat];
  const name = player ? player.name : seat;
  return seat === view.you ? `${name} (you)` : name;
}

const TEXT = {
  placed: (view, ev) => `${seatName(view, ev.seat)} placed ${ev.digit} at ${cellText(ev.cell)}`,
  mistake: (view, ev) => `${seatName(view, ev.seat)}: mistake — ${ev.digit} does not go at ${cellText(ev.cell)}`,
  taken: (view, ev) => `${seatName(view, ev.seat)} took the clue at ${cellText(ev.cell)}${
    ev.paid ? ` for ${plural(ev.paid, 'tile')}` : ' for free'}`,
  exchanged: (view, ev) => `${seatName(view, ev.seat)} exchanged ${plural(ev.count, 'tile')}`,
  swapped: (view, ev) => `${seatName(view, ev.seat)} swapped (pie rule): took over ${cellText(ev.cell)}`,
  timeout: (view, ev) => `${seatName(view, ev.seat)} ran out of time for the move`,
  passed: (view, ev) => `${seatName(view, ev.seat)} passed: nothing to play`,
  timeouts: (view, ev) => `${plural(ev.count, 'more move')} lost to the clock${
    ev.passes ? ` (and ${ev.passes} automatic pass${ev.passes === 1 ? '' : 'es'})` : ''}`,
  draw_offered: (view, ev) => `${seatName(view, ev.seat)} offers a draw`,
  draw_declined: (view, ev) => `${seatName(view, ev.seat)} declined the draw`,
  draw_lapsed: (view, ev) => `The draw offer of ${seatName(view, ev.seat)} lapsed`,
  adjourn_offered: (view, ev) => `${seatName(view, ev.seat)} proposes to adjourn`,
  adjourn_lapsed: (view, ev) => `The adjournment offer of ${seatName(view, ev.seat)} lapsed`,
  adjourned: (view, ev) => (ev.auto
    ? 'Four moves in a row lost to the clock: the game is adjourned'
    : `${seatName(view, ev.seat)} accepted: the game is adjourned, clocks stopped`),
  resume_requested: (view, ev) => `${seatName(view, ev.seat)} asks to resume`,
  resumed: () => 'The game is resumed',
  finished: (view, ev) => resultText(ev.result, view.players, view.variant, view.you),
  rematch_offered: (view, ev) => `${seatName(view, ev.seat)} offers a rematch`,
  rematch_declined: (view, ev) => `${seatName(view, ev.seat)} declined the rematch`,
  rematch_accepted: (view, ev) => `${seatName(view, ev.seat)} accepted the rematch`,
};

const SILENT = new Set(['hidden', 'hand', 'turn', 'presence']);

/**
 * The log line for `event`, given the view after it (numbered turns use its `moves`);
 * null for events that say nothing worth a line.
 */
export function logEntry(view, event) {
  if (SILENT.has(event.type)) return null;
  const text = TEXT[event.type] ? TEXT[event.type](view, event) : `(${event.type})`;
  const number = TURN_EVENTS.has(event.type) ? `${view.moves}. ` : '';
  return { kind: event.type, seat: event.seat, text: number + text, v: event.v };
}
