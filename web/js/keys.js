/* The game from the keyboard: one key for each action beside the board, a key to reach
 * the board, and the help panel that lists them all (`?`). A key presses the action's
 * own button, so a key does exactly what the button does, and only when the button is
 * there and enabled (nothing to keep in step). The board's own keys — arrows, Enter and
 * Space — are board/events.js's; a digit picks a tile and Escape clears (play.js). */

import { $, h } from './dom.js';
import { t } from './i18n.js';

/** Each key, the buttons it presses (the first there and enabled), and what it says in the help. */
export const ACTION_KEYS = [
  { key: 't', buttons: ['take'], help: 'keys.take' },
  { key: 'x', buttons: ['exchange'], help: 'keys.exchange' },
  { key: 's', buttons: ['swap'], help: 'keys.swap' },
  { key: 'r', buttons: ['resign'], help: 'keys.resign' },
  { key: 'd', buttons: ['offer-draw'], help: 'keys.draw' },
  { key: 'a', buttons: ['offer-adjourn', 'resume'], help: 'keys.adjourn' },
  { key: 'm', buttons: ['offer-rematch'], help: 'keys.rematch' },
  { key: 'y', buttons: ['accept-draw', 'accept-adjourn', 'accept-rematch'], help: 'keys.accept' },
  { key: 'n', buttons: ['decline-draw', 'decline-rematch'], help: 'keys.decline' },
];

/** The rest of the help: the board's keys and the page's (a key's name, or its catalog key). */
const OTHER_KEYS = [
  ['B', 'keys.board'],
  ['← →', 'keys.along_row'],
  ['↑ ↓', 'keys.along_column'],
  ['1–9', 'keys.tile'],
  [{ name: 'keys.enter_key' }, 'keys.enter'],
  [{ name: 'keys.escape_key' }, 'keys.escape'],
  ['?', 'keys.help'],
];
const keyName = (key) => (typeof key === 'string' ? key : t(key.name));

const inField = (target) => Boolean(target.closest && target.closest('input, textarea, select, [contenteditable]'));

function pressAction(keyDef) {
  for (const cls of keyDef.buttons) {
    const button = document.querySelector(`#actions button.${cls}`);
    if (button && !button.disabled) {
      button.click();
      return true;
    }
  }
  return false;
}

/** The board's tab stop, focused (the board is one stop in the page's tab order). */
function focusBoard(options) {
  const cell = $('#board g.cell[tabindex="0"]') || $('#board g.cell');
  if (cell) cell.focus(options);
  return Boolean(cell);
}

let lastInput = 'pointer'; // what the player last used: 'key' or 'pointer'

/**
 * A game just opened: if the focus was lost on the way (the button that opened it went
 * with the club, leaving it on <body>), it lands in the game — on the board's tab stop
 * for a player on the keyboard, else on the game's heading (read out, and one Tab from
 * the board).
 */
export function focusIntoGame() {
  const active = document.activeElement;
  if (active && active !== document.body && active.getClientRects().length) return;
  if (lastInput === 'key' && focusBoard({ preventScroll: true })) return;
  const title = $('#game-title');
  if (!title) return;
  title.tabIndex = -1;
  title.focus({ preventScroll: true });
}

function helpPanel() {
  const rows = [
    ...OTHER_KEYS.map(([key, what]) => [keyName(key), t(what)]),
    ...ACTION_KEYS.map((k) => [k.key.toUpperCase(), t(k.help)]),
  ];
  return h('section', {
    id: 'keys-help', class: 'card', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'keys-help-title',
    tabindex: -1, hidden: true,
  },
  h('h2', { id: 'keys-help-title' }, t('keys.title'),
    h('button', { type: 'button', class: 'quiet small close', onclick: () => showHelp(false) }, t('keys.close'))),
  h('dl', { class: 'keys' }, ...rows.flatMap(([key, what]) => [h('dt', {}, h('kbd', {}, key)), h('dd', {}, what)])));
}

let before = null; // where the focus was before the help opened

export function showHelp(open) {
  const panel = $('#keys-help');
  if (!panel || panel.hidden === !open) return;
  if (open) {
    before = document.activeElement;
    panel.hidden = false;
    panel.focus();
  } else {
    panel.hidden = true;
    if (before && before.isConnected) before.focus();
    before = null;
  }
}

/** The keys, and the help panel (with its button in the header), once at the start. */
export function attachKeys() {
  document.body.append(helpPanel());
  const open = h('button', {
    type: 'button', id: 'keys-button', class: 'quiet', 'aria-keyshortcuts': '?',
    onclick: () => showHelp($('#keys-help').hidden),
  }, t('keys.button'));
  $('#top').append(open);
  document.addEventListener('keydown', () => { lastInput = 'key'; }, true);
  document.addEventListener('pointerdown', () => { lastInput = 'pointer'; }, true);
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || inField(event.target)) return;
    if (event.key === '?') {
      event.preventDefault();
      showHelp($('#keys-help').hidden);
      return;
    }
    if (event.key === 'Escape') {
      showHelp(false);
      return;
    }
    if ($('#game-view').hidden) return;
    const key = event.key.toLowerCase();
    if (key === 'b' && focusBoard()) {
      event.preventDefault();
      return;
    }
    const keyDef = ACTION_KEYS.find((k) => k.key === key);
    if (keyDef && pressAction(keyDef)) event.preventDefault();
  });
}
