/* Game events strictly in `v` order (docs/protocol.md, "Reconnecting"): an event that is
 * ahead waits until the gap is filled, a repeat is dropped. Pure: each call returns a new
 * waiting map and leaves the old one alone. */

/** Where a game stands: the version applied, and the events that arrived early. */
export const emptyQueue = () => new Map();

/**
 * Admit one event to a game at version `v`.
 * Returns `{ready, waiting, gap}`: the events to apply now, in order; the ones still
 * early; and whether something is missing (some event is ahead of `v + 1`).
 */
export function admit(waiting, v, frame) {
  const next = new Map(waiting);
  if (frame.v > v) next.set(frame.v, frame);
  return release(next, v);
}

/** After the version moved to `v` (a `state`, applied events): what can follow now. */
export function release(waiting, v) {
  const next = new Map(waiting);
  const ready = [];
  let at = v;
  while (next.has(at + 1)) {
    ready.push(next.get(at + 1));
    next.delete(at + 1);
    at += 1;
  }
  for (const key of [...next.keys()]) if (key <= at) next.delete(key);
  return { ready, waiting: next, gap: next.size > 0 };
}
