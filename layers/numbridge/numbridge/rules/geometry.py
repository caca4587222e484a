"""Board geometry: an NxN hex rhombus in axial coordinates (RULES.md §2).

Cells are addressed by index ``r*N + c``. Blocks come from a *layout* (a block
id per cell), so regular and irregular blocks are the same code.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from functools import cache, lru_cache

from numbridge.values import frozen

SIZES = (6, 9)

# The six neighbours of (r, c) as (dr, dc) steps.
NEIGHBOUR_STEPS: tuple[tuple[int, int], ...] = (
    (0, -1),
    (0, 1),
    (-1, 0),
    (-1, 1),
    (1, -1),
    (1, 0),
)

# Regular block shape (rows, columns) per board size.
REGULAR_BLOCK_SHAPE: dict[int, tuple[int, int]] = {9: (3, 3), 6: (2, 3)}


class InvalidLayout(ValueError):
    """A layout that cannot be a Numbridge board (wrong sizes, disconnected block...)."""


def check_size(size: int) -> None:
    if size not in SIZES:
        raise InvalidLayout(f"board size must be one of {SIZES}, not {size}")


def index_of(r: int, c: int, size: int) -> int:
    return r * size + c


def cell_of(index: int, size: int) -> tuple[int, int]:
    return divmod(index, size)


def on_board(r: int, c: int, size: int) -> bool:
    return 0 <= r < size and 0 <= c < size


@cache
def neighbours(index: int, size: int) -> tuple[int, ...]:
    """The (up to six) neighbouring cell indexes of a cell."""
    r, c = cell_of(index, size)
    return tuple(
        index_of(r + dr, c + dc, size)
        for dr, dc in NEIGHBOUR_STEPS
        if on_board(r + dr, c + dc, size)
    )


@cache
def row_cells(r: int, size: int) -> tuple[int, ...]:
    return tuple(index_of(r, c, size) for c in range(size))


@cache
def column_cells(c: int, size: int) -> tuple[int, ...]:
    """A slanted column: constant c, running down and to the right."""
    return tuple(index_of(r, c, size) for r in range(size))


def regular_block_id(r: int, c: int, size: int) -> int:
    rows, cols = REGULAR_BLOCK_SHAPE[size]
    return (r // rows) * (size // cols) + c // cols


@frozen
class Layout:
    """Which block each cell belongs to; ``blocks[i]`` is the block id of cell i."""

    size: int
    blocks: tuple[int, ...]

    @classmethod
    def regular(cls, size: int) -> Layout:
        check_size(size)
        return cls(
            size,
            tuple(regular_block_id(r, c, size) for r in range(size) for c in range(size)),
        )

    @classmethod
    def from_string(cls, text: str) -> Layout:
        """Parse NxN block ids (``0``…``N-1``) in index order and validate them."""
        size = {36: 6, 81: 9}.get(len(text))
        if size is None:
            raise InvalidLayout(f"a layout has 36 or 81 block ids, not {len(text)}")
        if not text.isdigit():
            raise InvalidLayout("a layout holds only the digits 0…N-1")
        layout = cls(size, tuple(int(ch) for ch in text))
        validate_layout(layout)
        return layout

    def to_string(self) -> str:
        return _layout_string(self.blocks)

    def block_cells(self, block: int) -> tuple[int, ...]:
        return tuple(i for i, b in enumerate(self.blocks) if b == block)

    def units(self) -> Iterator[tuple[int, ...]]:
        """Every row, column and block: the groups in which each digit appears once."""
        for k in range(self.size):
            yield row_cells(k, self.size)
            yield column_cells(k, self.size)
            yield self.block_cells(k)

    def peers(self, index: int) -> frozenset[int]:
        """Cells sharing a row, column or block with ``index`` (itself excluded)."""
        r, c = cell_of(index, self.size)
        group = set(row_cells(r, self.size)) | set(column_cells(c, self.size))
        group |= set(self.block_cells(self.blocks[index]))
        group.discard(index)
        return frozenset(group)


@lru_cache(maxsize=512)
def _layout_string(blocks: tuple[int, ...]) -> str:
    return "".join(str(b) for b in blocks)


def is_connected(cells: tuple[int, ...] | frozenset[int], size: int) -> bool:
    """Whether the cells form one group under the six-neighbour adjacency."""
    members = set(cells)
    if not members:
        return False
    start = next(iter(members))
    seen = {start}
    queue = deque([start])
    while queue:
        for n in neighbours(queue.popleft(), size):
            if n in members and n not in seen:
                seen.add(n)
                queue.append(n)
    return len(seen) == len(members)


def validate_layout(layout: Layout) -> None:
    """Raise :class:`InvalidLayout` unless there are N connected blocks of N cells."""
    size = layout.size
    check_size(size)
    if len(layout.blocks) != size * size:
        raise InvalidLayout(f"a {size}x{size} layout has {size * size} cells")
    for block in range(size):
        cells = layout.block_cells(block)
        if len(cells) != size:
            raise InvalidLayout(f"block {block} has {len(cells)} cells, not {size}")
        if not is_connected(cells, size):
            raise InvalidLayout(f"block {block} is not connected")
    stray = set(layout.blocks) - set(range(size))
    if stray:
        raise InvalidLayout(f"block ids must be 0…{size - 1}, found {sorted(stray)}")


@cache
def peer_table(layout: Layout) -> tuple[frozenset[int], ...]:
    """``peer_table(layout)[i] == layout.peers(i)`` for every cell, computed once per layout."""
    size = layout.size
    blocks: dict[int, set[int]] = {}
    for i, b in enumerate(layout.blocks):
        blocks.setdefault(b, set()).add(i)
    table = []
    for i in range(size * size):
        r, c = cell_of(i, size)
        group = set(row_cells(r, size)) | set(column_cells(c, size)) | blocks[layout.blocks[i]]
        group.discard(i)
        table.append(frozenset(group))
    return tuple(table)


@lru_cache(maxsize=512)
def parse_layout(text: str) -> Layout:
    """:meth:`Layout.from_string`, cached (a game's layout is parsed on every load)."""
    return Layout.from_string(text)
