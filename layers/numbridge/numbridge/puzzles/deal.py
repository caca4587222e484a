"""Dealing: a random solution, then exactly K givens whose solution is proved unique.

1. **Solution.** The layout's solver, with random preferred phases and a random
   permutation assumed for the first row, finds a full grid S.
2. **Givens.** Start from a few random cells (K minus a margin), then *complete*:
   while another solution S' fits the givens, give one cell (at random) where S'
   differs from S. Then *minimize*: try to drop each given (random order) — a
   given ``g`` can go iff no solution has the other givens and a different digit
   at ``g`` (one SAT call) — until K are left or none can go.
3. **Fewer clues.** While more than K are left: *two for one* — drop two givens
   and give one other cell, chosen among the cells where every known other
   solution of the remaining givens differs from S; then minimize again.
4. **Exactly K.** Pad with random cells if fewer than K are left (more givens
   keep the solution unique).

Every other solution met on the way (as a mask of the cells where it differs
from S) is kept: it proves that some givens cannot go, and prunes the choices
of step 3, without another SAT call. A solution whose search stalls is dropped
and the deal starts over with a new one (and, for irregular blocks, now and then
a new layout), until the time budget runs out. With grades asked, a board of
another grade has other givens of the same solution searched (a few times) before a
new solution is drawn.

Asked for grades all harder than locked candidates (or hidden singles), the dealer
aims: givens are dropped until unit propagation alone (the coach's rung of that name,
told by a solver that never searches) leaves a cell open, and padded back with cells
that propagation fills, which keeps the grade; a minimal set that propagation still
fills is too easy, told in microseconds instead of by grading it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from numbridge.coach import grade
from numbridge.puzzles import aims
from numbridge.puzzles.board import CLUE_LIMITS, DealError, DealtBoard
from numbridge.puzzles.sat import COUNT, DEAL, Engine, Propagator, engine_for, propagator_for
from numbridge.rules.geometry import SIZES, Layout
from numbridge.rules.seats import GRADES

# Random givens drawn before the informed ones: K - margin.
START_MARGIN = {9: 10, 6: 5}
# SAT calls the two-for-one steps may spend on one solution before starting over.
SOLUTION_SOLVES = {9: 150, 6: 60}
# Searches for givens of one solution, when a grade is asked, before drawing another.
SEARCHES_PER_SOLUTION = 4
# Aiming at a hard grade: the givens of a search that propagation fills are repaired
# (AIM_DROP dropped, completed again with the aim, minimized) up to AIM_REPAIRS times.
AIM_REPAIRS = 3
AIM_DROP = 3
# Solutions tried on one irregular layout before drawing another.
LAYOUT_SOLUTIONS = 3


@dataclass
class DealStats:
    """What a deal cost (for the benchmark and tests)."""

    solutions: int = 0
    layouts: int = 0
    solves: int = 0
    skipped: int = 0
    off_grade: int = 0  # boards dealt whose grade was not one asked for
    too_easy: int = 0  # cores that propagation alone fills, when a harder grade is asked
    first_minimal: list[int] = field(default_factory=list)


class _Timeout(Exception):
    pass


class _Dealer:
    """One solution S of one layout, and the search for K givens that fix it."""

    def __init__(
        self, engine: Engine, rng: random.Random, stats: DealStats, deadline: float
    ) -> None:
        self.e = engine
        self.n = engine.size
        self.cells = self.n * self.n
        self.rng = rng
        self.stats = stats
        self.deadline = deadline
        self.alts: list[int] = []  # masks of the cells where another solution differs

    # -- the solution -------------------------------------------------------------

    def random_solution(self) -> None:
        """Find S and add the clause "not S", guarded by ``self.act``."""
        e, n, rng = self.e, self.n, self.rng
        phases: list[int] = []
        picks = []
        for c in range(self.cells):
            pick = c * n + rng.randrange(n) + 1
            picks.append(pick)
            phases.extend(v if v == pick else -v for v in range(c * n + 1, c * n + n + 1))
        e.set_phases(phases)
        first_row = list(range(n))
        rng.shuffle(first_row)
        if not e.solve([c * n + d + 1 for c, d in enumerate(first_row)]):
            raise DealError("the layout admits no solution")
        self.lits = e.model_lits()  # S: the true literal of each cell
        # (model index of S's literal, cell bit) to compare later models with S
        self.probe = [(x - 1, 1 << c) for c, x in enumerate(self.lits)]
        # prefer S from now on: nearby other solutions are found first, and the
        # cells where they differ make good givens
        e.set_phases(self.lits + [-p for p, x in zip(picks, self.lits, strict=True) if p != x])
        self.act = e.new_activation([-x for x in self.lits])

    def diff_mask(self) -> int:
        """The cells where the last model differs from S, as a bit mask."""
        model = self.e.model()
        mask = 0
        for index, bit in self.probe:
            if model[index] < 0:
                mask |= bit
        return mask

    def _solve(self, assumptions: list[int]) -> bool:
        if time.monotonic() > self.deadline:
            raise _Timeout
        self.stats.solves += 1
        return self.e.solve(assumptions)

    # -- the givens ---------------------------------------------------------------

    def complete(self, givens: list[int], aim: Propagator | None = None) -> list[int]:
        """Add givens, each where another solution differs from S, until S is unique
        (with ``aim``, one that leaves its propagation open if there is one)."""
        lits, rng = self.lits, self.rng
        givens = list(givens)
        mask = 0
        for c in givens:
            mask |= 1 << c
        while True:
            live = next((d for d in self.alts if not d & mask), 0)
            if not live:
                if not self._solve([lits[c] for c in givens] + [self.act]):
                    return givens
                live = self.diff_mask()
                self.alts.append(live)
            choices = [c for c in range(self.cells) if live >> c & 1]
            cell = rng.choice(choices)
            if aim is not None:
                rng.shuffle(choices)
                # A cell where another known solution agrees with S leaves that one
                # standing: not unique yet, so propagation cannot fill (no need to ask).
                common = live
                for d in self.alts:
                    if not d & mask:
                        common &= d
                base = [lits[c] for c in givens]
                with aim.lock:
                    cell = next((c for c in choices
                                 if not common >> c & 1 or not aim.fills([*base, lits[c]])),
                                cell)
            givens.append(cell)
            mask |= 1 << cell

    def minimize(self, givens: list[int], target: int,
                 enough: Callable[[Collection[int]], bool] | None = None) -> list[int]:
        """Drop givens (random order) while S stays unique, down to ``target`` (or until
        ``enough`` says the givens left will do)."""
        lits = self.lits
        order = list(givens)
        self.rng.shuffle(order)
        keep = set(givens)
        mask = 0
        for c in givens:
            mask |= 1 << c
        needed = self._needed(mask)
        for g in order:
            if len(keep) <= target:
                break
            bit = 1 << g
            if bit in needed:
                self.stats.skipped += 1  # a known solution needs g to be ruled out
                continue
            rest = [lits[c] for c in keep if c != g]
            rest.append(-lits[g])
            if self._solve(rest):
                self.alts.append(self.diff_mask())
                needed.add(bit)
            else:
                keep.discard(g)
                mask ^= bit
                if enough is not None and enough(keep):
                    break
                needed = self._needed(mask)
        return [c for c in givens if c in keep]

    def _needed(self, mask: int) -> set[int]:
        """The givens (as bits of ``mask``) that a known other solution differs from S in
        alone: each is needed to rule that one out."""
        out: set[int] = set()
        for d in self.alts:
            hit = d & mask
            if hit & (hit - 1) == 0:
                out.add(hit)
        return out

    def two_for_one(self, givens: list[int], max_solves: int) -> list[int] | None:
        """Replace two givens by one other cell, keeping S unique.

        A known solution that differs from S, among the givens, only in the pair
        (or in one of the two) must differ in the new cell too: that prunes most
        pairs and cells without a SAT call.
        """
        lits, rng, full = self.lits, self.rng, (1 << self.cells) - 1
        pmask = 0
        for c in givens:
            pmask |= 1 << c
        single: dict[int, int] = dict.fromkeys(givens, full)
        double: dict[int, int] = {}

        def learn(d: int) -> None:
            hit = d & pmask
            if hit & (hit - 1) == 0:  # one given
                single[hit.bit_length() - 1] &= d
            elif hit.bit_count() == 2:
                double[hit] = double.get(hit, full) & d

        for d in self.alts:
            learn(d)
        pairs = [(a, b) for i, a in enumerate(givens) for b in givens[i + 1 :]]
        rng.shuffle(pairs)
        free = ~pmask
        solves = 0
        for a, b in pairs:
            cand = single[a] & single[b] & double.get((1 << a) | (1 << b), full) & free
            rest = [lits[c] for c in givens if c != a and c != b]
            rest.append(self.act)
            tries = 0
            while cand and tries < 3:
                if solves >= max_solves:
                    return None
                tries += 1
                solves += 1
                h = rng.choice([c for c in range(self.cells) if cand >> c & 1])
                if not self._solve([*rest, lits[h]]):
                    return [c for c in givens if c != a and c != b] + [h]
                d = self.diff_mask()
                self.alts.append(d)
                learn(d)
                cand &= d
        return None

    def search(self, clues: int) -> list[int] | None:
        """K givens that fix S, or ``None`` if the search stalls."""
        rng = self.rng
        start = rng.sample(range(self.cells), max(0, clues - START_MARGIN[self.n]))
        givens = self.minimize(self.complete(start), clues)
        self.stats.first_minimal.append(len(givens))
        budget = SOLUTION_SOLVES[self.n]
        while len(givens) > clues:
            before = self.stats.solves
            fewer = self.two_for_one(givens, budget)
            budget -= self.stats.solves - before
            if fewer is None:
                return None
            givens = self.minimize(fewer, clues)
        chosen = set(givens)
        rest = [c for c in range(self.cells) if c not in chosen]
        return givens + rng.sample(rest, clues - len(givens))

    def aimed(self, givens: list[int], clues: int, prop: Propagator) -> list[int] | None:
        """Other givens of S, as hard as ``givens`` or harder, that propagation alone
        (``prop``'s rules) leaves open; ``None`` if none was found.

        Givens that propagation fills are repaired: a few dropped, completed again with
        givens that leave propagation open where one can (:meth:`complete`), then
        dropped (fewer givens never make a board easier) until propagation leaves a
        cell open. The board is padded back to ``clues`` with cells that propagation
        fills from those givens: such a given changes no rung's deductions from
        ``prop``'s rung up (they fill it anyway), so the board keeps their grade. Only
        if too few cells are filled are the rest drawn at random (the grade then says).
        """
        rng, lits = self.rng, self.lits

        def left_open(keep: Collection[int]) -> bool:
            if len(keep) > clues:
                return False
            with prop.lock:
                return not prop.fills([lits[c] for c in keep])

        core = givens
        for attempt in range(AIM_REPAIRS + 1):
            if attempt:
                self.stats.too_easy += 1
                core = self.complete(rng.sample(core, max(0, len(core) - AIM_DROP)), prop)
                if not left_open(core):
                    core = self.minimize(core, 0, left_open)
            if left_open(core):
                break
        else:
            self.stats.too_easy += 1
            return None
        with prop.lock:
            filled = prop.cells([lits[c] for c in core])
        return self.pad(core, filled, clues)

    def pad(self, core: list[int], filled: list[int], clues: int) -> list[int]:
        """``core`` and, up to ``clues``, cells drawn among those ``filled`` (the true
        cell literals propagation made from it), then at random."""
        rng, n = self.rng, self.n
        chosen = set(core)
        known = [c for c in ((x - 1) // n for x in filled) if c not in chosen]
        need = clues - len(core)
        if need <= len(known):
            return core + rng.sample(known, need)
        chosen.update(known)
        rest = [c for c in range(self.cells) if c not in chosen]
        return core + known + rng.sample(rest, need - len(known))

    def board(self, givens: list[int], layout: Layout) -> DealtBoard:
        n = self.n
        solution = "".join(str((x - 1) % n + 1) for x in self.lits)
        chosen = set(givens)
        text = "".join(ch if c in chosen else "." for c, ch in enumerate(solution))
        blocks = layout.to_string()
        return DealtBoard(n, blocks, text, solution, grade(blocks, text))


def _graded_givens(dealer: _Dealer, clues: int, layout: Layout,
                   grades: Collection[str] | None) -> DealtBoard | None:
    """A board of S with one of ``grades`` (any without), or ``None``. Off grade, other
    givens of the same S are searched first: the other solutions already met make that
    search cheaper than a new S, and the givens decide the grade more than S does."""
    prop = _propagator(layout, grades)
    for _ in range(1 if grades is None else SEARCHES_PER_SOLUTION):
        givens = dealer.search(clues)
        if givens is None:
            return None
        if prop is not None:
            givens = dealer.aimed(givens, clues, prop)
            if givens is None:
                continue  # propagation alone fills every core tried: too easy
        board = dealer.board(givens, layout)
        if grades is None or board.grade in grades:
            return board
        dealer.stats.off_grade += 1
    return None


def _propagator(layout: Layout, grades: Collection[str] | None) -> Propagator | None:
    """For grades asked all harder than a rung that propagation decides, that rung's
    propagator (its boards are too easy, and told so in microseconds); else ``None``."""
    if grades is None or not aims(grades):
        return None
    easiest = min(GRADES.index(g) for g in grades if g in GRADES)
    return propagator_for(layout, COUNT if easiest > GRADES.index("locked_candidates")
                          else DEAL)


def check_settings(size: int, blocks: str, clues: int) -> None:
    """Raise :class:`DealError` for settings no board can have."""
    if size not in SIZES:
        raise DealError(f"board size must be one of {SIZES}, not {size}")
    if blocks not in ("regular", "irregular"):
        raise DealError(f"blocks must be 'regular' or 'irregular', not {blocks!r}")
    low, high = CLUE_LIMITS[size]
    if not low <= clues <= high:
        raise DealError(f"a {size}x{size} board is dealt with {low}…{high} clues, not {clues}")


def deal_board(
    size: int,
    blocks: str,
    clues: int,
    rng: random.Random,
    budget_s: float = 10.0,
    stats: DealStats | None = None,
    grades: Collection[str] | None = None,
) -> DealtBoard:
    """See :func:`numbridge.puzzles.deal_board`."""
    check_settings(size, blocks, clues)
    if grades is not None and not set(grades) & set(GRADES):
        raise DealError(f"no board has a grade among {sorted(grades)}: grades are {GRADES}")
    stats = stats if stats is not None else DealStats()
    deadline = time.monotonic() + budget_s
    # Production passes SystemRandom and shares cached solvers. Any other source
    # is taken as a seed for reproduction: a fresh solver then makes the deal
    # depend on the seed alone (a solver's models depend on its history).
    fresh = not isinstance(rng, random.SystemRandom)
    engine: Engine | None = None
    layout = Layout.regular(size)
    tries_left = 0
    try:
        while True:
            if blocks == "irregular" and tries_left == 0:
                from numbridge.puzzles.layouts import solvable_layout

                layout, engine = solvable_layout(size, rng, deadline)
                stats.layouts += 1
                tries_left = LAYOUT_SOLUTIONS
            elif engine is None:
                engine = Engine(layout, DEAL) if fresh else engine_for(layout, DEAL)
            tries_left -= 1
            stats.solutions += 1
            with engine.lock:
                engine.refresh()
                dealer = _Dealer(engine, rng, stats, deadline)
                dealer.random_solution()
                try:
                    board = _graded_givens(dealer, clues, layout, grades)
                finally:
                    engine.retire(dealer.act)
            if board is not None:
                return board
            if time.monotonic() > deadline:
                raise _Timeout
    except _Timeout:
        wanted = "" if grades is None else f" of grade {'/'.join(sorted(grades))}"
        raise DealError(
            f"no {size}x{size} board{wanted} with {blocks} blocks and {clues} clues was found "
            f"within {budget_s:g} s"
        ) from None

