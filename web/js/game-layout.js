/* A move on a phone, on one screen: the board is given the height the status, the clocks,
 * the hand and the buttons leave it (upright), or the screen's height (on its side), and
 * a game that opens is scrolled to the top of the screen. css/phone.css lays the parts
 * out; this says how high the board may be (--board-room on #game-view), which CSS alone
 * cannot: the parts around it grow a line with a longer word or an offer to answer. */

import { $ } from './dom.js';

// The compact game screen's media (css/phone.css says the same): a narrow screen, or a
// short one on its side.
const COMPACT = '(max-width: 700px), (orientation: landscape) and (max-height: 500px)';
const UPRIGHT = '(max-width: 700px) and (orientation: portrait)';
const SLACK = 2; // px: rounding, so that the last part never ends a pixel below the screen

const matches = (query) => typeof matchMedia === 'function' && matchMedia(query).matches;
const shownBox = (node) => (node && node.getClientRects().length ? node.getBoundingClientRect() : null);

let listening = false;
// The game's screen at the top of the screen as `reveal` put it, and not scrolled since
// by the player: kept there while what is above it changes (the header loses the game's
// button when it ends, say; css/phone.css keeps the browser's scroll anchoring out of
// the game, which anchored on a part that went and scrolled the status off).
let aligned = false;

function listen() {
  listening = true;
  window.addEventListener('resize', fitGame);
  window.addEventListener('scroll', () => {
    const view = $('#game-view');
    aligned = Boolean(view) && !view.hidden && matches(COMPACT) && Math.abs(view.getBoundingClientRect().top) < 1;
  }, { passive: true });
}

/** The board's height on a phone (--board-room on #game-view), or none elsewhere; the
 * game's screen kept at the top of the screen if it was there. */
export function fitGame() {
  if (!listening) listen();
  const view = $('#game-view');
  const svg = $('#board svg.board');
  if (!view || view.hidden || !svg || !matches(COMPACT)) {
    if (view) view.style.removeProperty('--board-room');
    aligned = false;
    return;
  }
  const off = view.getBoundingClientRect().top;
  if (aligned && Math.abs(off) >= 1) window.scrollBy(0, off);
  const board = svg.getBoundingClientRect();
  let room = window.innerHeight - 2 * parseFloat(getComputedStyle($('#app')).paddingTop || '0');
  if (matches(UPRIGHT)) {
    // What the parts above and below the board take, gaps included. The status line is
    // sticky (css/phone.css): with the page scrolled below the game's top (the lobby's
    // list where a proposal was accepted, say), its box sits at the top of the screen,
    // not above the clocks, so it counts by its height and the gap under it alone.
    const boxes = ['#players', '#board', '#hand-row', '#actions'].map((s) => shownBox($(s))).filter(Boolean);
    const top = Math.min(...boxes.map((b) => b.top));
    const bottom = Math.max(...boxes.map((b) => b.bottom));
    const status = shownBox($('#status-line'));
    const above = status ? status.height + (parseFloat(getComputedStyle(view).rowGap) || 0) : 0;
    room = window.innerHeight - (above + bottom - top - $('#board').getBoundingClientRect().height);
  }
  // No higher than the board drawn as wide as it may be (the screen's width upright, its
  // column on its side): no empty band above and below it.
  const box = svg.viewBox.baseVal;
  const across = matches(UPRIGHT) ? board.width : parseFloat(getComputedStyle(svg).maxWidth);
  if (box && box.width && across > 0) room = Math.min(room, (across * box.height) / box.width);
  view.style.setProperty('--board-room', `${Math.max(120, Math.floor(room - SLACK))}px`);
}

const inView = (node) => {
  const box = node.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
};

/** A game just opened (dealt, accepted, paired, watched, replayed, back after a reload):
 * on a phone, its status, board, hand and buttons to the top of the screen (the form or
 * list that opened it may be screens below); elsewhere its board and clocks into view,
 * the title and the move's status too where they fit above the board. */
export function reveal() {
  // What the lobby said on the way ("dealing a game…") is old news now, and on a phone it
  // would lie over the clocks.
  for (const note of document.querySelectorAll('#toasts .toast:not(.error)')) note.remove();
  const view = $('#game-view');
  if (matches(COMPACT)) {
    fitGame();
    view.scrollIntoView({ block: 'start' });
    aligned = true;
    return;
  }
  const board = $('#board');
  const clocks = $('#players');
  if (inView(board) && inView(clocks)) return;
  const whole = board.getBoundingClientRect().bottom - view.getBoundingClientRect().top;
  (whole <= window.innerHeight ? view : $('#game-body')).scrollIntoView({ block: 'start' });
}
