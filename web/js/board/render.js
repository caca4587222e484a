/* The board drawn: hexagons in a rhombus (docs/rules.md §2) as SVG, from the cell states
 * of model.js. Rendering only reads and writes the DOM: it sends nothing, listens to
 * nothing (events.js does), and the page schedules it at most once per animation frame
 * (dom.js `oncePerFrame`); lighting the three zones only toggles classes. */

import { fill, s } from '../dom.js';
import { variantName } from '../format.js';
import { R, cellOf, corner, hexagon, inBoard, indexOf, layout, pts, zonesOf } from '../geometry.js';
import { t } from '../i18n.js';
import { boardSignature, cellLabel, cellStates, ownerMark, decidedBlocks, sideOf, winnerBlocks, winningPath } from './model.js';

const PAD = 34;
const ZONE_CLASSES = ['zone', 'zone-row', 'zone-column', 'zone-block', 'zone-focus'];
const fixed = (n) => n.toFixed(2);
// What each holder shows now (model.js `boardSignature`).
const drawn = new WeakMap();

/** Draw the board into `holder` (keeping the keyboard focus on the same cell). */
export function renderBoard(holder, model) {
  if (!model || !model.view) {
    drawn.delete(holder);
    fill(holder);
    return;
  }
  // Unchanged: the cells stay the very same nodes (a click in progress on one lands).
  const signature = boardSignature(model);
  if (drawn.get(holder) === signature) {
    lightZones(holder, model.view, model.hover ?? model.focus);
    return;
  }
  drawn.set(holder, signature);
  // The keyboard's place survives a re-render (a pointer's focus need not).
  const active = document.activeElement;
  const refocus = active && holder.contains(active) && active.matches(':focus-visible')
    ? active.dataset.index : null;
  fill(holder, drawBoard(model));
  followFocus(holder);
  // Under the pointer, else the cell last pressed or reached by the keys.
  lightZones(holder, model.view, model.hover ?? model.focus);
  if (refocus !== null && refocus !== undefined) {
    const cell = holder.querySelector(`g.cell[data-index="${refocus}"]`);
    if (cell) cell.focus({ preventScroll: true });
  }
}

function classesOf(cell) {
  const classes = ['cell'];
  if (cell.clue) classes.push('clue');
  if (cell.owner === 'b' || cell.owner === 'r') classes.push(`own-${cell.owner}`);
  if (cell.empty) classes.push('empty');
  if (cell.candidate) classes.push('cand');
  if (cell.selected) classes.push('sel');
  if (cell.last) classes.push('last');
  if (cell.playable) classes.push('playable');
  return classes.join(' ');
}

function drawCell(view, cell, at, digit) {
  const [x, y] = at.centre(cell.r, cell.c);
  const label = cellLabel(cell, digit);
  const group = s('g', {
    class: classesOf(cell),
    // One tab stop for the whole board; the arrow keys move between cells.
    tabindex: cell.focusable ? 0 : -1,
    role: 'button',
    'aria-label': label,
    dataset: {
      index: cell.index, r: cell.r, c: cell.c, block: view.blocks[cell.index],
      digit: cell.digit === '.' ? '' : cell.digit, owner: cell.owner === '.' ? '' : cell.owner,
      clue: cell.clue ? '1' : '0', candidate: cell.candidate ? '1' : '0',
    },
  }, s('title', {}, label), s('polygon', { points: pts(hexagon(x, y)) }));
  if (cell.digit !== '.') {
    group.append(s('text', { class: 'digit', x: fixed(x), y: fixed(y + 1) }, cell.digit));
  } else if (cell.solution) {
    group.append(s('text', { class: 'digit solution', x: fixed(x), y: fixed(y + 1) }, cell.solution));
  }
  if (cell.clue) {
    // Clue marker: a small notch at the top of the cell (filled once taken).
    group.append(s('circle', { class: 'clue-mark', cx: fixed(x), cy: fixed(y - R * 0.66), r: 3.2 }));
  }
  const mark = ownerMark(cell);
  if (mark) {
    // Whose it is by shape as well as by colour: a dot for Blue, a square for Red.
    const low = y + R * 0.62;
    group.append(mark === 'dot'
      ? s('circle', { class: 'own-mark b', cx: fixed(x), cy: fixed(low), r: 3.8 })
      : s('rect', { class: 'own-mark r', x: fixed(x - 3.5), y: fixed(low - 3.5), width: 7, height: 7 }));
  }
  return group;
}

