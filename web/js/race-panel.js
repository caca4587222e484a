/* How close each side is, beside the clocks (Bridge and Blitz): each side's fewest cells
 * still to claim (race.js) on the board as drawn — the live game's, or the replay's step —
 * and, on request, the viewer's cheapest chain drawn over the board (a spectator picks a
 * side). Domains shows none: its block table says it. The panel is built once and updated
 * in place, so a button keeps the keyboard's focus across renders. */

import { $, fill, h, s } from './dom.js';
import { cellText, SEATS, seatName } from './format.js';
import { R, cellOf, hexagon, layout, pts } from './geometry.js';
import { t } from './i18n.js';
import { cellsToClaim, distances, hasRace, shortestChain } from './race.js';

/** What a side's count says in words (for the screen reader and the tooltip). */
function sentence(seat, count) {
  if (count === null) return t(`race.${seat}_cut`);
  if (count === 0) return t(`race.${seat}_connected`);
  return t(`race.${seat}_needs`, { count });
}

// The visible count: a number, or a dash for a side cut off.
const shown = (count) => (count === null ? '—' : String(count));

/** The side whose chain is drawn: a player's own (their button is on or off), a
 * spectator's pick; null: none. */
function pathSeat(ui, you) {
  if (!ui.racePath) return null;
  if (you) return you;
  return SEATS.includes(ui.racePath) ? ui.racePath : null;
}

function build(holder, spectator, ui, render) {
  holder.dataset.mode = spectator ? 'spectator' : 'player';
  // `ui.racePath`: 'own' (a player's), 'blue' or 'red' (a spectator's pick), or null.
  const press = (side) => {
    ui.racePath = ui.racePath === side ? null : side;
    render();
  };
  const seatButton = (seat) => h('button', {
    type: 'button', class: `race-path small${seat ? ` ${seat}` : ''}`, dataset: { seat }, 'aria-pressed': 'false',
    onclick: () => press(seat || 'own'),
  });
  fill(holder,
    h('span', { class: 'race-counts' },
      h('span', { class: 'race-said sr-only' }),
      h('span', { class: 'race-shown', 'aria-hidden': 'true' },
        h('span', { class: 'race-needs' }), ' ',
        ...SEATS.flatMap((seat, k) => [k ? ' · ' : null,
          h('span', { class: 'race-count', dataset: { seat } }, h('span', { class: `seat-dot ${seat}` }),
            h('span', { class: 'num' }))]))),
    spectator ? SEATS.map(seatButton) : seatButton(null),
    h('span', { class: 'race-cells sr-only', 'aria-live': 'polite' }));
}

/**
 * Draw the race for `view` (the board's, as drawn) into #race and the chain of
 * `ui.racePath`'s side over #board. `you`: the viewer's seat (null: watching);
 * `turned`: the board lies turned (geometry.js `layout`); `render` draws the page again
 * (a path button pressed).
 */
export function renderRace({ view, you, ui, turned, render }) {
  const holder = $('#race');
  if (!holder) return;
  const board = $('#board');
  if (!view || !hasRace(view)) {
    holder.hidden = true;
    drawChain(board, null);
    return;
  }
  holder.hidden = false;
  const spectator = !you;
  if (holder.dataset.mode !== (spectator ? 'spectator' : 'player')) build(holder, spectator, ui, render);
  holder.setAttribute('aria-label', t('race.label'));
  const counts = distances(view);
  const said = SEATS.map((seat) => sentence(seat, counts[seat])).join(' ');
  holder.querySelector('.race-said').textContent = said;
  holder.querySelector('.race-counts').title = said;
  holder.querySelector('.race-needs').textContent = t('race.needs');
  for (const node of holder.querySelectorAll('.race-count')) {
    node.querySelector('.num').textContent = shown(counts[node.dataset.seat]);
  }
  holder.dataset.blue = shown(counts.blue);
  holder.dataset.red = shown(counts.red);
  const seat = pathSeat(ui, you);
  for (const button of holder.querySelectorAll('button.race-path')) {
    const side = button.dataset.seat || you;
    button.textContent = spectator ? t(`race.path_${side}`) : t('race.show_path');
    button.title = t('race.path_title');
    button.setAttribute('aria-pressed', String(seat === side));
    button.disabled = counts[side] === null;
  }
  const chain = seat && counts[seat] !== null ? shortestChain(view, seat) : null;
  const cells = holder.querySelector('.race-cells');
  const toClaim = chain ? cellsToClaim(view, chain) : [];
  const words = chain ? t('race.path_cells', {
    side: seatName(seat), count: toClaim.length,
    cells: toClaim.map((i) => cellText(cellOf(i, view.size))).join(', '),
  }) : '';
  if (cells.textContent !== words) cells.textContent = words;
  drawChain(board, chain && { view, seat, chain, toClaim, turned });
}

/**
 * The chain over the board's SVG, above the cells and under the labels and the focus
 * ring: a line through its cells and a dashed ring in each cell still to claim. Redrawn
 * on every render (the board may have been drawn anew, or kept as it was).
 */
function drawChain(board, drawn) {
  const svg = board && board.querySelector('svg.board');
  if (!svg) return;
  const old = svg.querySelector('g.race-chain');
  if (old) old.remove();
  if (!drawn) return;
  const { view, seat, chain, toClaim, turned } = drawn;
  const at = layout(view.size, Boolean(turned));
  const centreOf = (i) => at.centre(...cellOf(i, view.size));
  const group = s('g', { class: `race-chain ${seat}`, 'aria-hidden': 'true', dataset: { seat, length: chain.length } },
    s('polyline', { class: 'race-line', points: pts(chain.map(centreOf)) }),
    toClaim.map((i) => s('polygon', {
      class: 'race-need', dataset: { index: i }, points: pts(hexagon(...centreOf(i), R * 0.62)),
    })));
  const labels = svg.querySelector('g.labels');
  if (labels) labels.before(group);
  else svg.append(group);
}
