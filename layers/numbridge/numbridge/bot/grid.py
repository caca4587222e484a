"""The sudoku structure of one layout as bitmasks, built once per layout.

A candidate set is an int with bit ``d - 1`` set for each possible digit ``d``;
a set of cells is an int with bit ``i`` set for each cell index ``i``. Units are
the rows, the slanted columns and the blocks (RULES.md §2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from numbridge.rules.geometry import column_cells, parse_layout, row_cells


@dataclass(frozen=True)
class Grid:
    size: int
    blocks: tuple[int, ...]  # block id per cell
    units: tuple[tuple[int, ...], ...]  # rows, then columns, then blocks
    unit_sets: tuple[int, ...]  # each unit as a set of cells
    peers: tuple[tuple[int, ...], ...]  # per cell: the cells sharing a unit with it
    # Pairs of units meeting in two or more cells (a row and a block, ...), as
    # (cells only in the first, cells only in the second, the meeting cells):
    # where "locked candidates" eliminate.
    crossings: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def full(self) -> int:
        """The candidate set of every digit."""
        return (1 << self.size) - 1


@lru_cache(maxsize=64)
def grid_for(blocks: str) -> Grid:
    """The grid of a layout string (the view's ``blocks``)."""
    layout = parse_layout(blocks)
    n = layout.size
    units: list[tuple[int, ...]] = [row_cells(r, n) for r in range(n)]
    units += [column_cells(c, n) for c in range(n)]
    units += [layout.block_cells(b) for b in range(n)]
    unit_sets = tuple(sum(1 << i for i in unit) for unit in units)
    peer_sets: list[set[int]] = [set() for _ in range(n * n)]
    for unit in units:
        for i in unit:
            peer_sets[i].update(unit)
    for i, group in enumerate(peer_sets):
        group.discard(i)
    crossings = []
    for a, first in enumerate(units):
        for second in units[a + 1 :]:
            meet = tuple(i for i in first if i in second)
            if len(meet) >= 2:
                only_first = tuple(i for i in first if i not in meet)
                only_second = tuple(i for i in second if i not in meet)
                crossings.append((only_first, only_second, meet))
    return Grid(
        size=n,
        blocks=layout.blocks,
        units=tuple(units),
        unit_sets=unit_sets,
        peers=tuple(tuple(sorted(group)) for group in peer_sets),
        crossings=tuple(crossings),
    )


def bit(digit: int) -> int:
    return 1 << (digit - 1)


def only_digit(mask: int) -> int:
    """The digit of a one-digit candidate set."""
    return mask.bit_length()

