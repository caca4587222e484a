"""What a level knows about the digits of the empty cells.

- easy: one pass of naked singles on the public board (mistakes only keep it
  from repeating a wrong digit);
- normal: the logical deductions of :mod:`.sudoku` to a fixpoint, with the
  digits public mistakes ruled out;
- strong: the public board solved completely.

Every tile in hand has a correct empty cell (RULES.md §3), so a guess always
has somewhere right to go: its chance is one over the number of places left
for it — easy counts the cell's candidates only, normal and strong also the
places left for the digit in each unit of the cell.
"""

from __future__ import annotations

from dataclasses import dataclass

from .grid import Grid, bit, grid_for
from .position import Level, Position
from .sudoku import COMPLETE, LOGIC, ONE_PASS, Techniques, candidates, deduce, known_digits

TECHNIQUES: dict[Level, Techniques] = {"easy": ONE_PASS, "normal": LOGIC, "strong": COMPLETE}


@dataclass(frozen=True)
class Beliefs:
    grid: Grid
    masks: tuple[int, ...]  # candidate set per cell
    known: dict[int, int]  # empty cell -> the digit known to be right there
    ruled_out: frozenset[tuple[int, int]]  # (cell, digit) known wrong
    by_units: bool  # whether a guess also counts a digit's places in each unit

    def chance(self, cell: int, digit: int) -> float:
        """How likely ``digit`` is right at the empty ``cell``: 1 if known, 0 if excluded."""
        known = self.known.get(cell)
        if known is not None:
            return 1.0 if known == digit else 0.0
        b = bit(digit)
        if not self.masks[cell] & b or (cell, digit) in self.ruled_out:
            return 0.0
        # the narrowest of: this cell's candidates, and each unit's places for the digit
        widest = self.masks[cell].bit_count()
        if not self.by_units:
            return 1.0 / widest
        for unit, cells in zip(self.grid.unit_sets, self.grid.units, strict=True):
            if unit >> cell & 1:
                places = sum(1 for i in cells if self.masks[i] & b)
                widest = min(widest, places)
        return 1.0 / max(widest, 1)


def beliefs(position: Position, ruled_out: set[tuple[int, int]], level: Level) -> Beliefs:
    grid = grid_for(position.blocks)
    digits = position.digits
    uses_mistakes = level != "easy"
    start = candidates(grid, digits, ruled_out if uses_mistakes else ())
    if start is None:  # cannot happen with a true view; know nothing rather than fail
        start = [grid.full if d == "." else bit(int(d)) for d in digits]
    masks = deduce(grid, start, TECHNIQUES[level])
    if masks is None:
        masks = deduce(grid, start, LOGIC) or start
    return Beliefs(
        grid=grid,
        masks=tuple(masks),
        known=known_digits(masks, digits),
        ruled_out=frozenset(ruled_out),
        by_units=level != "easy",
    )
