"""The tests' one sudoku solver: plain backtracking in Python, sharing no code with
``numbridge`` (the units are built here from the board text, straight from
RULES.md §2), so it can judge the code under test.

- :func:`count` — solutions of a board, up to a limit (the puzzle tests' oracle);
- :func:`solve` — the unique solution of a dealt board (the e2e client and the
  load bench solve what they were shown, as a strong player would);
- :func:`fill` — a random full grid of a layout (boards for the rules tests).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

REGULAR_BLOCK = {9: (3, 3), 6: (2, 3)}  # rows x columns of a regular block


def regular_blocks(size: int) -> str:
    rows, cols = REGULAR_BLOCK[size]
    return "".join(str((r // rows) * (size // cols) + c // cols)
                   for r in range(size) for c in range(size))


@cache
def units(size: int, blocks: str | None) -> tuple[tuple[int, ...], ...]:
    """Rows, columns and blocks as tuples of cell indexes ``r*N + c``."""
    n = size
    blocks = blocks or regular_blocks(n)
    out = [tuple(r * n + c for c in range(n)) for r in range(n)]
    out += [tuple(r * n + c for r in range(n)) for c in range(n)]
    out += [tuple(i for i, b in enumerate(blocks) if int(b) == k) for k in range(n)]
    return tuple(out)


@cache
def peers(size: int, blocks: str | None) -> tuple[tuple[int, ...], ...]:
    sets: list[set[int]] = [set() for _ in range(size * size)]
    for unit in units(size, blocks):
        for cell in unit:
            sets[cell].update(unit)
    for cell, s in enumerate(sets):
        s.discard(cell)
    return tuple(tuple(sorted(s)) for s in sets)


def size_of(board: str) -> int:
    return {81: 9, 36: 6}[len(board)]


def solutions(givens: str, blocks: str | None = None,
              rng: random.Random | None = None) -> Iterator[str]:
    """Every solution of ``givens`` (digits, '.' or '0' for empty), one by one.

    Backtracking that branches on the most constrained choice: the empty cell with
    the fewest candidate digits, or the (unit, digit) with the fewest candidate
    cells, whichever has fewer options (as Knuth's Algorithm X does). With ``rng``
    the options are tried in a random order.
    """
    n = size_of(givens)
    near = peers(n, blocks)
    all_units = units(n, blocks)
    grid = [0 if ch in ".0" else int(ch) for ch in givens]
    for cell, digit in enumerate(grid):
        if digit and any(grid[p] == digit for p in near[cell]):
            return
    all_digits = (1 << (n + 1)) - 2  # bits 1..n

    def search() -> Iterator[str]:
        cand = {}
        best: list[tuple[int, int]] = []
        best_count = n + 1
        for cell in range(n * n):
            if grid[cell] == 0:
                used = 0
                for p in near[cell]:
                    used |= 1 << grid[p]
                mask = all_digits & ~used
                cand[cell] = mask
                count = mask.bit_count()
                if count < best_count:
                    best_count = count
                    best = [(cell, d) for d in range(1, n + 1) if mask >> d & 1]
                    if count == 0:
                        return
        if not cand:
            yield "".join(map(str, grid))
            return
        if best_count > 1:
            for unit in all_units:
                placed = 0
                for cell in unit:
                    placed |= 1 << grid[cell]
                for digit in range(1, n + 1):
                    if placed >> digit & 1:
                        continue
                    spots = [c for c in unit if c in cand and cand[c] >> digit & 1]
                    if len(spots) < best_count:
                        best_count = len(spots)
                        best = [(c, digit) for c in spots]
                        if best_count == 0:
                            return
        if rng is not None:
            rng.shuffle(best)
        for cell, digit in best:
            grid[cell] = digit
            yield from search()
            grid[cell] = 0

    yield from search()


def count(givens: str, blocks: str | None = None, limit: int = 2) -> int:
    """How many solutions ``givens`` has, counting up to ``limit``."""
    found = 0
    for _ in solutions(givens, blocks):
        found += 1
        if found >= limit:
            break
    return found


def solve(digits: str, blocks: str | None = None) -> str:
    """The one solution of a board; an AssertionError if it has none or several."""
    found = solutions(digits, blocks)
    first = next(found, None)
    assert first is not None, "the board has no solution"
    assert next(found, None) is None, "the board has more than one solution"
    return first


def fill(blocks: str, rng: random.Random) -> str:
    """A random full grid of a layout (block ids per cell)."""
    first = next(solutions("." * len(blocks), blocks, rng), None)
    assert first is not None, "no solution for this layout"
    return first


def satisfies_units(solution: str, blocks: str | None) -> bool:
    """Every row, column and block holds each digit 1..N exactly once."""
    n = size_of(solution)
    want = {str(d) for d in range(1, n + 1)}
    return all({solution[c] for c in unit} == want for unit in units(n, blocks))
