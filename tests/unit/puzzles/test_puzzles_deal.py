"""Dealt boards, checked with the independent counter of ``puzzles_helpers``."""

from __future__ import annotations

import random
import secrets
import subprocess
import sys

import pytest
from numbridge.puzzles import DealError, DealtBoard, deal_board, random_layout
from numbridge.rules.geometry import Layout, validate_layout
from puzzles_helpers import (
    connected,
    count_backtracking,
    layout_has_solution,
    satisfies_units,
)

SETTINGS = [
    *((9, "regular", k) for k in (22, 26, 30, 34)),
    *((9, "irregular", k) for k in (22, 26, 30, 34)),
    *((6, "regular", k) for k in (10, 12, 16)),
    *((6, "irregular", k) for k in (10, 12, 16)),
]
PER_SETTING = 3


def check_board(board: DealtBoard, size: int, kind: str, clues: int) -> None:
    n = size
    assert board.size == n
    assert len(board.blocks) == len(board.givens) == len(board.solution) == n * n
    # exact clue count, givens agree with the solution
    assert sum(ch != "." for ch in board.givens) == clues
    assert set(board.givens) <= set(".123456789"[: n + 1])
    assert all(g in (".", s) for g, s in zip(board.givens, board.solution, strict=True))
    # the solution fills every row, column and block
    assert satisfies_units(board.solution, board.blocks)
    # blocks: N connected blocks of N cells (checked here and by the geometry)
    for block in range(n):
        cells = [i for i, b in enumerate(board.blocks) if b == str(block)]
        assert len(cells) == n
        assert connected(cells, n)
    validate_layout(Layout.from_string(board.blocks))
    regular = Layout.regular(n).to_string()
    assert (board.blocks == regular) == (kind == "regular")
    # exactly one solution, by plain backtracking (and it is the one we were told)
    assert count_backtracking(board.givens, board.blocks, limit=2) == 1
    assert count_backtracking(board.solution, board.blocks) == 1


@pytest.mark.parametrize(("size", "kind", "clues"), SETTINGS)
def test_dealt_boards_are_unique_with_exact_clues(size: int, kind: str, clues: int) -> None:
    rng = random.Random(f"{size}-{kind}-{clues}")
    boards = [deal_board(size, kind, clues, rng) for _ in range(PER_SETTING)]  # type: ignore[arg-type]
    for board in boards:
        check_board(board, size, kind, clues)
    assert len({b.solution for b in boards}) == PER_SETTING
    if kind == "irregular":
        assert len({b.blocks for b in boards}) == PER_SETTING


@pytest.mark.parametrize(("size", "kind", "clues"), [(9, "regular", 22), (6, "irregular", 10)])
def test_production_random_source(size: int, kind: str, clues: int) -> None:
    rng = secrets.SystemRandom()
    for _ in range(2):
        check_board(deal_board(size, kind, clues, rng), size, kind, clues)  # type: ignore[arg-type]


def test_seed_reproduces_the_deal() -> None:
    for size, kind, clues in [(9, "regular", 24), (9, "irregular", 26), (6, "irregular", 12)]:
        first = deal_board(size, kind, clues, random.Random(2024))  # type: ignore[arg-type]
        # a production deal in between must not change what a seed gives
        deal_board(size, kind, clues, secrets.SystemRandom())  # type: ignore[arg-type]
        again = deal_board(size, kind, clues, random.Random(2024))  # type: ignore[arg-type]
        other = deal_board(size, kind, clues, random.Random(2025))  # type: ignore[arg-type]
        assert first == again
        assert other != first


def test_irregular_layouts_differ_between_deals() -> None:
    for size in (9, 6):
        rng = random.Random(size)
        layouts = [
            deal_board(size, "irregular", 30 if size == 9 else 16, rng).blocks for _ in range(8)
        ]
        assert len(set(layouts)) == len(layouts)


@pytest.mark.parametrize("size", [9, 6])
def test_random_layout(size: int) -> None:
    rng = random.Random(size * 7)
    seen = set()
    for _ in range(10):
        layout = random_layout(size, rng)
        assert isinstance(layout, Layout)
        assert layout.size == size
        validate_layout(layout)
        for block in range(size):
            cells = [i for i, b in enumerate(layout.blocks) if b == block]
            assert len(cells) == size
            assert connected(cells, size)
        text = layout.to_string()
        assert text != Layout.regular(size).to_string()
        assert layout_has_solution(text)
        seen.add(text)
    assert len(seen) == 10


@pytest.mark.parametrize(
    ("size", "kind", "clues", "message"),
    [
        (7, "regular", 30, "size"),
        (9, "jigsaw", 30, "blocks"),
        (9, "regular", 16, "17"),
        (9, "regular", 82, "81"),
        (6, "irregular", 7, "8"),
        (6, "regular", 37, "36"),
    ],
)
def test_impossible_settings(size: int, kind: str, clues: int, message: str) -> None:
    with pytest.raises(DealError, match=message):
        deal_board(size, kind, clues, random.Random(1))  # type: ignore[arg-type]


def test_budget_exhausted_is_a_clear_error() -> None:
    with pytest.raises(DealError, match="within 0 s"):
        deal_board(9, "regular", 22, random.Random(1), budget_s=0)


def test_full_and_nearly_empty_extremes() -> None:
    board = deal_board(6, "regular", 36, random.Random(3))
    assert board.givens == board.solution
    board = deal_board(9, "irregular", 81, random.Random(3))
    assert board.givens == board.solution
    check_board(deal_board(6, "regular", 9, random.Random(4)), 6, "regular", 9)


def test_python_sat_is_not_imported_with_the_package() -> None:
    code = (
        "import sys, numbridge.puzzles, numbridge.puzzles.puzzle_command, numbridge.puzzles.board;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('pysat', 'pysolvers')"
        " or m in ('numbridge.puzzles.sat', 'numbridge.puzzles.deal')];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
