/* Whose move it is, as the page's notices see it. Pure (no DOM): the live region
 * (announce.js) and the chime and notification (notice.js) ask the same question. */

/**
 * Did this change of a game's view (`before` → `view`) make it the viewer's move: a
 * move of the opponent's, a game resumed, or a new game dealt with the viewer to move?
 */
export function becameMyMove(view, before) {
  if (!view || !view.you || view.status !== 'playing' || view.turn !== view.you) return false;
  if (!before) return view.v === 0;
  return before.turn !== view.you || before.status !== 'playing';
}

/** Does the game run on a clock now (a move clock or a game clock)? */
export function onTheClock(view) {
  if (!view || view.status !== 'playing') return false;
  if (typeof view.deadline_ms === 'number') return true;
  return Object.values(view.players || {}).some((player) => player && typeof player.clock_ms === 'number');
}
