/* The moves list beside the board: one line per event, in words. Pure. */

import { cellText, resultText, seatName as seatWord } from './format.js';
import { fmtNumber, t } from './i18n.js';
import { TURN_EVENTS } from './reducer.js';

/** Seat name as the viewer reads it. */
function seatName(view, seat) {
  const player = view.players && view.players[seat];
  const name = player ? player.name : seatWord(seat);
  return seat === view.you ? t('log.you', { name }) : name;
}

// Each event's line: its catalog key `log.<type>` and what fills the key's placeholders.
const PARAMS = {
  placed: (view, ev) => ({ cell: cellText(ev.cell), digit: ev.digit }),
  mistake: (view, ev) => ({ cell: cellText(ev.cell), digit: ev.digit }),
  taken: (view, ev) => ({ cell: cellText(ev.cell), count: ev.paid || 0 }),
  exchanged: (view, ev) => ({ count: ev.count }),
  swapped: (view, ev) => ({ cell: cellText(ev.cell) }),
  timeout: () => ({}),
  passed: () => ({}),
  draw_offered: () => ({}),
  draw_declined: () => ({}),
  draw_lapsed: () => ({}),
  adjourn_offered: () => ({}),
  adjourn_lapsed: () => ({}),
  resume_requested: () => ({}),
  rematch_offered: () => ({}),
  rematch_declined: () => ({}),
  rematch_accepted: () => ({}),
};

function text(view, ev) {
  switch (ev.type) {
    case 'timeouts': {
      const lost = t('log.timeouts', { count: ev.count });
      return ev.passes ? t('log.timeouts_passes', { lost, count: ev.passes }) : lost;
    }
    case 'adjourned':
      return ev.auto ? t('log.adjourned_auto') : t('log.adjourned', { who: seatName(view, ev.seat) });
    case 'resumed':
      return t('log.resumed');
    case 'finished':
      // A line that stays: the sides unnamed (the screen, and so the board, may turn).
      return resultText(ev.result, view.players, view.variant, view.you, null);
    case 'taken':
      return t(ev.paid ? 'log.taken' : 'log.taken_free', { who: seatName(view, ev.seat), ...PARAMS.taken(view, ev) });
    default:
      return PARAMS[ev.type] ? t(`log.${ev.type}`, { who: seatName(view, ev.seat), ...PARAMS[ev.type](view, ev) }) : null;
  }
}

const SILENT = new Set(['hidden', 'hand', 'turn', 'presence']);

/**
 * The log line for `event`, given the view after it (numbered turns use its `moves`);
 * null for events that say nothing worth a line.
 */
export function logEntry(view, event) {
  if (SILENT.has(event.type)) return null;
  const line = text(view, event) ?? `(${event.type})`;
  const number = TURN_EVENTS.has(event.type) ? `${fmtNumber(view.moves)}. ` : '';
  return { kind: event.type, seat: event.seat, text: number + line, v: event.v };
}