function drawBoard(model) {
  const { view } = model;
  const n = view.size;
  const at = layout(n, Boolean(model.turned));
  const { width, height } = at.size;
  const svg = s('svg', {
    class: `board size-${n} ${view.variant}${at.turned ? ' turned' : ''}`,
    viewBox: `${-PAD} ${-PAD} ${(width + 2 * PAD).toFixed(1)} ${(height + 2 * PAD).toFixed(1)}`,
    role: 'group',
    'aria-label': t('board.label', { variant: variantName(view.variant), size: n }),
  });
  const cells = s('g', { class: 'cells' });
  const lines = s('g', { class: 'lines' });
  const overlay = s('g', { class: 'overlay' });
  const labels = s('g', { class: 'labels' });
  const domains = view.variant === 'domains';
  const decided = decidedBlocks(view);
  const won = winnerBlocks(view);

  for (const cell of cellStates(model)) {
    cells.append(drawCell(view, cell, at, model.digit));
    const hex = hexagon(...at.centre(cell.r, cell.c));
    drawEdges(lines, view, cell.r, cell.c, hex, domains, at);
    const block = view.blocks[cell.index];
    if (decided && decided.get(block) !== '.') {
      drawOutline(overlay, view, cell.r, cell.c, decided.get(block), won.has(block), at);
    }
  }

  const path = winningPath(view);
  if (path) {
    overlay.append(s('polyline', { class: `win-path ${view.result.winner}`, points: pts(path.map(([r, c]) => at.centre(r, c))) }));
  }

  // Mistakes: the wrong digit on red, fading out (for both players).
  const now = Date.now();
  for (const flash of model.flashes || []) {
    const [x, y] = at.centre(...cellOf(flash.index, n));
    const mark = s('g', { class: `flash${flash.still ? ' still' : ''}`, dataset: { index: flash.index } },
      s('polygon', { points: pts(hexagon(x, y, R - 1)) }),
      s('text', { class: 'digit', x: fixed(x), y: fixed(y + 1) }, String(flash.digit)));
    if (!flash.still) mark.style.animationDelay = `${-(now - flash.at)}ms`;
    overlay.append(mark);
  }

  // Coordinates: column numbers beside the first row, row numbers beside the first column.
  // Counted from 1, as the rule pages count rows and columns (the wire's cells stay 0-based).
  for (let c = 0; c < n; c++) {
    const [x, y] = at.columnLabel(c);
    labels.append(s('text', { class: 'label', x: fixed(x), y: fixed(y) }, String(c + 1)));
  }
  for (let r = 0; r < n; r++) {
    const [x, y] = at.rowLabel(r);
    labels.append(s('text', { class: 'label', x: fixed(x), y: fixed(y) }, String(r + 1)));
  }

  // The keyboard's focus, painted last: a cell's own outline lies under its neighbours'
  // edges and the block lines, so the ring is a node of its own above them all.
  const ring = s('g', { class: 'focus-ring', 'aria-hidden': 'true', visibility: 'hidden' },
    s('polygon', { class: 'focus-halo' }), s('polygon', { class: 'focus-line' }));
  svg.append(cells, lines, overlay, labels, ring);
  return svg;
}

/** The ring over cell `cell` (an element of the board), or hidden (null). */
function placeRing(holder, cell) {
  const ring = holder.querySelector('g.focus-ring');
  if (!ring) return;
  const polygon = cell && cell.querySelector('polygon');
  if (!polygon) {
    ring.setAttribute('visibility', 'hidden');
    delete ring.dataset.index;
    return;
  }
  for (const line of ring.children) line.setAttribute('points', polygon.getAttribute('points'));
  ring.dataset.index = cell.dataset.index;
  ring.setAttribute('visibility', 'visible');
}

// The holders whose ring follows the focus already.
const ringed = new WeakSet();

/** The focus ring follows the keyboard's focus among the cells (never a pointer's). */
function followFocus(holder) {
  if (ringed.has(holder)) return;
  ringed.add(holder);
  holder.addEventListener('focusin', (event) => {
    const cell = event.target.closest && event.target.closest('g.cell');
    placeRing(holder, cell && cell.matches(':focus-visible') ? cell : null);
  });
  holder.addEventListener('focusout', (event) => {
    if (!holder.contains(event.relatedTarget)) placeRing(holder, null);
  });
}

function segment([x1, y1], [x2, y2]) {
  return { x1: fixed(x1), y1: fixed(y1), x2: fixed(x2), y2: fixed(y2) };
}

/** The board's edge (Bridge/Blitz: coloured by whose side it is) and block boundaries. */
function drawEdges(lines, view, r, c, hex, domains, at) {
  const n = view.size;
  const i = indexOf(r, c, n);
  for (let k = 0; k < 6; k++) {
    const [dr, dc] = at.across(k);
    const nr = r + dr;
    const nc = c + dc;
    const seg = segment(hex[k], hex[(k + 1) % 6]);
    if (!inBoard(nr, nc, n)) {
      lines.append(s('line', { class: domains ? 'edge' : `side ${sideOf(nr, n)}`, ...seg }));
    } else if (indexOf(nr, nc, n) > i && view.blocks[indexOf(nr, nc, n)] !== view.blocks[i]) {
      lines.append(s('line', { class: 'blockline', ...seg }));
    }
  }
}

/** Domains: a decided block outlined just inside its boundary in its owner's colour. */
function drawOutline(overlay, view, r, c, owner, won, at) {
  const n = view.size;
  const block = view.blocks[indexOf(r, c, n)];
  const [x, y] = at.centre(r, c);
  const inner = [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k, R - 4.5));
  for (let k = 0; k < 6; k++) {
    const [dr, dc] = at.across(k);
    const nr = r + dr;
    const nc = c + dc;
    if (inBoard(nr, nc, n) && view.blocks[indexOf(nr, nc, n)] === block) continue;
    overlay.append(s('line', {
      class: `outline ${owner}${won ? ' won' : ''}`, ...segment(inner[k], inner[(k + 1) % 6]),
    }));
  }
}

/** Light the row, the column and the block of cell `index` (null: none). */
export function lightZones(holder, view, index) {
  const cells = holder.querySelectorAll('g.cell');
  for (const cell of cells) cell.classList.remove(...ZONE_CLASSES);
  if (index === null || index === undefined || !view || index >= cells.length) return;
  const { row, column, block } = zonesOf(index, view.size, view.blocks);
  const mark = (indices, cls) => {
    for (const i of indices) cells[i].classList.add('zone', cls);
  };
  mark(row, 'zone-row');
  mark(column, 'zone-column');
  mark(block, 'zone-block');
  cells[index].classList.add('zone-focus');
}

/** Move the board's one tab stop to cell `index` and focus it. */
export function focusCell(holder, index) {
  const cell = holder.querySelector(`g.cell[data-index="${index}"]`);
  if (!cell) return;
  for (const other of holder.querySelectorAll('g.cell[tabindex="0"]')) other.setAttribute('tabindex', '-1');
  cell.setAttribute('tabindex', '0');
  cell.focus();
}
