/* The board's geometry (docs/rules.md §2): axial cells, hexagons, zones, blocks.
 * Pure functions, no DOM: the board renderer and the reducer both use them. */

export const R = 30; // hex radius (centre to corner), SVG units
export const W = Math.sqrt(3) * R; // hex width (pointy top)
export const ROW = 1.5 * R; // row pitch

// Edge i runs from corner i to corner i+1 (corner 0 at the top, clockwise);
// the neighbour across it, as [dr, dc] (the rules' six neighbours).
export const EDGE_NEIGHBOUR = [[-1, 1], [0, 1], [1, 0], [1, -1], [0, -1], [-1, 0]];

export const indexOf = (r, c, n) => r * n + c;
export const cellOf = (i, n) => [Math.floor(i / n), i % n];
export const inBoard = (r, c, n) => r >= 0 && c >= 0 && r < n && c < n;

/** Centre of cell (r, c): each row is shifted half a cell right of the one above. */
export function centre(r, c) {
  return [W / 2 + W * (c + r / 2), R + ROW * r];
}

export function corner(x, y, i, radius = R) {
  const angle = (Math.PI / 180) * (60 * i - 90);
  return [x + radius * Math.cos(angle), y + radius * Math.sin(angle)];
}

export const hexagon = (x, y, radius = R) => [0, 1, 2, 3, 4, 5].map((k) => corner(x, y, k, radius));

export const pts = (points) => points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ');

/** The board's extent in SVG units (without padding). */
export function boardSize(n) {
  return { width: W * (n + (n - 1) / 2), height: 2 * R + ROW * (n - 1) };
}

/**
 * How the board lies on the screen. `flat`: as the rules draw it, rows across and each
 * row half a cell right of the one above (a wide rhombus: a desktop, a phone on its
 * side). `turned`: the same board a sixth of a turn clockwise, its long diagonal upright
 * (a tall rhombus that fills a portrait phone, docs/client.md): rows run down to the
 * right and columns down to the left; hexagons stay pointy-top either way (a sixth of a
 * turn maps the hexagon onto itself). Cell (0,0) is at the left end of the top edge
 * flat, at the top corner turned.
 *
 * `centre(r, c)` a cell's centre, `size` the extent, `across(k)` the [dr, dc] of the
 * neighbour across edge k of a drawn hexagon (corner k to k+1), `rowLabel(r)` and
 * `columnLabel(c)` where the coordinates are written, just outside the edge they begin
 * at.
 */
export function layout(n, turned = false) {
  if (!turned) {
    return {
      turned,
      centre,
      size: boardSize(n),
      across: (k) => EDGE_NEIGHBOUR[k],
      columnLabel: (c) => [centre(0, c)[0], R - ROW - 2],
      rowLabel: (r) => [centre(r, 0)[0] - W / 2 - 15, centre(r, 0)[1]],
    };
  }
  const at = (r, c) => [W / 2 + (W * (n - 1 + c - r)) / 2, R + ROW * (r + c)];
  const outside = ([x, y], [dx, dy]) => [x + dx, y + dy];
  return {
    turned,
    centre: at,
    size: { width: W * n, height: 2 * R + 2 * ROW * (n - 1) },
    // Drawn edge k is where the flat hexagon's edge k-1 was.
    across: (k) => EDGE_NEIGHBOUR[(k + 5) % 6],
    // Midway between the two cells just off the edge: straight out from the edge.
    columnLabel: (c) => outside(at(0, c), [0.75 * W, -ROW / 2]),
    rowLabel: (r) => outside(at(r, 0), [-0.75 * W, -ROW / 2]),
  };
}

export function neighbours(r, c, n) {
  return EDGE_NEIGHBOUR.map(([dr, dc]) => [r + dr, c + dc]).filter(([nr, nc]) => inBoard(nr, nc, n));
}

/** The sudoku's three zones of a cell: its row, its (slanted) column and its block, as indices. */
export function zonesOf(index, n, blocks) {
  const [r, c] = cellOf(index, n);
  const row = [];
  const column = [];
  const block = [];
  for (let k = 0; k < n; k++) {
    row.push(indexOf(r, k, n));
    column.push(indexOf(k, c, n));
  }
  for (let i = 0; i < n * n; i++) if (blocks[i] === blocks[index]) block.push(i);
  return { row, column, block };
}

/** Domains: each block's owner, 'b', 'r' or '.' (nobody has a majority yet), by block id. */
export function blockOwners(n, blocks, owners) {
  const counts = new Map();
  for (let i = 0; i < n * n; i++) {
    const id = blocks[i];
    if (!counts.has(id)) counts.set(id, { b: 0, r: 0, size: 0 });
    const count = counts.get(id);
    count.size += 1;
    if (owners[i] === 'b' || owners[i] === 'r') count[owners[i]] += 1;
  }
  const result = new Map();
  for (const [id, count] of counts) {
    const majority = Math.floor(count.size / 2) + 1;
    result.set(id, count.b >= majority ? 'b' : count.r >= majority ? 'r' : '.');
  }
  return result;
}

/** The marks in block-id order (the view's `block_owners`) and the table they make. */
export function blockSummary(n, blocks, owners) {
  const byBlock = blockOwners(n, blocks, owners);
  const ids = [...byBlock.keys()].sort((a, b) => Number(a) - Number(b));
  const marks = ids.map((id) => byBlock.get(id)).join('');
  const blue = [...marks].filter((m) => m === 'b').length;
  const red = [...marks].filter((m) => m === 'r').length;
  return { marks, table: { blue, red, undecided: marks.length - blue - red } };
}
