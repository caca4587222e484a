"""The SAT side of the puzzles: incremental CaDiCaL (1.5.3) solvers, one per layout.

This module and the coach's trials (``coach.readings._Singles``: the plain encoding
over the bot's units, propagation only, built where the coach may import it) import
python-sat; nothing imports it at start-up (``numbridge.puzzles`` loads it on the
first deal or count, the coach on a layout's first solver).

Variables ``x(c, d) = c*N + d + 1`` (digit ``d`` 0-based; cells in index order,
so a model's first N³ values are the grid). Two encodings of the sudoku rule:

- ``deal`` (plain): every cell holds exactly one digit, every row, column and
  block every digit exactly once (pairwise at-most-one). Few variables, so the
  thousands of small checks of a deal are cheap.
- ``count`` (with part variables): rows and columns are cut into *parts*, their
  intersections with the blocks; a part variable is true iff the digit is in
  that part, and exactly one part of each line — and of each block, cut by rows
  and again by columns — holds the digit. Unit propagation then does naked and
  hidden singles *and* locked candidates (pointing, claiming), so three quarters
  of the 17-clue sudokus are solved without a single decision.

Givens are assumptions, so a layout's solver is built once and reused. To
count: solve; if the solver made no decision, every value was propagated from
the givens, so the solution is unique. Otherwise add the clause "not this
solution", guarded by a fresh activation literal, solve again, and retire the
literal with a unit clause. The solver is rebuilt once it has retired
``REBUILD_AFTER`` literals (a model lists every variable, so they cost time).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TypeVar

import pysolvers  # type: ignore[import-not-found]
from pysat.solvers import Cadical153

from numbridge.puzzles.board import parse_givens, parse_layout, size_of
from numbridge.rules.geometry import Layout, column_cells, row_cells

# "lucky" and "elim" must stay off: the no-decision shortcut relies on every
# value of a model being on the trail (no lucky guesses, no eliminated variable
# filled in by model reconstruction); "ilb" (1.7+) would keep old decisions on
# the trail. The rest is tuning for many tiny calls, measured on the 17-clue set
# (no restarts nor chronological backtracking: ~10% faster counts).
SOLVER_OPTIONS: dict[str, int] = {"lucky": 0, "elim": 0, "subsume": 0, "probe": 0, "ilb": 0}
KIND_OPTIONS: dict[str, dict[str, int]] = {"count": {"chrono": 0, "restart": 0}, "deal": {}}

REBUILD_AFTER = 1024

_solve = pysolvers.cadical153_solve
_model = pysolvers.cadical153_model
_add_clause = pysolvers.cadical153_add_cl
_stats = pysolvers.cadical153_acc_stats
_set_phases = pysolvers.cadical153_setphases
_solve_limited = pysolvers.cadical153_solve_lim
_conflict_budget = pysolvers.cadical153_cbudget


COUNT = "count"
DEAL = "deal"


@lru_cache(maxsize=4)
def _cell_clauses(n: int) -> tuple[tuple[int, ...], ...]:
    """Every cell holds exactly one digit."""
    clauses: list[tuple[int, ...]] = []
    for cell in range(n * n):
        _exactly_one(clauses, [cell * n + d + 1 for d in range(n)])
    return tuple(clauses)


@lru_cache(maxsize=4)
def _line_clauses(n: int) -> tuple[tuple[int, ...], ...]:
    """Every row and column holds each digit exactly once (pairwise)."""
    clauses: list[tuple[int, ...]] = []
    for k in range(n):
        for unit in (row_cells(k, n), column_cells(k, n)):
            for d in range(n):
                _exactly_one(clauses, [c * n + d + 1 for c in unit])
    return tuple(clauses)


def _at_most_one(clauses: list[tuple[int, ...]], lits: Sequence[int]) -> None:
    for i, a in enumerate(lits):
        for b in lits[i + 1 :]:
            clauses.append((-a, -b))


def _exactly_one(clauses: list[tuple[int, ...]], lits: Sequence[int]) -> None:
    clauses.append(tuple(lits))
    _at_most_one(clauses, lits)


def _block_sets(size: int, blocks: tuple[int, ...]) -> list[list[int]]:
    cells: list[list[int]] = [[] for _ in range(size)]
    for index, block in enumerate(blocks):
        cells[block].append(index)
    return cells


def encode_deal(size: int, blocks: tuple[int, ...]) -> tuple[list[tuple[int, ...]], int]:
    """The plain encoding: exactly one digit per cell, pairwise exactly-one per unit."""
    n = size
    clauses = [*_cell_clauses(n), *_line_clauses(n)]
    for block in _block_sets(n, blocks):
        for d in range(n):
            _exactly_one(clauses, [c * n + d + 1 for c in block])
    return clauses, n * n * n


def encode_count(size: int, blocks: tuple[int, ...]) -> tuple[list[tuple[int, ...]], int]:
    """The encoding with part variables (locked candidates by propagation)."""
    n = size
    clauses = list(_cell_clauses(n))
    block_of = blocks
    nvars = n * n * n
    for lines in ([row_cells(k, n) for k in range(n)], [column_cells(k, n) for k in range(n)]):
        # the part literal of each block and digit, for the non-empty intersections
        by_block: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(n)]
        for line in lines:
            parts: dict[int, list[int]] = {}
            for c in line:
                parts.setdefault(block_of[c], []).append(c)
            by_line: list[list[int]] = [[] for _ in range(n)]
            for b, part in parts.items():
                for d in range(n):
                    xs = [c * n + d + 1 for c in part]
                    if len(xs) == 1:
                        z = xs[0]
                    else:
                        nvars += 1
                        z = nvars
                        clauses.append((-z, *xs))
                        clauses.extend((-x, z) for x in xs)
                        _at_most_one(clauses, xs)
                    by_line[d].append(z)
                    by_block[b][d].append(z)
            for d in range(n):
                _exactly_one(clauses, by_line[d])
        for b in range(n):
            for d in range(n):
                _exactly_one(clauses, by_block[b][d])
    return clauses, nvars


ENCODINGS = {COUNT: encode_count, DEAL: encode_deal}


class Engine:
    """An incremental solver for one layout. Not reentrant: hold ``lock``."""

    def __init__(self, layout: Layout, kind: str = COUNT) -> None:
        self.layout = layout
        self.kind = kind
        self.size = layout.size
        self.cell_vars = self.size**3
        self._clauses, self._base_vars = ENCODINGS[kind](layout.size, layout.blocks)
        self.lock = threading.RLock()
        self._solver: Cadical153 | None = None
        self._build()

    def _build(self) -> None:
        solver = Cadical153()
        handle = solver.cadical
        solver.configure(SOLVER_OPTIONS)
        solver.configure(KIND_OPTIONS[self.kind])
        for clause in self._clauses:
            _add_clause(handle, clause)
        if self._solver is not None:
            self._solver.delete()
        self._solver = solver
        self._handle = handle
        self._next_var = self._base_vars

    def refresh(self) -> None:
        """Rebuild the solver if it has retired many activation literals.

        Call only between operations (never while an activation literal is live).
        """
        if self._next_var - self._base_vars >= REBUILD_AFTER:
            self._build()

    # -- primitives (hold the lock) ----------------------------------------

    def solve(self, assumptions: list[int]) -> bool:
        return bool(_solve(self._handle, assumptions, 0))

    def solve_limited(self, assumptions: list[int], conflicts: int) -> bool | None:
        """Like :meth:`solve`, but ``None`` after ``conflicts`` conflicts."""
        _conflict_budget(self._handle, conflicts)
        status = _solve_limited(self._handle, assumptions, 0)
        _conflict_budget(self._handle, -1)
        return None if status == 0 else status > 0

    def decisions(self) -> int:
        return int(_stats(self._handle)["decisions"])

    def model(self) -> list[int]:
        """The last model: ``model[v - 1]`` is ``v`` or ``-v``."""
        return _model(self._handle)  # type: ignore[no-any-return]

    def model_lits(self) -> list[int]:
        """The true cell literals of the last model, one per cell in index order."""
        return [x for x in _model(self._handle)[: self.cell_vars] if x > 0]

    def blocking_clause(self) -> list[int]:
        """The clause "not the last model" over the cell variables."""
        return [-x for x in _model(self._handle)[: self.cell_vars] if x > 0]

    def new_activation(self, clause: list[int]) -> int:
        """Add ``clause`` guarded by a fresh literal; assume the literal to enable it."""
        self._next_var += 1
        act = self._next_var
        clause.append(-act)
        _add_clause(self._handle, clause)
        return act

    def retire(self, act: int) -> None:
        _add_clause(self._handle, [-act])

    def set_phases(self, lits: list[int]) -> None:
        _set_phases(self._handle, lits)

    # -- counting ------------------------------------------------------------

    def count(self, givens: list[int], limit: int = 2) -> int:
        """Solutions of the given literals, counting up to ``limit``."""
        with self.lock:
            self.refresh()
            before = self.decisions()
            if not self.solve(givens):
                return 0
            if limit <= 1 or self.decisions() == before:
                return 1
            found = 1
            acts: list[int] = []
            assumptions = list(givens)
            while found < limit:
                act = self.new_activation(self.blocking_clause())
                acts.append(act)
                assumptions.append(act)
                if not self.solve(assumptions):
                    break
                found += 1
            for act in acts:
                self.retire(act)
            return found


LayoutKey = tuple[str, int, tuple[int, ...]]  # (encoding, size, blocks)
T = TypeVar("T")
_engines: OrderedDict[LayoutKey, Engine] = OrderedDict()
_engines_lock = threading.Lock()
ENGINE_CACHE = 8


def _cached(cache: OrderedDict[LayoutKey, T], key: LayoutKey, make: Callable[[], T]) -> T:
    """``cache[key]``, made on a miss (outside the lock: two threads may both make it, one
    is kept); the least recently used beyond ENGINE_CACHE are dropped."""
    with _engines_lock:
        found = cache.get(key)
        if found is not None:
            cache.move_to_end(key)
            return found
    made = make()
    with _engines_lock:
        cache[key] = made
        while len(cache) > ENGINE_CACHE:
            cache.popitem(last=False)
    return made


def engine_for(layout: Layout, kind: str = COUNT) -> Engine:
    """The cached engine of a layout (least recently used ones are dropped)."""
    return _cached(_engines, (kind, layout.size, layout.blocks), lambda: Engine(layout, kind))


class Propagator:
    """Unit propagation alone over one encoding of a layout: what the rules of that
    encoding deduce from some givens, on a solver that never searches.

    Its solver is never asked to solve, so it learns no clause: propagation stays
    exactly the encoding's rules (a solving engine's learnt clauses would deduce more).
    With ``deal`` that is naked and hidden singles; with ``count`` locked candidates
    too (the coach's rungs of those names, so a board whose givens propagate to a
    full grid is graded that rung or easier). Not reentrant: hold ``lock``.
    """

    def __init__(self, layout: Layout, kind: str) -> None:
        self.size = layout.size
        self.cell_vars = layout.size**3
        self.lock = threading.Lock()
        clauses, self._vars = ENCODINGS[kind](layout.size, layout.blocks)
        self._solver = Cadical153()
        handle = self._solver.cadical
        for clause in clauses:
            _add_clause(handle, clause)

    def fills(self, assumptions: list[int]) -> bool:
        """Whether propagating ``assumptions`` sets every cell (then every variable: the
        count encoding's part variables follow from the cells)."""
        ok, implied = self._solver.propagate(assumptions=assumptions)
        return bool(ok) and len(implied) == self._vars

    def cells(self, assumptions: list[int]) -> list[int]:
        """The true cell literals after propagating ``assumptions`` (the givens), the
        givens' own included; empty if propagation runs into a contradiction."""
        ok, implied = self._solver.propagate(assumptions=assumptions)
        if not ok:
            return []
        top = self.cell_vars
        return [x for x in implied if 0 < x <= top]


_propagators: OrderedDict[LayoutKey, Propagator] = OrderedDict()


def propagator_for(layout: Layout, kind: str) -> Propagator:
    """The cached propagator of a layout and encoding (least recently used ones dropped)."""
    return _cached(_propagators, (kind, layout.size, layout.blocks),
                   lambda: Propagator(layout, kind))


def given_lits(digits: Sequence[int], size: int) -> list[int]:
    """Assumption literals of the givens (digits 1…N per cell, 0 for empty)."""
    return [c * size + d for c, d in enumerate(digits) if d]


_ALLOWED = {n: frozenset(".0" + "".join(str(d) for d in range(1, n + 1))) for n in (6, 9)}


def count_solutions(givens: str, blocks: str | None = None, limit: int = 2) -> int:
    """See :func:`numbridge.puzzles.count_solutions`."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    size = size_of(len(givens))
    if not _ALLOWED[size].issuperset(givens):
        parse_givens(givens)  # raises InvalidBoard with the details
    layout = _regular(size) if blocks is None else parse_layout(blocks, size)
    n = size
    bases = range(0, n**3, n)
    lits = [base + ord(ch) - 48 for base, ch in zip(bases, givens, strict=True) if ch not in ".0"]
    return engine_for(layout, COUNT).count(lits, limit)


@lru_cache(maxsize=2)
def _regular(size: int) -> Layout:
    return Layout.regular(size)
