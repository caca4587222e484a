"""Goals (RULES.md §7, §9, §10): connections in Bridge/Blitz, block majorities in Domains.

Bridge/Blitz: blue joins row r=0 to row r=N-1, red joins column c=0 to
column c=N-1, through chains of six-neighbours; corner cells lie on two sides.
Domains: a block belongs to whoever owns a majority of its cells (5 of 9); the
game ends as soon as mine > theirs + undecided.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from functools import cache
from operator import itemgetter

from numbridge.rules.seats import NOBODY
from numbridge.values import frozen

from .counts import BlockCounts
from .geometry import Layout, cell_of, column_cells, neighbours, row_cells
from .seats import MARK, SEATS, Seat, Variant, other


def _sides(seat: Seat, size: int) -> tuple[tuple[int, ...], frozenset[int]]:
    if seat == "blue":
        return row_cells(0, size), frozenset(row_cells(size - 1, size))
    return column_cells(0, size), frozenset(column_cells(size - 1, size))


def touches(seat: Seat, index: int, size: int) -> tuple[bool, bool]:
    """Whether a cell lies on the seat's first side and on its second side."""
    first, second = _sides(seat, size)
    return index in first, index in second


def connection(owners: Sequence[str], size: int, seat: Seat) -> list[int] | None:
    """A shortest chain of the seat's cells joining its two sides, or None."""
    mark = MARK[seat]
    starts, goal = _sides(seat, size)
    parent: dict[int, int] = {}
    queue: deque[int] = deque()
    for cell in starts:
        if owners[cell] == mark:
            parent[cell] = cell
            queue.append(cell)
    while queue:
        cell = queue.popleft()
        if cell in goal:
            path = [cell]
            while parent[path[-1]] != path[-1]:
                path.append(parent[path[-1]])
            path.reverse()
            return path
        for n in neighbours(cell, size):
            if n not in parent and owners[n] == mark:
                parent[n] = cell
                queue.append(n)
    return None


@frozen
class BlockTable:
    """Domains: the owner of each block (seat or None) and the counts."""

    owners: tuple[Seat | None, ...]
    blue: int
    red: int
    undecided: int

    def count(self, seat: Seat) -> int:
        return self.blue if seat == "blue" else self.red

    def counts(self) -> BlockCounts:
        return BlockCounts(self.blue, self.red, self.undecided)

    def marks(self) -> str:
        """One character per block: 'b', 'r' or '.' (undecided)."""
        return "".join(NOBODY if o is None else MARK[o] for o in self.owners)

    def blocks_of(self, seat: Seat) -> list[int]:
        return [b for b, o in enumerate(self.owners) if o == seat]

    def winner(self) -> Seat | None:
        """The early end: the seat that has more blocks than the other could reach."""
        for seat in SEATS:
            if self.count(seat) > self.count(other(seat)) + self.undecided:
                return seat
        return None


@cache
def _block_getters(layout: Layout) -> tuple[Callable[[Sequence[str]], tuple[str, ...]], ...]:
    """One getter per block, picking that block's cells out of an owners string."""
    return tuple(itemgetter(*layout.block_cells(b)) for b in range(layout.size))


def block_table(owners: Sequence[str], layout: Layout) -> BlockTable:
    majority = layout.size // 2 + 1
    table: list[Seat | None] = []
    for getter in _block_getters(layout):
        marks = getter(owners)
        if marks.count("b") >= majority:
            table.append("blue")
        elif marks.count("r") >= majority:
            table.append("red")
        else:
            table.append(None)
    blue = table.count("blue")
    red = table.count("red")
    return BlockTable(tuple(table), blue, red, len(table) - blue - red)


@frozen
class GoalReached:
    """Who reached the goal and how: the chain (Bridge/Blitz) or the blocks (Domains)."""

    winner: Seat
    path: tuple[tuple[int, int], ...] | None = None
    blocks: tuple[int, ...] | None = None
    table: BlockTable | None = None


def goal_reached(
    variant: Variant, owners: Sequence[str], layout: Layout, mover: Seat
) -> GoalReached | None:
    """Whether the variant's goal is reached; the mover is checked first."""
    size = layout.size
    if variant == "domains":
        table = block_table(owners, layout)
        winner = table.winner()
        if winner is None:
            return None
        return GoalReached(winner, blocks=tuple(table.blocks_of(winner)), table=table)
    for seat in (mover, other(mover)):
        path = connection(owners, size, seat)
        if path is not None:
            return GoalReached(seat, path=tuple(cell_of(i, size) for i in path))
    return None
