"""The coach's trials by unit propagation (a CaDiCaL solver that never searches) give
exactly what the Python singles loop they replaced gave: the loop is kept here as the
reference, and both are run on the 17-clue sudokus, on dealt boards of every layout
and size, and on mid-game positions with mistakes. A trial that propagation refutes
and the singles do not (or the other way) would change a review's labels and a deal's
grade; these tests catch it."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from numbridge.bot.sudoku import deduce
from numbridge.coach import Position, grade
from numbridge.coach.readings import (
    _TECHNIQUES,
    _TRIAL,
    LOGIC,
    _built_singles,
    _trials_solve,
)
from numbridge.puzzles import deal_board
from testkit.sudoku import regular_blocks, solve

SEVENTEEN = Path(__file__).resolve().parents[2] / "data" / "sudoku17.txt"
BLOCKS = regular_blocks(9)


# -- the reference: the trials as they were, a Python singles loop per trial ------------

def reference_refutes(position: Position, masks: list[int], cell: int, b: int) -> bool:
    trial = list(masks)
    trial[cell] = b
    return deduce(position.grid, trial, _TRIAL) is None


def reference_survivors(position: Position, cell: int) -> list[int]:
    base = position.masks("pairs")
    out = []
    m = base[cell]
    while m:
        b = m & -m
        m ^= b
        if not reference_refutes(position, base, cell, b):
            out.append(b.bit_length())
    return out


def reference_trials_solve(position: Position) -> bool:
    grid = position.grid
    masks = position.masks("pairs")
    while True:
        refuted = False
        for i in sorted((i for i, m in enumerate(masks) if m & (m - 1)),
                        key=lambda i: masks[i].bit_count()):
            rest = masks[i]
            while rest:
                b = rest & -rest
                rest ^= b
                if masks[i] & (masks[i] - 1) == 0 or not masks[i] & b:
                    break
                if not reference_refutes(position, masks, i, b):
                    continue
                struck = list(masks)
                struck[i] &= ~b
                narrowed = deduce(grid, struck, _TECHNIQUES["pairs"])
                if narrowed is None:
                    return False
                masks = narrowed
                refuted = True
                if all(m & (m - 1) == 0 for m in masks):
                    return True
        if not refuted:
            return False


def reference_grade(blocks: str, givens: str) -> str:
    position = Position(blocks, givens)
    for reading in LOGIC:
        if all(m & (m - 1) == 0 for m in position.masks(reading)):
            return reading
    return "beyond" if reference_trials_solve(position) else "guess"


# -- boards -------------------------------------------------------------------------------

@cache
def seventeen() -> tuple[str, ...]:
    lines = [ln.strip() for ln in SEVENTEEN.read_text().splitlines()]
    return tuple(ln for ln in lines if ln and not ln.startswith("#"))


@cache
def dealt() -> tuple[tuple[str, str, str], ...]:
    """(blocks, givens, solution) of boards dealt on every layout kind and size, at
    the lowest clue counts (the hardest boards) and asked hard grades too."""
    rng = random.Random(20261206)
    out = []
    for size, kind, clues, grades in (
        (9, "regular", 22, None), (9, "irregular", 22, None), (9, "regular", 26, ("beyond",)),
        (9, "irregular", 26, ("pairs", "beyond", "guess")), (6, "regular", 10, None),
        (6, "irregular", 10, None), (6, "regular", 12, ("locked_candidates", "pairs", "beyond")),
    ):
        for _ in range(12):
            board = deal_board(size, kind, clues, rng, grades=grades)  # type: ignore[arg-type]
            out.append((board.blocks, board.givens, board.solution))
    return tuple(out)


def mid_game(blocks: str, givens: str, solution: str, rng: random.Random) -> Position:
    """Some of the solution shown and a few public mistakes (digits known wrong)."""
    empty = [i for i, ch in enumerate(givens) if ch == "."]
    shown = set(rng.sample(empty, len(empty) // rng.randint(3, 8)))
    digits = "".join(solution[i] if i in shown else ch for i, ch in enumerate(givens))
    still = [i for i in empty if i not in shown]
    n = len(solution) ** 0.5
    wrong = {(i, d) for i in rng.sample(still, min(6, len(still)))
             for d in [rng.randint(1, int(n))] if str(d) != solution[i]}
    return Position(blocks, digits, frozenset(wrong))


def every_trial(position: Position) -> list[tuple[list[int], int, int]]:
    """Each open cell's each candidate at the pairs fixpoint, and on candidates with a
    few more digits struck at random (some of them contradictory: the answers must
    agree there too)."""
    rng = random.Random(position.digits)
    base = position.masks("pairs")
    states = [base]
    for _ in range(2):
        struck = list(base)
        for i in rng.sample(range(len(base)), 8):
            if struck[i] & (struck[i] - 1):
                struck[i] &= ~(struck[i] & -struck[i])
        states.append(struck)
    out = []
    for masks in states:
        for cell, m in enumerate(masks):
            if m & (m - 1) == 0:
                continue
            rest = m
            while rest:
                b = rest & -rest
                rest ^= b
                out.append((masks, cell, b))
    return out


# -- the tests ----------------------------------------------------------------------------

def check_trials(position: Position) -> int:
    singles = _built_singles(position.blocks)
    done = 0
    known_of: dict[int, list[int]] = {}
    for masks, cell, b in every_trial(position):
        if id(masks) not in known_of:
            # The singles' fixpoint itself (grade climbs on from it), or None for both.
            assert singles.closure(masks) == deduce(position.grid, masks, _TRIAL)
        known = known_of.setdefault(id(masks), singles.assumptions(masks))
        assert singles.refutes(known, cell, b) == reference_refutes(position, masks, cell, b), (
            position.digits, cell, b.bit_length())
        done += 1
    return done


def test_each_trial_is_refuted_exactly_when_the_singles_loop_refutes_it() -> None:
    """One trial, propagation against the Python singles, on every candidate of 17-clue
    boards, dealt boards of each layout and mid-game positions (with extra digits
    struck, contradictions included), and the singles' fixpoint of each state (where
    a grade climbs on from): a missing rule in the encoding (a hidden single not
    propagated, a unit of an irregular layout left out) shows up as a difference."""
    rng = random.Random(7)
    positions = [Position(BLOCKS, g) for g in seventeen()[::25]]
    for blocks, givens, solution in dealt():
        positions.append(Position(blocks, givens))
        positions.append(mid_game(blocks, givens, solution, rng))
    for givens in seventeen()[3::50]:
        positions.append(mid_game(BLOCKS, givens, solve(givens, BLOCKS), rng))
    assert sum(check_trials(p) for p in positions) > 5000


def test_grades_are_the_reference_grades_on_every_seventeen_clue_sudoku() -> None:
    """The grade of each of the 1000 17-clue sudokus (many of them beyond, where the
    trials decide), new trials against the old."""
    _built_singles(BLOCKS)
    seen = set()
    for givens in seventeen():
        got = grade(BLOCKS, givens)
        assert got == reference_grade(BLOCKS, givens), givens
        seen.add(got)
    assert "beyond" in seen


def test_grades_and_trial_rounds_are_the_reference_on_dealt_boards_and_mid_game() -> None:
    """Dealt boards of every layout and size, and positions in the middle of their
    games (shown digits and mistakes): the grade, the rounds of trials from the pairs
    fixpoint, and each open cell's survivors (the review's beyond/guess label and its
    count of digits left) are the reference's."""
    rng = random.Random(11)
    labels = set()
    for blocks, givens, solution in dealt():
        _built_singles(blocks)  # propagation, not the loop a one-off layout starts with
        assert grade(blocks, givens) == reference_grade(blocks, givens), (blocks, givens)
        for position in (Position(blocks, givens), mid_game(blocks, givens, solution, rng)):
            fresh = Position(position.blocks, position.digits, position.wrong)
            assert _trials_solve(position) == reference_trials_solve(fresh)
            for cell in position.empty():
                got = position.survivors(cell)
                assert got == reference_survivors(position, cell), (position, cell)
                right = int(solution[cell])
                labels.add(position.prove(cell, right).reading)
    assert {"beyond", "guess"} <= labels
