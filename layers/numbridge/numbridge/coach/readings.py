"""The readings ladder: how hard it is to prove a digit from what is known.

What is known is a :class:`Position`: the digits shown on the board and the
public mistakes (each says where a digit is *not*). Never the solution.

The ladder, simplest first, each reading including those below it; a cell is
proved by a reading when repeating that reading's deductions (and those below)
until nothing changes leaves the cell one digit. People chain deductions in
their heads without writing the digits down, so the fixpoint is what counts:

- ``naked_single``: a cell whose row, column and block (and its mistakes) leave
  one digit;
- ``hidden_single``: a digit with one place left in a row, column or block;
- ``locked_candidates``: a digit of one unit confined to where it meets another
  leaves the rest of that other unit;
- ``pairs``: two cells of a unit with the same two candidates keep those
  digits out of the rest of the unit;
- ``beyond``: on top of pairs, every other digit of the cell, assumed, runs into a
  contradiction by singles (one trial, no nesting: the usual first step past the
  named readings, and cheap enough to grade every deal);
- ``guess``: none of these; the player picked among the digits they could not
  rule out (search would be needed).

The deductions are the bot's (:mod:`numbridge.bot.sudoku`), run with one more
kind switched on per rung. A trial's singles are unit propagation instead, on a
solver over the plain sudoku encoding that never searches (:class:`_Singles`): the
same deductions, so the same contradictions, in C.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from numbridge.bot.grid import Grid, bit, grid_for, only_digit
from numbridge.bot.sudoku import Techniques, candidates, deduce
from numbridge.rules.seats import GRADES, Grade

# One vocabulary with the board's grade (the rules keep it with the game).
Reading = Grade
Logic = Literal["naked_single", "hidden_single", "locked_candidates", "pairs"]
Unit = Literal["row", "column", "block"]

# The readings that prove by deduction alone, each with the deductions it may use.
LOGIC: tuple[Logic, ...] = ("naked_single", "hidden_single", "locked_candidates", "pairs")
READINGS: tuple[Reading, ...] = GRADES
_TECHNIQUES: dict[Logic, Techniques] = {
    "naked_single": Techniques(hidden_singles=False, locked_candidates=False, naked_pairs=False),
    "hidden_single": Techniques(locked_candidates=False, naked_pairs=False),
    "locked_candidates": Techniques(naked_pairs=False),
    "pairs": Techniques(),
}
# What a trial deduces before it gives up on a contradiction (by propagation: _Singles).
_TRIAL = _TECHNIQUES["hidden_single"]
_UNITS: tuple[Unit, ...] = ("row", "column", "block")


class Contradiction(ValueError):
    """What is known cannot all be true (a board or a mistake that contradicts the rest)."""


@dataclass(frozen=True)
class Proof:
    """How a digit in a cell is known: the reading, and for a guess how many digits
    were left; for a hidden single seen at once, the unit it was alone in."""

    reading: Reading
    candidates: int = 1
    unit: Unit | None = None


@dataclass
class Position:
    """What a player knows at one moment; each rung's deductions are made once, when
    first asked for."""

    blocks: str
    digits: str  # the board as shown: a digit or '.' per cell
    wrong: frozenset[tuple[int, int]] = frozenset()  # (cell index, digit) known wrong
    _masks: dict[str, list[int]] = field(default_factory=dict, repr=False)

    @property
    def grid(self) -> Grid:
        return grid_for(self.blocks)

    def masks(self, reading: Logic | None = None) -> list[int]:
        """Each cell's candidates (bit d-1 for digit d) after the reading's deductions
        (None: only what the board and the mistakes rule out directly)."""
        key = reading or "shown"
        found = self._masks.get(key)
        if found is not None:
            return found
        if reading is None:
            made = candidates(self.grid, self.digits, self.wrong)
        else:
            made = deduce(self.grid, self.masks(None), _TECHNIQUES[reading])
        if made is None:
            raise Contradiction(f"the board and its mistakes contradict each other ({key})")
        self._masks[key] = made
        return made

    def empty(self) -> Iterable[int]:
        return (i for i, ch in enumerate(self.digits) if ch == ".")

    def logic(self, cell: int, digit: int) -> Logic | None:
        """The simplest deductive reading that proves ``digit`` at ``cell``, if any."""
        want = bit(digit)
        for reading in LOGIC:
            mask = self.masks(reading)[cell]
            if mask == want:
                return reading
            if not mask & want:
                return None  # ruled out: no rung above will prove it
        return None

    def prove(self, cell: int, digit: int) -> Proof:
        """How ``digit`` at ``cell`` follows from what is known (the digit is taken to be
        right: a correct placement)."""
        reading = self.logic(cell, digit)
        if reading == "hidden_single":
            return Proof(reading, unit=self._alone_in(cell, digit))
        if reading is not None:
            return Proof(reading)
        left = self.survivors(cell)
        if left == [digit]:
            return Proof("beyond")
        return Proof("guess", candidates=max(len(left), 1))

    def survivors(self, cell: int) -> list[int]:
        """The digits of the cell that one trial each (assume it on top of what pairs
        deduce, then deduce by singles) does not refute."""
        base = self.masks("pairs")
        singles = _singles_for(self.blocks, base[cell].bit_count())
        known = singles.assumptions(base)
        out = []
        m = base[cell]
        while m:
            b = m & -m
            m ^= b
            if not singles.refutes(known, cell, b):
                out.append(only_digit(b))
        return out

    def provable(self, hand: Sequence[int]) -> tuple[int, int, Logic] | None:
        """A placement of a tile in ``hand`` that a deductive reading proves now: the
        simplest such (then the first cell), as (cell, digit, reading)."""
        tiles = {d for d in hand if 1 <= d <= self.grid.size}
        if not tiles:
            return None
        mine = sum(bit(d) for d in tiles)
        known = self.masks("pairs")
        found = [(i, only_digit(known[i])) for i in self.empty()
                 if known[i] & mine and known[i] & (known[i] - 1) == 0]
        best: tuple[int, int, Logic] | None = None
        for cell, digit in found:
            reading = self.logic(cell, digit)
            if reading is None:
                continue
            if best is None or LOGIC.index(reading) < LOGIC.index(best[2]):
                best = (cell, digit, reading)
                if reading == LOGIC[0]:
                    break
        return best

    def _alone_in(self, cell: int, digit: int) -> Unit | None:
        """The first unit of the cell where, after the naked singles, the digit has no
        other place (None: the cell fell out of the chain of hidden singles another way)."""
        grid = self.grid
        masks = self.masks("naked_single")
        want = bit(digit)
        n = grid.size
        for k, unit in enumerate(grid.units):
            if cell in unit and all(i == cell or not masks[i] & want for i in unit):
                return _UNITS[k // n]
        return None


def grade(blocks: str, givens: str) -> Reading:
    """The hardest reading the whole solution needs from the givens: the first rung whose
    deductions fill every cell, ``beyond`` when trials on top of pairs (each refuted
    digit struck, then pairs again, round after round) do, else ``guess``."""
    position = Position(blocks, givens)
    grid = position.grid
    masks = position.masks(None)
    rungs = LOGIC
    naked = deduce(grid, masks, _TECHNIQUES["naked_single"])
    if naked is not None:
        position._masks["naked_single"] = masks = naked
        if all(m & (m - 1) == 0 for m in naked):
            return "naked_single"
        rungs = LOGIC[1:]
        singles = _singles_for(blocks, CLOSURE_WORK)
        held = singles.closure(masks) if isinstance(singles, _Singles) else None
        if held is not None:
            # The hidden_single rung's fixpoint by propagation, in C (a contradiction is
            # left to that rung's deduction below, which says so as before).
            position._masks["hidden_single"] = masks = held
            if all(m & (m - 1) == 0 for m in held):
                return "hidden_single"
            rungs = LOGIC[2:]
    for reading in rungs:
        # Each rung goes on from the fixpoint of the one below (a review's Position
        # starts each from the board): the rules only strike candidates, each strike
        # sound and still allowed once more is struck, so the fixpoint is the same, and
        # a board's grading, which climbs every rung, does not redo the lower ones.
        made = deduce(grid, masks, _TECHNIQUES[reading])
        if made is None:
            raise Contradiction(f"the board contradicts itself ({reading})")
        masks = position._masks[reading] = made
        if all(m & (m - 1) == 0 for m in masks):
            return reading
    return "beyond" if _trials_solve(position) else "guess"


def _trials_solve(position: Position) -> bool:
    """Passes of trials over the open cells, two-candidate cells first: a digit a trial
    refutes is struck at once and pairs deduced again before the next trial. True when
    every cell is down to one digit; False when a whole pass refutes nothing (the
    fixpoint is the same in any order: each strike is sound, and only adds)."""
    grid = position.grid
    masks = position.masks("pairs")
    pairs = _TECHNIQUES["pairs"]
    singles = _singles_for(position.blocks, sum(m & (m - 1) != 0 for m in masks))
    while True:
        refuted = False
        known = singles.assumptions(masks)
        for i in sorted((i for i, m in enumerate(masks) if m & (m - 1)),
                        key=lambda i: masks[i].bit_count()):
            rest = masks[i]
            while rest:
                b = rest & -rest
                rest ^= b
                if masks[i] & (masks[i] - 1) == 0 or not masks[i] & b:
                    break  # settled by an earlier strike this pass
                if not singles.refutes(known, i, b):
                    continue
                struck = list(masks)
                struck[i] &= ~b
                narrowed = deduce(grid, struck, pairs)
                if narrowed is None:
                    return False  # cannot happen for a board with a solution
                masks = narrowed
                known = singles.assumptions(masks)
                refuted = True
                if all(m & (m - 1) == 0 for m in masks):
                    return True
        if not refuted:
            return False


class _Singles:
    """Naked and hidden singles as unit propagation: a CaDiCaL solver over the plain
    encoding of a layout (each cell one digit, each unit each digit once, pairwise),
    never asked to solve, so it learns nothing and propagation is exactly those rules:
    a cell with one digit left is that digit (and its peers lose it), a digit with one
    place left in a unit goes there, an empty cell or a digit with no place in a unit
    is a contradiction. A trial is "these candidates, and this digit here: does
    propagation run into a contradiction?", answered in C instead of a Python loop.

    Variable ``c*N + d`` is "digit d (1…N) in cell c". Built once per layout
    (:func:`_singles_for`); one propagation at a time (``lock``).
    """

    def __init__(self, grid: Grid) -> None:
        # python-sat is loaded on the first trial, not when the coach is imported.
        import pysolvers  # type: ignore[import-not-found]

        n = self.size = grid.size
        self.full = grid.full
        self.lock = threading.Lock()
        # The bare handle (pysat's solver object would free it in __del__, which fails
        # at interpreter exit once pysolvers is gone); freed with this object, or at exit.
        handle = self._handle = pysolvers.cadical153_new()
        weakref.finalize(self, pysolvers.cadical153_del, handle, None)
        add = pysolvers.cadical153_add_cl
        self._propagate = pysolvers.cadical153_propagate
        # Per variable (index c*N + d): its cell, and its cell's digits but d.
        self._cell_of = [0, *(v // n for v in range(n**3))]
        self._keep = [0, *(self.full & ~(1 << (v % n)) for v in range(n**3))]
        groups = [[c * n + d for d in range(1, n + 1)] for c in range(n * n)]
        groups += [[c * n + d for c in unit] for unit in grid.units for d in range(1, n + 1)]
        for lits in groups:
            add(handle, lits)
            for k, a in enumerate(lits):
                for other in lits[k + 1 :]:
                    add(handle, [-a, -other])

    def assumptions(self, masks: Sequence[int]) -> list[int]:
        """The literals of candidate sets: each settled cell's digit, then each digit
        struck from an open cell (after the digits, most are already propagated)."""
        n = self.size
        settled: list[int] = []
        struck: list[int] = []
        for c, m in enumerate(masks):
            if m & (m - 1) == 0:
                if not m:
                    raise Contradiction(f"cell {c} has no digit left")
                settled.append(c * n + m.bit_length())
                continue
            gone = self.full & ~m
            while gone:
                b = gone & -gone
                gone ^= b
                struck.append(-(c * n + b.bit_length()))
        settled.extend(struck)
        return settled

    def closure(self, masks: Sequence[int]) -> list[int] | None:
        """The candidate sets after naked and hidden singles from ``masks`` (what
        ``deduce`` gives with those two), None on a contradiction."""
        with self.lock:
            ok, implied = self._propagate(self._handle, self.assumptions(masks), 0, 0)
        if not ok:
            return None
        out = [self.full] * len(masks)
        cell_of, keep = self._cell_of, self._keep
        for x in implied:
            if x < 0:
                out[cell_of[-x]] &= keep[-x]
        return out

    def refutes(self, known: list[int], cell: int, b: int) -> bool:
        """Whether digit ``b`` (a bit) at ``cell``, on top of ``known``
        (:meth:`assumptions`), runs into a contradiction by singles."""
        with self.lock:
            ok, _ = self._propagate(self._handle, [*known, cell * self.size + b.bit_length()],
                                    0, 0)
        return not ok


class _LoopSingles:
    """The same trials by the Python singles loop, for a layout whose solver is not
    built (yet): building one costs a few milliseconds, more than a board's trials, and
    an irregular deal's layout is new every time."""

    def __init__(self, grid: Grid) -> None:
        self.grid = grid

    def assumptions(self, masks: Sequence[int]) -> list[int]:
        return list(masks)

    def refutes(self, known: list[int], cell: int, b: int) -> bool:
        trial = list(known)
        trial[cell] = b
        return deduce(self.grid, trial, _TRIAL) is None


