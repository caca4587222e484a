"""Dealing a hard grade on purpose: propagation as the coach's rungs, padding that keeps
the grade, and the grade dealt always the one asked."""

from __future__ import annotations

import random
import time

import pytest
from numbridge.coach import Position, grade
from numbridge.coach.readings import LOGIC
from numbridge.puzzles import deal_board
from numbridge.puzzles.deal import DealStats, _Dealer
from numbridge.puzzles.layouts import solvable_layout
from numbridge.puzzles.sat import COUNT, DEAL, Engine, Propagator
from numbridge.rules.geometry import Layout
from puzzles_helpers import count_backtracking


def _text(dealer: _Dealer, givens: list[int]) -> str:
    chosen = set(givens)
    n = dealer.n
    return "".join(str((x - 1) % n + 1) if c in chosen else "." for c, x in enumerate(dealer.lits))


def _cores(layout: Layout, seed: int, count: int, clues: int) -> list[tuple[_Dealer, list[int]]]:
    """Minimal givens of a few solutions of ``layout``, and their dealers (a fresh solver)."""
    rng = random.Random(seed)
    engine = Engine(layout, DEAL)
    out: list[tuple[_Dealer, list[int]]] = []
    while len(out) < count:
        dealer = _Dealer(engine, rng, DealStats(), time.monotonic() + 30)
        dealer.random_solution()
        givens = dealer.search(clues)
        if givens is not None:
            out.append((dealer, dealer.minimize(givens, 0)))
            out.append((dealer, givens))
    return out


