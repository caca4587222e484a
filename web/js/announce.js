/* The shown game read out: each event of it, in the words of its moves list, goes to a
 * polite live region (a screen reader says it when it has finished what it was saying),
 * and so does "your move" when the turn comes to the player. Nothing is said for the
 * events a state or a catch-up brings all at once (opening a game, a reconnect): the
 * board and the list say those. */

import { h } from './dom.js';
import { t } from './i18n.js';
import { becameMyMove } from './turns.js';
import { shownGame } from './ui-state.js';

let region = null;

/** The live region, once at the start (seen by screen readers only). */
export function attachAnnouncer() {
  region = h('div', { id: 'announcer', class: 'sr-only', 'aria-live': 'polite', 'aria-atomic': 'true' });
  document.body.append(region);
}

export function announce(text) {
  if (!region || !text) return;
  // A new node each time: the same words twice (two placements of a 5) are read twice.
  region.replaceChildren(h('p', {}, text));
}

/** A game's view changed (games.js): what the player should hear of it. */
export function announceChange(app, game, { before, events, state }) {
  if (state || game !== shownGame(app) || !events.length) return;
  const vs = new Set(events.map((event) => event.v));
  const lines = game.log.filter((line) => vs.has(line.v)).map((line) => line.text);
  if (becameMyMove(game.view, before)) lines.push(t('status.your_move'));
  announce(lines.join('. '));
}
