/* How close each side is in Bridge and Blitz (RULES.md §10): the fewest cells a side
 * still has to claim to join its two edges, on the board as the viewer sees it. Blue
 * joins the top and bottom rows, red the left and right columns; a side's own cells cost
 * nothing, a free cell (empty, or a clue nobody has taken) one, the opponent's cells are
 * walls. The bot and the coach count the same way (numbridge/bot/hex_distance.py): the
 * Node tests hold both to the same answers on the same positions
 * (test/fixtures/race/, written by tools/race_fixture.py).
 *
 * Pure: no DOM, no clock; the page draws the counts and the chain (race-panel.js). */

import { cellOf, indexOf, neighbours } from './geometry.js';

const MARK = { blue: 'b', red: 'r' };
const FREE = '.';
const WALL = Infinity;
// A chain's weight: free cells first, then cells in all (a board has at most 81), so
// that of the cheapest chains the one drawn is the shortest to look at.
const PER_FREE = 1000;

/** Bridge and Blitz have a race to show; Domains has its block table instead. */
export const hasRace = (view) => Boolean(view) && (view.variant === 'bridge' || view.variant === 'blitz');

// The six-neighbour adjacency of an n×n board, by cell index (geometry.js `neighbours`).
const adjacency = new Map();
function neighbourIndexes(n) {
  if (!adjacency.has(n)) {
    const lists = [];
    for (let i = 0; i < n * n; i++) {
      const [r, c] = cellOf(i, n);
      lists.push(neighbours(r, c, n).map(([nr, nc]) => indexOf(nr, nc, n)));
    }
    adjacency.set(n, lists);
  }
  return adjacency.get(n);
}

/** A side's two edges, as cell indexes: blue rows 0 and n−1, red columns 0 and n−1. */
export function edges(seat, n) {
  const first = [];
  const second = [];
  for (let k = 0; k < n; k++) {
    first.push(seat === 'blue' ? indexOf(0, k, n) : indexOf(k, 0, n));
    second.push(seat === 'blue' ? indexOf(n - 1, k, n) : indexOf(k, n - 1, n));
  }
  return [first, second];
}

function costs(view, seat) {
  const mine = MARK[seat];
  return Array.from(view.owners, (owner) => (owner === mine ? 0 : owner === FREE ? 1 : WALL));
}

/** The fewest free cells `seat` still needs to connect: 0 connected, null cut off. */
export function distance(view, seat) {
  const n = view.size;
  const cost = costs(view, seat);
  const [first, second] = edges(seat, n);
  const links = neighbourIndexes(n);
  // 0-1 breadth-first search from the first edge: the cheapest chain to each cell.
  const dist = new Array(n * n).fill(WALL);
  const queue = [];
  for (const i of first) {
    if (cost[i] === WALL) continue;
    dist[i] = cost[i];
    if (cost[i]) queue.push(i);
    else queue.unshift(i);
  }
  while (queue.length) {
    const i = queue.shift();
    for (const j of links[i]) {
      const reach = dist[i] + cost[j];
      if (reach < dist[j]) {
        dist[j] = reach;
        if (cost[j]) queue.push(j);
        else queue.unshift(j);
      }
    }
  }
  const best = Math.min(...second.map((i) => dist[i]));
  return best === WALL ? null : best;
}

/** Both sides' counts: `{blue, red}`, each a number of cells, or null when cut off. */
export function distances(view) {
  return { blue: distance(view, 'blue'), red: distance(view, 'red') };
}

/**
 * One cheapest chain of `seat` from its first edge to its second, as cell indexes in
 * order (own cells and the free cells still to claim); [] when the side is cut off. Its
 * free cells number exactly `distance(view, seat)`. Of the cheapest chains, one with the
 * fewest cells; ties go to the lowest cell index, so the same board draws the same chain.
 */
export function shortestChain(view, seat) {
  const n = view.size;
  const cost = costs(view, seat);
  const [first, second] = edges(seat, n);
  const links = neighbourIndexes(n);
  const weight = cost.map((c) => (c === WALL ? WALL : c * PER_FREE + 1));
  const dist = new Array(n * n).fill(WALL);
  const from = new Array(n * n).fill(-1);
  const done = new Array(n * n).fill(false);
  for (const i of first) dist[i] = weight[i];
  // Dijkstra by scanning: 81 cells at most, no heap needed.
  for (;;) {
    let i = -1;
    for (let k = 0; k < n * n; k++) if (!done[k] && dist[k] < WALL && (i < 0 || dist[k] < dist[i])) i = k;
    if (i < 0) break;
    done[i] = true;
    for (const j of links[i]) {
      const reach = dist[i] + weight[j];
      if (reach < dist[j]) {
        dist[j] = reach;
        from[j] = i;
      }
    }
  }
  let end = -1;
  for (const i of second) if (dist[i] < WALL && (end < 0 || dist[i] < dist[end])) end = i;
  if (end < 0) return [];
  const chain = [];
  for (let i = end; i >= 0; i = from[i]) chain.push(i);
  return chain.reverse();
}

/** The chain's cells still to claim (free: nobody owns them). */
export const cellsToClaim = (view, chain) => chain.filter((i) => view.owners[i] === FREE);
