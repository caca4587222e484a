"""One sudoku solver for every level: candidate sets, the deductions people use, and search.

Levels differ only in the :class:`Techniques` they may use: a single pass of
naked singles (easy), the usual logical deductions repeated to a fixpoint
(normal), or those plus backtracking search (strong), which solves any board
with a solution (ours have exactly one).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .grid import Grid, bit, only_digit


@dataclass(frozen=True)
class Techniques:
    fixpoint: bool = True  # repeat until nothing changes (else: one pass of naked singles)
    hidden_singles: bool = True
    locked_candidates: bool = True
    naked_pairs: bool = True
    search: bool = False


ONE_PASS = Techniques(
    fixpoint=False, hidden_singles=False, locked_candidates=False, naked_pairs=False
)
LOGIC = Techniques()
COMPLETE = Techniques(search=True)
# What search propagates between guesses: cheap and strong enough.
_SEARCH_STEP = Techniques(locked_candidates=False, naked_pairs=False)


def _single(mask: int) -> bool:
    return mask != 0 and mask & (mask - 1) == 0


def candidates(
    grid: Grid, digits: str, wrong: Iterable[tuple[int, int]] = ()
) -> list[int] | None:
    """Each cell's candidate set from the digits on the board (and known wrong digits).

    ``digits`` has a digit or ``.`` per cell; ``wrong`` holds (cell, digit)
    pairs known not to be right. None if the board contradicts itself.
    """
    masks = [grid.full] * grid.cells
    for i, ch in enumerate(digits):
        if ch != ".":
            masks[i] = bit(int(ch))
    for i, ch in enumerate(digits):
        if ch != ".":
            taken = masks[i]
            for p in grid.peers[i]:
                if digits[p] == ".":
                    masks[p] &= ~taken
                elif masks[p] == taken:
                    return None
    for i, digit in wrong:
        if digits[i] == "." and 1 <= digit <= grid.size:
            masks[i] &= ~bit(digit)
    if not all(masks):
        return None
    return masks


def deduce(grid: Grid, masks: list[int], techniques: Techniques) -> list[int] | None:
    """The candidate sets after the allowed deductions (a new list); None on a contradiction.

    With ``search`` every cell ends with one candidate: the first solution found.
    """
    out = list(masks)
    if not techniques.fixpoint:
        return out
    if not _propagate(grid, out, techniques):
        return None
    if techniques.search:
        return _search(grid, out)
    return out


def _eliminate_singles(grid: Grid, masks: list[int], queue: list[int], done: list[bool]) -> bool:
    peers = grid.peers
    while queue:
        i = queue.pop()
        if done[i]:
            continue
        done[i] = True
        m = masks[i]
        for p in peers[i]:
            pm = masks[p]
            if pm & m:
                pm &= ~m
                if not pm:
                    return False
                masks[p] = pm
                if pm & (pm - 1) == 0:
                    queue.append(p)
    return True


def _hidden_singles(grid: Grid, masks: list[int], queue: list[int]) -> bool | None:
    """Place every digit that has one cell left in a unit; None on a contradiction."""
    full = grid.full
    changed = False
    for unit in grid.units:
        once = twice = fixed = 0
        for i in unit:
            m = masks[i]
            twice |= once & m
            once |= m
            if m & (m - 1) == 0:
                fixed |= m
        if once != full:
            return None  # a digit with no place in this unit
        # a digit already alone in its cell is lonely too, and there is nothing to place
        lonely = once & ~twice & ~fixed
        while lonely:
            b = lonely & -lonely
            lonely ^= b
            cell = next((i for i in unit if masks[i] & b), None)
            if cell is None:
                return None  # two lonely digits claimed the same cell
            if masks[cell] != b:
                masks[cell] = b
                queue.append(cell)
                changed = True
    return changed


def _locked_candidates(grid: Grid, masks: list[int]) -> bool | None:
    """Where a digit of one unit lies only where it meets another, it leaves the rest of that."""
    changed = False
    for only_a, only_b, meet in grid.crossings:
        inside = 0
        for i in meet:
            inside |= masks[i]
        out_a = 0
        for i in only_a:
            out_a |= masks[i]
        out_b = 0
        for i in only_b:
            out_b |= masks[i]
        from_b = inside & ~out_a & out_b
        from_a = inside & ~out_b & out_a
        if from_b:
            changed = True
            for i in only_b:
                masks[i] &= ~from_b
                if not masks[i]:
                    return None
        if from_a:
            changed = True
            for i in only_a:
                masks[i] &= ~from_a
                if not masks[i]:
                    return None
    return changed


def _naked_pairs(grid: Grid, masks: list[int]) -> bool | None:
    """Two cells of a unit with the same two candidates: those digits leave the unit's rest."""
    changed = False
    for unit in grid.units:
        seen: dict[int, int] = {}
        for i in unit:
            m = masks[i]
            if m.bit_count() != 2:
                continue
            if m not in seen:
                seen[m] = i
                continue
            first = seen[m]
            for j in unit:
                if j != i and j != first and masks[j] & m:
                    masks[j] &= ~m
                    if not masks[j]:
                        return None
                    changed = True
    return changed


def _propagate(grid: Grid, masks: list[int], t: Techniques) -> bool:
    done = [False] * grid.cells
    queue = [i for i, m in enumerate(masks) if _single(m)]
    while True:
        if not _eliminate_singles(grid, masks, queue, done):
            return False
        step: bool | None = False
        if t.hidden_singles:
            step = _hidden_singles(grid, masks, queue)
        if step is False and t.locked_candidates:
            step = _locked_candidates(grid, masks)
        if step is False and t.naked_pairs:
            step = _naked_pairs(grid, masks)
        if step is None:
            return False
        if not step:
            return True
        # the narrowing steps can leave new single cells: their peers lose that digit next
        queue.extend(i for i, m in enumerate(masks) if not done[i] and _single(m))


def _search(grid: Grid, masks: list[int]) -> list[int] | None:
    """Depth first over the cell with the fewest candidates; the first solution found."""
    best, fewest = -1, grid.size + 1
    for i, m in enumerate(masks):
        count = m.bit_count()
        if 1 < count < fewest:
            best, fewest = i, count
            if count == 2:
                break
    if best < 0:
        return masks
    m = masks[best]
    while m:
        b = m & -m
        m ^= b
        trial = list(masks)
        trial[best] = b
        if _propagate(grid, trial, _SEARCH_STEP):
            solved = _search(grid, trial)
            if solved is not None:
                return solved
    return None


def known_digits(masks: list[int], digits: str) -> dict[int, int]:
    """The empty cells whose candidate set is down to one digit, and that digit."""
    return {
        i: only_digit(m) for i, m in enumerate(masks) if digits[i] == "." and _single(m)
    }
