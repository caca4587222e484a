/* Asking before a placement the board already contradicts (contradiction.js): "8 is
 * already in this row. Place it anyway?" with Place and Cancel. A question, never a
 * refusal: Place sends the move as it was. Cancel, Esc or a click beside the card send
 * nothing; either way the focus goes back to the cell on the board. */

import { focusCell } from './board/render.js';
import { $ } from './dom.js';
import { t } from './i18n.js';

// The placement waiting for an answer: {place, cell}; null while the card is down.
let pending = null;
// Whether the card has had a key or a press of its own since it came up: the key that
// asked (Space on a cell, whose click comes on its release) must not answer it too.
let touched = false;

function close(send) {
  const card = $('#place-warning');
  if (!card || card.hidden) return;
  card.hidden = true;
  const asked = pending;
  pending = null;
  if (!asked) return;
  if (send) asked.place();
  focusCell($('#board'), asked.cell);
}

function wire(card) {
  card.dataset.wired = '1';
  const cancel = $('#place-warning-cancel');
  const place = $('#place-warning-place');
  card.addEventListener('pointerdown', (event) => {
    touched = true;
    if (event.target === card) close(false); // beside the card: no
  });
  card.addEventListener('keydown', (event) => {
    touched = true;
    // The page's own keys (Escape clears the tile, a digit picks one) wait until it is answered.
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      close(false);
    } else if (event.key === 'Tab') {
      // Two buttons: the focus goes round them and stays in the card.
      event.preventDefault();
      (document.activeElement === cancel ? place : cancel).focus();
    }
  });
  cancel.addEventListener('click', () => { if (touched) close(false); });
  place.addEventListener('click', () => { if (touched) close(true); });
}

/**
 * Ask before placing `digit` on cell index `cell`, which `clash` (contradiction.js
 * `contradicts`) says the board contradicts; `place()` sends the move if the player
 * says so. Cancel has the focus: the move is sure to be a mistake.
 */
export function askBeforePlacing(clash, digit, cell, place) {
  const card = $('#place-warning');
  if (!card.dataset.wired) wire(card);
  $('#place-warning-text').textContent = t(`warning.${clash.unit}`, { digit });
  pending = { place, cell };
  touched = false;
  card.hidden = false;
  $('#place-warning-cancel').focus();
}
