"""The one solver: complete search finds the dealt solution; logic alone never errs."""

from __future__ import annotations

import random

import pytest
from bot_helpers import SOL9, candidates
from numbridge.bot.grid import grid_for
from numbridge.bot.sudoku import COMPLETE, LOGIC, ONE_PASS, deduce, known_digits
from numbridge.bot.sudoku import candidates as start
from numbridge.puzzles import deal_board


@pytest.mark.parametrize(
    ("size", "kind", "clues"),
    [(9, "regular", 22), (9, "irregular", 26), (6, "regular", 10), (6, "irregular", 12)],
)
def test_complete_search_finds_the_one_solution_and_logic_only_right_digits(
    size: int, kind: str, clues: int
) -> None:
    rng = random.Random(size * 100 + clues)
    for _ in range(4):
        board = deal_board(size, kind, clues, rng)  # type: ignore[arg-type]
        grid = grid_for(board.blocks)
        masks = start(grid, board.givens)
        assert masks is not None
        solved = deduce(grid, masks, COMPLETE)
        assert solved is not None
        assert "".join(str(m.bit_length()) for m in solved) == board.solution
        for level in (LOGIC, ONE_PASS):
            narrowed = deduce(grid, masks, level)
            assert narrowed is not None
            for i, digit in known_digits(narrowed, board.givens).items():
                assert board.solution[i] == str(digit)


def test_one_pass_knows_exactly_the_naked_singles() -> None:
    rng = random.Random(7)
    digits = "".join(d if rng.random() < 0.55 else "." for d in SOL9)
    grid = grid_for("".join(str((r // 3) * 3 + c // 3) for r in range(9) for c in range(9)))
    masks = start(grid, digits)
    assert masks is not None
    one_pass = deduce(grid, masks, ONE_PASS)
    assert one_pass is not None
    singles = {i: c.pop() for i, c in candidates(digits, 9).items() if len(c) == 1}
    assert known_digits(one_pass, digits) == singles
    logic = deduce(grid, masks, LOGIC)
    assert logic is not None
    assert set(known_digits(logic, digits)) >= set(singles)


def test_a_board_that_breaks_the_rule_is_refused() -> None:
    grid = grid_for("".join(str((r // 3) * 3 + c // 3) for r in range(9) for c in range(9)))
    broken = "55" + "." * 79  # two fives in the first row
    assert start(grid, broken) is None
    # no digit left for a cell: its row holds 1-8, its column a 9
    row = "12345678." + "." * 8 + "9" + "." * 63
    masks = start(grid, row)
    assert masks is None or deduce(grid, masks, COMPLETE) is None
