/* A game's earlier moves, for a page that came in the middle of it (a watcher arriving,
 * a player reopening a game): its view comes as a `state` at version N, the Moves card
 * would start there. The events 1..N are asked for with `sync` from v=0 (docs/protocol.md:
 * a watcher may sync as a player does, and gets what a spectator may see, hands as
 * `hidden`), worded as the live ones are, and put before the lines the page has. */

import { logEntry } from './journal.js';
import { TURN_EVENTS } from './reducer.js';

// The server answers a sync from further back than this with a whole `state` instead.
const MAX_EARLIER = 500;

/**
 * The Moves card's lines for `events` (a game's events from its start, in `v` order),
 * given the game's `view` now (names, the viewer's seat): numbered as the live lines
 * are, counting the turns as the reducer does. Pure.
 */
export function earlierLog(view, events) {
  let moves = 0;
  const lines = [];
  for (const event of events) {
    if (TURN_EVENTS.has(event.type)) moves += 1;
    else if (event.type === 'timeouts') moves += (event.count || 0) + (event.passes || 0);
    const line = logEntry({ ...view, moves }, event);
    if (line) lines.push(line);
  }
  return lines;
}

// The catch-ups asked for: request id -> {game, upTo, events}.
const asked = new Map();

/**
 * A game's view came for the first time (games.js change `isNew` with its `state`) at
 * a version past the deal, in play or adjourned: its earlier events asked for.
 */
export function askEarlier(app, game, { isNew, state }) {
  const view = game.view;
  if (!isNew || !state || !view || (view.status !== 'playing' && view.status !== 'adjourned')) return;
  if (!(view.v > 0) || view.v > MAX_EARLIER) return;
  const upTo = view.v;
  const id = app.request('sync', { game: game.id, v: 0 }, (answer) => {
    const wanted = asked.get(id);
    asked.delete(id);
    if (!wanted || answer.type !== 'ack') return;
    const events = [...wanted.events.values()].sort((a, b) => a.v - b.v);
    const lines = earlierLog(game.view, events);
    // The "shown from move N on" line gives way; what came live after N stays after.
    game.log = [...lines, ...game.log.filter((line) => line.kind !== 'joined' && !(line.v <= upTo))];
    app.render();
  }, true);
  if (id !== null) asked.set(id, { game: game.id, upTo, events: new Map() });
}

/** Every frame, before it is routed: an event a catch-up asked for is kept for it. */
export function collectEarlier(frame) {
  if (!asked.size || frame.type === 'state' || typeof frame.game !== 'string' || !Number.isInteger(frame.v)) return;
  for (const wanted of asked.values()) {
    if (wanted.game === frame.game && frame.v >= 1 && frame.v <= wanted.upTo) wanted.events.set(frame.v, frame);
  }
}
