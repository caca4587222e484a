"""Independent oracles for the puzzle tests: the tests' backtracking solver
(``testkit.sudoku``, which shares no code with ``numbridge.puzzles`` nor with
``numbridge.rules``), a naive SAT encoding on another solver, hex connectivity.
"""

from __future__ import annotations

from testkit.sudoku import count, satisfies_units, units

__all__ = ["connected", "count_backtracking", "layout_has_solution", "satisfies_units"]


def count_backtracking(givens: str, blocks: str | None = None, limit: int = 2) -> int:
    """Solutions of ``givens`` (digits, '.' or '0' for empty), counting up to ``limit``:
    the tests' one backtracking solver (``testkit.sudoku``)."""
    return count(givens, blocks, limit)


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
