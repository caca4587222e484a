"""Every board the dealer deals is graded, and a deal may ask for a range of grades."""

from __future__ import annotations

import random

import pytest
from numbridge.coach import grade
from numbridge.puzzles import DealError, deal_board


@pytest.mark.parametrize(("size", "blocks", "clues"), [(9, "regular", 26), (6, "irregular", 10)])
def test_a_dealt_boards_grade_is_the_coachs_grade_of_its_givens(size: int, blocks: str,
                                                                 clues: int) -> None:
    """Catches a grade computed on the solution or on another board than the one dealt."""
    rng = random.Random(11)
    for _ in range(3):
        board = deal_board(size, blocks, clues, rng)  # type: ignore[arg-type]
        assert board.grade == grade(board.blocks, board.givens)


def test_a_deal_asking_for_grades_gets_one_of_them() -> None:
    """Catches a range ignored (the first board returned whatever its grade)."""
    rng = random.Random(3)
    easy = deal_board(9, "regular", 34, rng, grades={"naked_single"})
    assert easy.grade == "naked_single"
    harder = deal_board(9, "irregular", 24, rng, grades={"locked_candidates", "pairs", "beyond"})
    assert harder.grade in {"locked_candidates", "pairs", "beyond"}
    assert grade(harder.blocks, harder.givens) == harder.grade


def test_grades_no_board_has_or_none_within_the_budget_are_refused() -> None:
    """Catches: a deal asked for a grade no board of that size can have, or none found
    within the budget, dealing forever or dealing another grade."""
    with pytest.raises(DealError, match="grades are"):
        deal_board(6, "regular", 12, random.Random(1), grades={"easy"})
    with pytest.raises(DealError, match="of grade guess"):
        deal_board(9, "regular", 34, random.Random(1), budget_s=0.3, grades={"guess"})


def test_an_off_grade_board_is_searched_again_on_the_same_solution_first() -> None:
    """Catches every off-grade board paid for with a new solution (the other solutions
    met while searching one are what make a second search of it cheap: the p99 of a
    rare grade's deal was 40 % higher so). The boards still come graded right."""
    from numbridge.puzzles.deal import SEARCHES_PER_SOLUTION, DealStats
    from numbridge.puzzles.deal import deal_board as deal

    stats = DealStats()
    board = deal(9, "regular", 26, random.Random(5), stats=stats, grades={"naked_single"})
    assert board.grade == grade(board.blocks, board.givens) == "naked_single"
    assert stats.off_grade >= SEARCHES_PER_SOLUTION  # rare at 26 clues: several missed
    assert stats.solutions < stats.off_grade + 1  # fewer solutions than boards dealt
