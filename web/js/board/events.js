/* The board's input: pointer, focus and keys on the drawn cells, reported as cell
 * indices through callbacks. It changes nothing itself but the focus: what a cell
 * means is the page's (play.js), how it looks is render.js's. */

import { stepFocus } from './model.js';

const indexOfTarget = (target) => {
  const cell = target && target.closest ? target.closest('g.cell') : null;
  return cell ? Number(cell.dataset.index) : null;
};

/**
 * Listen to the board in `holder`: `onHover(index|null)` as the pointer or the focus
 * moves over cells (or a finger presses one), `onActivate(index)` on a click or Enter/Space, `onFocus(index)` when
 * the arrow keys move the focus (then `moveFocus(index)` moves the tab stop there).
 */
export function listen(holder, { onHover, onActivate, onFocus, size, moveFocus }) {
  // Where nothing can hover (a phone), "over" is a finger's tap, or the page moving
  // under the spot of an earlier tap (a game opening above the lobby's button): neither
  // is a player looking at a cell.
  const hovers = typeof matchMedia !== 'function' || matchMedia('(any-hover: hover)').matches;
  holder.addEventListener('pointerover', (event) => {
    if (!hovers || event.pointerType === 'touch') return;
    const index = indexOfTarget(event.target);
    if (index !== null) onHover(index);
  });
  // A finger has no hover: pressing a cell lights its zones (and they stay on the cell
  // tapped, the page's focus, once the finger is lifted).
  holder.addEventListener('pointerdown', (event) => {
    const index = indexOfTarget(event.target);
    if (index !== null) onHover(index);
  });
  holder.addEventListener('pointerleave', () => onHover(null));
  holder.addEventListener('focusin', (event) => {
    const index = indexOfTarget(event.target);
    if (index !== null) onHover(index);
  });
  holder.addEventListener('focusout', (event) => {
    if (!holder.contains(event.relatedTarget)) onHover(null);
  });
  holder.addEventListener('click', (event) => {
    const index = indexOfTarget(event.target);
    if (index !== null) onActivate(index);
  });
  holder.addEventListener('keydown', (event) => {
    const index = indexOfTarget(event.target);
    if (index === null) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onActivate(index);
      return;
    }
    const next = stepFocus(index, event.key, size());
    if (next === null) return;
    event.preventDefault();
    onFocus(next);
    moveFocus(next);
  });
}
