"""Each label the coach gives is checked against the readings written again the slow
way (coach_naive), on positions from hard sudokus: the 17-clue boards with some of
their solution shown and some public mistakes."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from coach_naive import RUNGS, fixpoint, proves, solved_by_trials, start, survivors
from hypothesis import given, settings
from hypothesis import strategies as st
from numbridge.coach import Position, grade
from numbridge.coach.readings import LOGIC
from testkit.sudoku import regular_blocks, solve, units

SEVENTEEN = Path(__file__).resolve().parents[2] / "data" / "sudoku17.txt"
BLOCKS = regular_blocks(9)


@cache
def boards() -> tuple[tuple[str, str], ...]:
    """A few 17-clue sudokus and their solutions."""
    lines = [ln.strip() for ln in SEVENTEEN.read_text().splitlines()]
    picked = [ln for ln in lines if ln and not ln.startswith("#")][:: 100]
    return tuple((g, solve(g, BLOCKS)) for g in picked)


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, frozenset[tuple[int, int]], int, int]:
    """A board with some solution digits shown, some mistakes, and an empty cell."""
    givens, solution = draw(st.sampled_from(boards()))
    empty = [i for i, ch in enumerate(givens) if ch == "."]
    shown = draw(st.sets(st.sampled_from(empty), max_size=30))
    digits = "".join(solution[i] if i in shown else ch for i, ch in enumerate(givens))
    still = [i for i in empty if i not in shown]
    wrong = draw(st.sets(st.tuples(st.sampled_from(still), st.integers(1, 9)), max_size=6))
    wrong = {(i, d) for i, d in wrong if str(d) != solution[i]}
    cell = draw(st.sampled_from(still))
    return digits, frozenset(wrong), cell, int(solution[cell])


@settings(max_examples=150)
@given(positions())
def test_a_label_is_the_lowest_rung_that_proves_the_digit(
        case: tuple[str, frozenset[tuple[int, int]], int, int]) -> None:
    """Catches a rung that proves too much (a label below what the digit needs, e.g. the
    bot's pairs or locked candidates eliminating what the rule does not allow) or too
    little (a harder label than needed), and mistakes left out of what is known."""
    digits, wrong, cell, digit = case
    proof = Position(BLOCKS, digits, wrong).prove(cell, digit)
    cands = start(9, BLOCKS, digits, wrong)
    if proof.unit is not None:
        # alone in that unit once the naked singles are chained
        kind = ("row", "column", "block").index(proof.unit)
        unit = next(u for u in units(9, BLOCKS)[kind * 9:kind * 9 + 9] if cell in u)
        after = fixpoint(9, BLOCKS, cands, "naked_single")
        assert [i for i in unit if digit in after[i]] == [cell]
    if proof.reading in LOGIC:
        rung = RUNGS.index(proof.reading)
        assert proves(9, BLOCKS, cands, proof.reading, cell, digit)
        assert not any(proves(9, BLOCKS, cands, lower, cell, digit) for lower in RUNGS[:rung])
        return
    assert not proves(9, BLOCKS, cands, "pairs", cell, digit)
    alive = survivors(9, BLOCKS, cands, cell)
    assert digit in alive
    if proof.reading == "beyond":
        assert alive == {digit}
    else:
        assert proof.reading == "guess"
        assert len(alive) >= 2 and proof.candidates == len(alive)


def test_the_hardest_labels_agree_with_the_slow_readings_on_the_bare_givens() -> None:
    """Random positions rarely need a trial or a guess: here every cell of the bare
    17-clue boards that does is checked, a few per board (catches a trial that
    refutes a digit the rules do not, or a guess counted with the wrong candidates)."""
    seen = {"beyond": 0, "guess": 0}
    for givens, solution in boards()[:6]:
        position = Position(BLOCKS, givens)
        cands = start(9, BLOCKS, givens, ())
        labelled = {"beyond": 0, "guess": 0}
        for cell in (i for i, ch in enumerate(givens) if ch == "."):
            digit = int(solution[cell])
            proof = position.prove(cell, digit)
            if proof.reading not in labelled or labelled[proof.reading] >= 2:
                continue
            labelled[proof.reading] += 1
            assert not proves(9, BLOCKS, cands, "pairs", cell, digit)
            alive = survivors(9, BLOCKS, cands, cell)
            if proof.reading == "beyond":
                assert alive == {digit}
            else:
                assert digit in alive and proof.candidates == len(alive) >= 2
        for key in seen:
            seen[key] += labelled[key]
    assert seen["beyond"] and seen["guess"], seen


def test_a_mistake_is_known_where_it_was_made() -> None:
    """Catches public mistakes ignored: a cell left with two digits, one of them shown
    wrong there, is a naked single."""
    givens, solution = boards()[0]
    i = next(i for i, ch in enumerate(givens) if ch == ".")
    digits = "".join(solution[j] if j != i else "." for j in range(81))
    assert Position(BLOCKS, digits).prove(i, int(solution[i])).reading == "naked_single"


def test_the_grade_is_the_lowest_rung_that_solves_the_board() -> None:
    """Catches a grade that ignores a rung (a board solved by pairs graded a guess) or
    skips to search."""
    for givens, solution in boards()[:5]:
        got = grade(BLOCKS, givens)
        cands = start(9, BLOCKS, givens, ())
        solved = [r for r in RUNGS
                  if all(proves(9, BLOCKS, cands, r, i, int(solution[i])) for i in range(81))]
        if got in LOGIC:
            assert solved and solved[0] == got
        else:
            assert not solved
            assert solved_by_trials(9, BLOCKS, cands) == (got == "beyond")
    full = boards()[0][1]
    assert grade(BLOCKS, full) == "naked_single"
