/* The board: hexagons in a rhombus (docs/rules.md §2), drawn as SVG from a model.
 *
 * Rendering only reads its model and writes the DOM: it sends nothing, and the page
 * schedules it at most once per animation frame (dom.js `oncePerFrame`). The pointer and
 * the keyboard are reported back through `attachBoard`'s callbacks; lighting the three
 * zones of the cell under the pointer (or with the focus) only toggles classes. */

import { s, fill } from './dom.js';
import { variantName } from './format.js';
import {
  EDGE_NEIGHBOUR, R, W, blockOwners, boardSize, cellOf, centre, corner, hexagon, inBoard, indexOf,
  pts, zonesOf,
} from './geometry.js';

const PAD = 34;
const ZONE_CLASSES = ['zone', 'zone-row', 'zone-column', 'zone-block', 'zone-focus'];
const fixed = (n) => n.toFixed(2);

/**
 * @typedef {object} BoardModel
 * @property {object} view        the game's view
 * @property {number|null} digit  the selected tile's digit
 * @property {Set<number>|null} candidates  cells highlighted for that digit
 * @property {number|null} clue   the selected clue cell
 * @property {string|null} solution  shown under empty cells (a finished game's record)
 * @property {Array} flashes      mistakes still showing: {index, digit, at, still?} (still: no fading, a replay's)
 * @property {number|null} [last]  a replay's cell of the move just shown
 * @property {number|null} hover  the cell whose zones are lit
 * @property {number|null} focus  the cell that takes the keyboard focus
 */

/** Draw the board into `holder` (keeping the keyboard focus on the same cell). */
export function renderBoard(holder, model) {
  if (!model || !model.view) {
    fill(holder);
    return;
  }
  // The keyboard's place survives a re-render (a pointer's focus need not).
  const active = document.activeElement;
  const refocus = active && holder.contains(active) && active.matches(':focus-visible')
    ? active.dataset.index : null;
  const svg = drawBoard(model);
  fill(holder, svg);
  lightZones(holder, model.view, model.hover);
  if (refocus !== null && refocus !== undefined) {
    const cell = holder.querySelector(`g.cell[data-index="${refocus}"]`);
    if (cell) cell.focus({ preventScroll: true });
  }
}

function drawBoard(model) {
  const { view } = model;
  const n = view.size;
  const playing = view.status === 'playing' && Boolean(view.you);
  const myTurn = playing && view.turn === view.you;
  const candidates = model.candidates;
  const { width, height } = boardSize(n);
  const svg = s('svg', {
    class: `board size-${n} ${view.variant}`,
    viewBox: `${-PAD} ${-PAD} ${(width + 2 * PAD).toFixed(1)} ${(height + 2 * PAD).toFixed(1)}`,
    role: 'group',
    'aria-label': `${variantName(view.variant)} board, ${n} by ${n}`,
  });
  const cells = s('g', { class: 'cells' });
  const lines = s('g', { class: 'lines' });
  const overlay = s('g', { class: 'overlay' });
  const labels = s('g', { class: 'labels' });
  const domains = view.variant === 'domains';
  const decided = domains ? blockOwners(n, view.blocks, view.owners) : null;
  const winnerBlocks = new Set(
    domains && view.result && view.result.winner && Array.isArray(view.result.blocks)
      ? view.result.blocks.map(String) : []);
  const focus = model.focus !== null && model.focus !== undefined ? model.focus : 0;

  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const i = indexOf(r, c, n);
      const [x, y] = centre(r, c);
      const hex = hexagon(x, y);
      const isClue = view.clues[i] === '1';
      const owner = view.owners[i];
      const shown = view.digits[i];
      const empty = shown === '.' && !isClue;
      const classes = ['cell'];
      if (isClue) classes.push('clue');
      if (owner === 'b' || owner === 'r') classes.push(`own-${owner}`);
      if (empty) classes.push('empty');
      if (candidates && candidates.has(i)) classes.push('cand');
      if (model.clue === i) classes.push('sel');
      if (model.last === i) classes.push('last');
      if (myTurn && ((empty && model.digit !== null) || (isClue && owner === '.'))) classes.push('playable');
      const whose = owner === 'b' ? 'blue' : owner === 'r' ? 'red' : null;
      const title = `(${r},${c})${isClue ? ' clue' : ''}${shown !== '.' ? ` ${shown}` : ''}${
        whose ? ` — ${whose}` : ''}`;
      const group = s('g', {
        class: classes.join(' '),
        // One tab stop for the whole board; the arrow keys move between cells.
        tabindex: i === focus ? 0 : -1,
        role: 'button',
        'aria-label': title,
        dataset: {
          index: i, r, c, block: view.blocks[i], digit: shown === '.' ? '' : shown, owner: owner === '.' ? '' : owner,
          clue: isClue ? '1' : '0', candidate: candidates && candidates.has(i) ? '1' : '0',
        },
      }, s('title', {}, title), s('polygon', { points: pts(hex) }));
      if (shown !== '.') {
        group.append(s('text', { class: 'digit', x: fixed(x), y: fixed(y + 1) }, shown));
      } else if (model.solution && model.solution[i] && model.solution[i] !== '.') {
        group.append(s('text', { class: 'digit solution', x: fixed(x), y: fixed(y + 1) }, model.solution[i]));
      }
      if (isClue) {
        // Clue marker: a small notch at the top of the cell (filled once taken).
        group.append(s('circle', { class: 'clue-mark', cx: fixed(x), cy: fixed(y - R * 0.66), r: 3.2 }));
      }
      cells.append(group);
      drawEdges(lines, view, r, c, hex, domains);
      if (domains && decided.get(view.blocks[i]) !== '.') {
        drawOutline(overlay, view, r, c, decided.get(view.blocks[i]), winnerBlocks.has(view.blocks[i]));
      }
    }
  }

  // Bridge/Blitz: the winning chain.
  if (!domains && view.result && Array.isArray(view.result.path) && view.result.path.length) {
    const path = view.result.path.map(([r, c]) => centre(r, c));
    overlay.append(s('polyline', { class: `win-path ${view.result.winner}`, points: pts(path) }));
  }

  // Mistakes: the wrong digit on red, fading out (for both players).
  const now = Date.now();
  for (const flash of model.flashes || []) {
    const [r, c] = cellOf(flash.index, n);
    const [x, y] = centre(r, c);
    const mark = s('g', { class: `flash${flash.still ? ' still' : ''}`, dataset: { index: flash.index } },
      s('polygon', { points: pts(hexagon(x, y, R - 1)) }),
      s('text', { class: 'digit', x: fixed(x), y: fixed(y + 1) }, String(flash.digit)));
    if (!flash.still) mark.style.animationDelay = `${-(now - flash.at)}ms`;
    overlay.append(mark);
  }

  // Coordinates: column numbers above the first row, row numbers left of the first column.
  for (let c = 0; c < n; c++) {
    const [x] = centre(0, c);
    labels.append(s('text', { class: 'label', x: fixed(x), y: -17 }, String(c)));
  }
  for (let r = 0; r < n; r++) {
    const [x, y] = centre(r, 0);
    labels.append(s('text', { class: 'label', x: fixed(x - W / 2 - 15), y: fixed(y) }, String(r)));
  }

  svg.append(cells, lines, overlay, labels);
  return svg;
}

