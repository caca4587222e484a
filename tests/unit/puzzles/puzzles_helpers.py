"""An independent solution counter for the puzzle tests: plain backtracking in Python.

It shares no code with ``numbridge.puzzles`` (nor with ``numbridge.rules``): the
units are built here from the board text, straight from RULES.md §2.
"""

from __future__ import annotations

from functools import cache


@cache
def units(size: int, blocks: str | None) -> tuple[tuple[int, ...], ...]:
    """Rows, columns and blocks as tuples of cell indexes ``r*N + c``."""
    n = size
    if blocks is None:
        rows, cols = {9: (3, 3), 6: (2, 3)}[n]
        blocks = "".join(
            str((r // rows) * (n // cols) + c // cols) for r in range(n) for c in range(n)
        )
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


def count_backtracking(givens: str, blocks: str | None = None, limit: int = 2) -> int:
    """Solutions of ``givens`` (digits, '.' or '0' for empty), counting up to ``limit``.

    Backtracking that branches on the most constrained choice: the empty cell with
    the fewest candidate digits, or the (unit, digit) with the fewest candidate
    cells, whichever has fewer options (as Knuth's Algorithm X does).
    """
    n = {81: 9, 36: 6}[len(givens)]
    near = peers(n, blocks)
    all_units = units(n, blocks)
    grid = [0 if ch in ".0" else int(ch) for ch in givens]
    for cell, digit in enumerate(grid):
        if digit and any(grid[p] == digit for p in near[cell]):
            return 0
    all_digits = (1 << (n + 1)) - 2  # bits 1..n
    found = 0

    def search() -> bool:
        """Fill the board; True once ``limit`` solutions are found."""
        nonlocal found
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
                        return False
        if not cand:
            found += 1
            return found >= limit
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
                            return False
        for cell, digit in best:
            grid[cell] = digit
            done = search()
            grid[cell] = 0
            if done:
                return True
        return False

    search()
    return found


def layout_has_solution(blocks: str) -> bool:
    """Whether the empty board of a layout has a solution.

    Plain backtracking can get lost for minutes on an empty board with irregular
    blocks, so this asks a SAT solver — with its own, naive encoding and another
    solver than the code under test (Glucose 4, not CaDiCaL).
    """
    from pysat.solvers import Glucose4

    n = {81: 9, 36: 6}[len(blocks)]
    clauses = []
    for cell in range(n * n):
        clauses.append([cell * n + d + 1 for d in range(n)])
    for unit in units(n, blocks):
        for d in range(n):
            lits = [c * n + d + 1 for c in unit]
            clauses.append(lits)
            clauses += [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1 :]]
    with Glucose4(bootstrap_with=clauses) as solver:
        if not solver.solve():
            return False
        model = solver.get_model()
    solution = "".join(
        str(next(d + 1 for d in range(n) if model[c * n + d] > 0)) for c in range(n * n)
    )
    return satisfies_units(solution, blocks)


def satisfies_units(solution: str, blocks: str | None) -> bool:
    """Every row, column and block holds each digit 1..N exactly once."""
    n = {81: 9, 36: 6}[len(solution)]
    want = {str(d) for d in range(1, n + 1)}
    return all({solution[c] for c in unit} == want for unit in units(n, blocks))


def connected(cells: list[int], size: int) -> bool:
    """Whether the cells form one group under the six hex neighbours of RULES.md §2."""
    members = set(cells)
    start = cells[0]
    seen = {start}
    stack = [start]
    while stack:
        r, c = divmod(stack.pop(), size)
        for dr, dc in ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0)):
            rr, cc = r + dr, c + dc
            nb = rr * size + cc
            if 0 <= rr < size and 0 <= cc < size and nb in members and nb not in seen:
                seen.add(nb)
                stack.append(nb)
    return seen == members
