"""Irregular layouts: random partitions of the board into N connected blocks of N cells."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

from numbridge.rules.geometry import Layout, check_size, neighbours

if TYPE_CHECKING:
    from numbridge.puzzles.sat import Engine

REGION_TRIES = 20
MAX_PARTITION_TRIES = 10_000
MAX_LAYOUT_TRIES = 1_000
LAYOUT_CONFLICTS = 1_000


def _components(free: set[int], size: int) -> list[int]:
    """Sizes of the connected groups of ``free`` cells."""
    seen: set[int] = set()
    sizes = []
    for start in free:
        if start in seen:
            continue
        seen.add(start)
        stack = [start]
        count = 0
        while stack:
            cell = stack.pop()
            count += 1
            for nb in neighbours(cell, size):
                if nb in free and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        sizes.append(count)
    return sizes


def _grow(seed: int, free: set[int], size: int, rng: random.Random) -> list[int] | None:
    """A random connected region of ``size`` free cells containing ``seed``."""
    region = [seed]
    inside = {seed}
    frontier = [nb for nb in neighbours(seed, size) if nb in free]
    while len(region) < size:
        frontier = [c for c in frontier if c not in inside]
        if not frontier:
            return None
        cell = frontier[rng.randrange(len(frontier))]
        region.append(cell)
        inside.add(cell)
        frontier.extend(nb for nb in neighbours(cell, size) if nb in free and nb not in inside)
    return region


def _symmetric(blocks: list[int], size: int, which: int) -> list[int]:
    """``blocks`` under one of the four symmetries of the rhombus that keep the six
    neighbours (and map rows and columns to rows or columns): identity, half turn,
    and the reflections in both diagonals."""
    out = [0] * len(blocks)
    last = size - 1
    for index, block in enumerate(blocks):
        r, c = divmod(index, size)
        if which & 1:
            r, c = last - r, last - c
        if which & 2:
            r, c = c, r
        out[r * size + c] = block
    return out


def _renumbered(blocks: list[int]) -> tuple[int, ...]:
    """Block ids in order of first appearance, so equal partitions are equal layouts."""
    ids: dict[int, int] = {}
    return tuple(ids.setdefault(b, len(ids)) for b in blocks)


def random_partition(size: int, rng: random.Random) -> Layout:
    """A random partition into ``size`` connected blocks of ``size`` cells (no solvability check).

    Blocks grow one at a time from the first free cell in index order, by random
    frontier cells; a block is redrawn when it would leave free groups whose
    sizes are not multiples of ``size``, and the whole board is redrawn when a
    block cannot be placed. A random symmetry of the board spreads the result.
    """
    check_size(size)
    cells = size * size
    for _ in range(MAX_PARTITION_TRIES):
        blocks = [-1] * cells
        free = set(range(cells))
        for block in range(size):
            seed = min(free)
            for _ in range(REGION_TRIES):
                region = _grow(seed, free, size, rng)
                if region is None:
                    continue
                rest = free.difference(region)
                if all(n % size == 0 for n in _components(rest, size)):
                    break
            else:
                break
            for cell in region:
                blocks[cell] = block
            free = rest
        else:
            return Layout(size, _renumbered(_symmetric(blocks, size, rng.randrange(4))))
    raise RuntimeError("no partition found")  # pragma: no cover - never seen


def solvable_layout(
    size: int, rng: random.Random, deadline: float | None = None
) -> tuple[Layout, Engine]:
    """A random irregular layout that admits a solution, with its (fresh) dealing engine."""
    from numbridge.puzzles.board import DealError
    from numbridge.puzzles.sat import DEAL, Engine

    for _ in range(MAX_LAYOUT_TRIES):
        layout = random_partition(size, rng)
        engine = Engine(layout, DEAL)
        # Some layouts without a solution take the solver long to refute: a
        # layout not solved within a few conflicts is simply replaced.
        if engine.solve_limited([], LAYOUT_CONFLICTS):
            return layout, engine
        if deadline is not None and time.monotonic() > deadline:
            break
    raise DealError(f"no irregular {size}x{size} layout that admits a solution was found")


def random_layout(size: int, rng: random.Random) -> Layout:
    """A random irregular layout: ``size`` connected blocks of ``size`` cells, different
    on every call, that admits a solution (checked with the SAT solver)."""
    return solvable_layout(size, rng)[0]
