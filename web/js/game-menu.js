/* The game's rarer actions (offer a draw or an adjournment, abort, resign) behind one
 * button, "More", on a phone, so that the board, the hand and the buttons of a move fit
 * on its screen together (css/phone.css); on a wider screen the button is not shown and
 * the actions stand in the row with the others, as they always did.
 *
 * A disclosure, not an ARIA menu: a button with aria-expanded that shows a group of
 * ordinary buttons. Esc, a tap elsewhere, or an action chosen closes it (Resign's first
 * press keeps it open for the second, "Really resign?"). The button and the group are
 * made once and kept, so that a redraw of the actions never takes the focus from them. */

import { h } from './dom.js';
import { t } from './i18n.js';

/** The classes of the actions that go in the menu. */
const RARE = ['offer-draw', 'offer-adjourn', 'abort', 'resign'];

const isRare = (item) => item instanceof Element && RARE.some((name) => item.classList.contains(name));

let menu = null; // { wrap, toggle, items }: made on first use

function setOpen(open, refocus = false) {
  if (!menu) return;
  menu.wrap.classList.toggle('open', open);
  menu.toggle.setAttribute('aria-expanded', open ? 'true' : 'false');
  if (!open && refocus) menu.toggle.focus();
}

function make() {
  const items = h('div', { id: 'game-menu-items', class: 'menu-items', role: 'group' });
  const toggle = h('button', {
    type: 'button', class: 'more', id: 'game-menu-button', 'aria-expanded': 'false', 'aria-controls': 'game-menu-items',
    onclick: () => setOpen(!menu.wrap.classList.contains('open')),
  });
  const wrap = h('div', { class: 'game-menu' }, toggle, items);
  wrap.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && wrap.classList.contains('open')) {
      event.stopPropagation(); // the menu closes; the tile chosen stays chosen
      setOpen(false, true);
    }
  });
  items.addEventListener('click', (event) => {
    const pressed = event.target.closest('button');
    // Resign asks twice: its first press keeps the menu open for the second.
    if (pressed && !(pressed.classList.contains('resign') && !pressed.classList.contains('armed'))) setOpen(false);
  });
  document.addEventListener('pointerdown', (event) => {
    if (!wrap.contains(event.target)) setOpen(false);
  });
  // Esc with the focus elsewhere (a tap focuses nothing on some phones) closes it too.
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && wrap.classList.contains('open')) setOpen(false, true);
  });
  return { wrap, toggle, items };
}

/** The class of the button in `holder` that has the focus, if one has it. */
function focusedAction(holder) {
  const active = document.activeElement;
  if (!active || !holder.contains(active) || active.tagName !== 'BUTTON' || active.id) return null;
  return active.classList[0] || null;
}

/**
 * Fill `holder` (#actions) with `items`: the rare ones in the menu, the rest before it.
 * A focused action keeps the focus when it is drawn anew (Resign → "Really resign?").
 */
export function fillActions(holder, items) {
  if (!menu) menu = make();
  const refocus = focusedAction(holder);
  const main = items.filter((item) => item && !isRare(item));
  const rare = items.filter(isRare);
  for (const child of [...holder.childNodes]) if (child !== menu.wrap) child.remove();
  if (menu.wrap.parentNode !== holder) holder.append(menu.wrap);
  holder.prepend(...main);
  menu.items.replaceChildren(...rare);
  menu.toggle.textContent = t('action.more');
  menu.items.setAttribute('aria-label', t('action.more'));
  menu.wrap.hidden = rare.length === 0;
  if (!rare.length) setOpen(false);
  if (refocus) {
    const again = holder.querySelector(`button.${refocus}`);
    if (again) again.focus({ preventScroll: true });
  }
}