# A layout's solver is built once the layout has asked for about BUILD_AFTER trials
# (a singles fixpoint counts as a few): building costs about what 40 trials save, so a
# regular layout's comes at once, a game's layout's during its review, a one-off
# irregular deal's never. The SOLVERS last used are kept. Which one answers changes no
# answer, only its speed.
BUILD_AFTER = 48
CLOSURE_WORK = 4
SOLVERS = 8
_solvers: OrderedDict[str, _Singles] = OrderedDict()
_asked: dict[str, int] = {}
_solvers_lock = threading.Lock()


def _singles_for(blocks: str, work: int) -> _Singles | _LoopSingles:
    """The layout's solver if built, else the loop; ``work``: the trials about to be
    asked (toward building the solver)."""
    with _solvers_lock:
        found = _solvers.get(blocks)
        if found is not None:
            _solvers.move_to_end(blocks)
            return found
        if len(_asked) > 4096:
            _asked.clear()  # one-off layouts (irregular deals) are never asked again
        asked = _asked[blocks] = _asked.get(blocks, 0) + work
    if asked < BUILD_AFTER:
        return _LoopSingles(grid_for(blocks))
    made = _Singles(grid_for(blocks))
    with _solvers_lock:
        _asked.pop(blocks, None)
        _solvers[blocks] = made
        while len(_solvers) > SOLVERS:
            _solvers.popitem(last=False)
    return made


def _built_singles(blocks: str) -> _Singles:
    """The layout's solver, built now if it is not (for tests and benchmarks)."""
    found = _singles_for(blocks, BUILD_AFTER)
    assert isinstance(found, _Singles)
    return found