function segment([x1, y1], [x2, y2]) {
  return { x1: fixed(x1), y1: fixed(y1), x2: fixed(x2), y2: fixed(y2) };
}

/** The board's edge (Bridge/Blitz: coloured by whose side it is) and block boundaries. */
function drawEdges(lines, view, r, c, hex, domains) {
  const n = view.size;
  const i = indexOf(r, c, n);
  for (let k = 0; k < 6; k++) {
    const [dr, dc] = EDGE_NEIGHBOUR[k];
    const nr = r + dr;
    const nc = c + dc;
    const seg = segment(hex[k], hex[(k + 1) % 6]);
    if (!inBoard(nr, nc, n)) {
      // Blue's sides are the top and bottom rows; red's the left and right columns.
      let side = 'edge';
      if (!domains) side = nr < 0 || nr >= n ? 'side blue' : 'side red';
      lines.append(s('line', { class: side, ...seg }));
    } else if (indexOf(nr, nc, n) > i && view.blocks[indexOf(nr, nc, n)] !== view.blocks[i]) {
      lines.append(s('line', { class: 'blockline', ...seg }));
    }
  }
}

/** Domains: a decided block outlined just inside its boundary in its owner's colour. */
function drawOutline(overlay, view, r, c, owner, won) {
  const n = view.size;
  const block = view.blocks[indexOf(r, c, n)];
  const [x, y] = centre(r, c);
  const inner = [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k, R - 4.5));
  for (let k = 0; k < 6; k++) {
    const [dr, dc] = EDGE_NEIGHBOUR[k];
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

const ARROWS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

/**
 * Listen to the board: `onHover(index|null)` as the pointer or the focus moves over
 * cells, `onActivate(index)` on a click or Enter/Space, `onFocus(index)` when the arrow
 * keys move the focus.
 */
export function attachBoard(holder, { onHover, onActivate, onFocus, size }) {
  const indexOfTarget = (target) => {
    const cell = target && target.closest ? target.closest('g.cell') : null;
    return cell ? Number(cell.dataset.index) : null;
  };
  holder.addEventListener('pointerover', (event) => {
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
    const step = ARROWS[event.key];
    const n = size();
    if (!step || !n) return;
    event.preventDefault();
    const [r, c] = cellOf(index, n);
    const nr = Math.min(n - 1, Math.max(0, r + step[0]));
    const nc = Math.min(n - 1, Math.max(0, c + step[1]));
    const next = indexOf(nr, nc, n);
    onFocus(next);
    const cell = holder.querySelector(`g.cell[data-index="${next}"]`);
    if (cell) {
      for (const other of holder.querySelectorAll('g.cell[tabindex="0"]')) other.setAttribute('tabindex', '-1');
      cell.setAttribute('tabindex', '0');
      cell.focus();
    }
  });
}