@pytest.mark.parametrize(("size", "irregular"), [(9, False), (9, True), (6, True)])
def test_propagation_fills_exactly_what_the_coachs_rung_fills(size: int, irregular: bool) -> None:
    """Catches a propagator stronger or weaker than the rung it stands for (learnt clauses
    of a solver that searched, the encodings swapped): a board would be turned away as
    too easy that the coach grades harder, or padded with a given that makes it easier."""
    layout = solvable_layout(size, random.Random(2), time.monotonic() + 30)[0] if irregular \
        else Layout.regular(size)
    blocks = layout.to_string()
    rungs = {DEAL: "hidden_single", COUNT: "locked_candidates"}
    props = {kind: Propagator(layout, kind) for kind in rungs}
    kinds_filled = set()
    for dealer, givens in _cores(layout, 7, 6, {9: 26, 6: 12}[size]):
        position = Position(blocks, _text(dealer, givens))
        for kind, rung in rungs.items():
            masks = position.masks(rung)  # type: ignore[arg-type]
            coach = {i for i, m in enumerate(masks) if m & (m - 1) == 0}
            cells = props[kind].cells([dealer.lits[c] for c in givens])
            assert {(x - 1) // size for x in cells} == coach, (kind, position.digits)
            assert all(dealer.lits[(x - 1) // size] == x for x in cells)  # the solution's
            assert props[kind].fills([dealer.lits[c] for c in givens]) == \
                (len(coach) == size * size)
            kinds_filled.add((kind, len(coach) == size * size))
    assert len(kinds_filled) >= 3  # boards that fill and boards that do not were seen


def test_padding_with_cells_propagation_fills_keeps_the_grade() -> None:
    """Catches padding drawn at random (or from another board's propagation): a given the
    rung would not have filled can make the board easier, and the dealer would deal
    far more boards of another grade before one fits."""
    layout = Layout.regular(9)
    prop = Propagator(layout, COUNT)
    checked = 0
    for dealer, givens in _cores(layout, 3, 14, 26):
        core = dealer.minimize(givens, 0)
        filled = prop.cells([dealer.lits[c] for c in core])
        if len(filled) == 81:
            continue  # locked candidates fill it: no grade to keep
        padded = dealer.pad(core, filled, 26)
        assert len(set(padded)) == 26 and set(core) <= set(padded)
        assert set(padded) - set(core) <= {(x - 1) // 9 for x in filled}
        assert grade(layout.to_string(), _text(dealer, padded)) == \
            grade(layout.to_string(), _text(dealer, core))
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize(("size", "blocks", "clues", "asked"), [
    (9, "regular", 26, {"beyond"}),
    (9, "regular", 24, {"pairs", "beyond"}),
    (9, "irregular", 26, {"beyond"}),
    (9, "regular", 28, {"locked_candidates"}),
    (6, "regular", 10, {"locked_candidates", "pairs", "beyond"}),
])
def test_a_hard_grade_asked_is_dealt_exactly_on_a_unique_board(
        size: int, blocks: str, clues: int, asked: set[str]) -> None:
    """Catches an aimed deal that returns the core's grade guessed rather than graded, a
    padded board with the wrong number of givens, or givens that no longer fix the
    solution (padding only adds givens of the solution: it must stay unique)."""
    rng = random.Random(17)
    for _ in range(3):
        board = deal_board(size, blocks, clues, rng, grades=asked)  # type: ignore[arg-type]
        assert board.grade in asked
        assert grade(board.blocks, board.givens) == board.grade
        assert sum(ch != "." for ch in board.givens) == clues
        assert all(g in (".", s) for g, s in zip(board.givens, board.solution, strict=True))
        assert count_backtracking(board.givens, board.blocks) == 1


def test_a_core_propagation_fills_is_turned_away_before_grading() -> None:
    """Catches the aim switched off (every search graded, most of them off grade): asked
    for ``beyond``, the boards the dealer grades and turns away are few beside the
    cores propagation turned away first."""
    stats = DealStats()
    from numbridge.puzzles.deal import deal_board as deal

    for seed in range(6):
        board = deal(9, "regular", 26, random.Random(seed), stats=stats, grades={"beyond"})
        assert board.grade == "beyond"
    assert stats.too_easy > stats.off_grade


def test_the_grade_climbs_the_same_rungs_as_a_review() -> None:
    """Catches a grading that goes on from a lower rung's deductions to another fixpoint
    than a review's, which deduces each rung from the board: the grade must be the first
    rung whose own deductions fill the board."""
    rng = random.Random(23)
    seen = set()
    boards = [deal_board(9, "regular", k, rng) for k in (22, 24, 26, 28, 30, 34) for _ in range(4)]
    boards += [deal_board(9, "regular", 26, rng, grades={g}) for g in ("pairs", "beyond")]
    for board in boards:
        position = Position(board.blocks, board.givens)
        want = next((r for r in LOGIC
                     if all(m & (m - 1) == 0 for m in position.masks(r))), None)
        got = grade(board.blocks, board.givens)
        assert got == (want or got) and (want is not None or got in ("beyond", "guess"))
        seen.add(got)
    assert {"hidden_single", "beyond"} <= seen


def test_completing_with_an_aim_keeps_propagation_open_more_often() -> None:
    """Catches the aim of a completion ignored: a core that propagation fills, a few givens
    dropped and completed again, should come back open (a board harder than the rung)
    more often when each new given is one that leaves propagation open."""
    layout = Layout.regular(9)
    prop = Propagator(layout, COUNT)
    opened = {}
    for aim in (None, prop):
        rng = random.Random(4)
        engine = Engine(layout, DEAL)
        hits = tries = 0
        for _ in range(30):
            dealer = _Dealer(engine, rng, DealStats(), time.monotonic() + 30)
            dealer.random_solution()
            givens = dealer.search(26)
            if givens is None:
                continue
            core = dealer.minimize(givens, 0)
            if prop.fills([dealer.lits[c] for c in core]):
                again = dealer.complete(rng.sample(core, len(core) - 3), aim)
                again = dealer.minimize(again, 0)
                tries += 1
                hits += not prop.fills([dealer.lits[c] for c in again])
            engine.retire(dealer.act)
        opened[aim is not None] = hits / max(tries, 1)
    assert opened[True] > opened[False] + 0.1
