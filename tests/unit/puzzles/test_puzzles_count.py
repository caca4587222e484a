"""count_solutions against known puzzles and the independent counter."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from numbridge.puzzles import InvalidBoard, count_solutions, deal_board
from numbridge.rules.geometry import InvalidLayout
from puzzles_helpers import count_backtracking

DATA = Path(__file__).parents[2] / "data" / "sudoku17.txt"


def seventeen(k: int) -> list[str]:
    lines = [line.strip() for line in DATA.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")][:k]


def test_the_17_clue_set() -> None:
    boards = seventeen(1000)
    assert len(boards) == 1000
    assert all(len(b) == 81 and sum(ch != "." for ch in b) == 17 for b in boards)
    for board in boards[:20]:
        assert count_backtracking(board) == 1


def test_known_unique_puzzles() -> None:
    for board in seventeen(200):
        assert count_solutions(board) == 1
        assert count_solutions(board.replace(".", "0")) == 1


def test_no_solution() -> None:
    # two equal digits in a row, a column, a block
    assert count_solutions("11" + "." * 79) == 0
    assert count_solutions("1" + "." * 8 + "1" + "." * 71) == 0
    assert count_solutions("1" + "." * 9 + "1" + "." * 70) == 0  # (0,0) and (1,1)
    assert count_solutions("1.....1" + "." * 29) == 0  # 6x6 row
    # no digit left for cell 0, though no unit holds a digit twice
    row = ".12345678"
    blocked = row + "9" + "." * 71
    assert count_backtracking(blocked) == 0
    assert count_solutions(blocked) == 0
    # a 17-clue puzzle with one given changed has no solution or several
    board = seventeen(1)[0]
    i = next(i for i, ch in enumerate(board) if ch != ".")
    for d in "123456789":
        changed = board[:i] + d + board[i + 1 :]
        assert count_solutions(changed) == count_backtracking(changed)


def test_many_solutions() -> None:
    assert count_solutions("." * 81) == 2
    assert count_solutions("0" * 36) == 2
    assert count_solutions("." * 81, limit=1) == 1
    assert count_solutions("." * 36, limit=7) == 7
    # a unique puzzle minus one given
    board = seventeen(1)[0]
    i = next(i for i, ch in enumerate(board) if ch != ".")
    assert count_solutions(board[:i] + "." + board[i + 1 :]) == 2


def test_limit_counts_exactly_below_it() -> None:
    board = deal_board(6, "regular", 10, random.Random(5))
    solution = board.solution
    rng = random.Random(6)
    for _ in range(30):
        keep = set(rng.sample(range(36), rng.randrange(4, 12)))
        givens = "".join(ch if i in keep else "." for i, ch in enumerate(solution))
        for limit in (1, 2, 3, 5):
            assert count_solutions(givens, limit=limit) == count_backtracking(givens, None, limit)


@pytest.mark.parametrize("size", [6, 9])
@pytest.mark.parametrize("kind", ["regular", "irregular"])
def test_random_givens_agree_with_backtracking(size: int, kind: str) -> None:
    """Subsets of a solution (unique or not), the same with one digit changed (often
    no solution) and, on 6x6, random digits (sparse boards without a solution can
    keep plain backtracking busy for minutes on 9x9)."""
    rng = random.Random(f"{size}{kind}")
    for _ in range(3):
        board = deal_board(size, kind, size * size, rng)  # type: ignore[arg-type]
        blocks = None if kind == "regular" else board.blocks
        low = {9: 22, 6: 7}[size]
        for _ in range(12):
            keep = set(rng.sample(range(size * size), rng.randrange(low, low + 12)))
            givens = "".join(ch if i in keep else "." for i, ch in enumerate(board.solution))
            assert count_solutions(givens, blocks) == count_backtracking(givens, blocks)
            cell = rng.choice(sorted(keep))
            digit = str(rng.randrange(1, size + 1))
            changed = givens[:cell] + digit + givens[cell + 1 :]
            assert count_solutions(changed, blocks) == count_backtracking(changed, blocks)
        for _ in range(6 if size == 6 else 0):
            cells = rng.sample(range(size * size), rng.randrange(3, 2 * size))
            digits = ["."] * (size * size)
            for cell in cells:
                digits[cell] = str(rng.randrange(1, size + 1))
            givens = "".join(digits)
            assert count_solutions(givens, blocks) == count_backtracking(givens, blocks)


def test_irregular_blocks() -> None:
    board = deal_board(9, "irregular", 24, random.Random(8))
    assert count_solutions(board.givens, board.blocks) == 1
    assert count_solutions(board.solution, board.blocks) == 1
    assert count_solutions("." * 81, board.blocks) == 2
    # the same givens with regular blocks are another puzzle
    assert count_solutions(board.givens) == count_backtracking(board.givens)


def test_engine_rebuild_keeps_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    from numbridge.puzzles import sat
    from numbridge.rules.geometry import Layout

    monkeypatch.setattr(sat, "REBUILD_AFTER", 3)
    engine = sat.Engine(Layout.regular(6))
    rng = random.Random(9)
    board = deal_board(6, "regular", 36, rng)
    for _ in range(40):
        keep = set(rng.sample(range(36), rng.randrange(6, 14)))
        givens = [int(ch) if i in keep else 0 for i, ch in enumerate(board.solution)]
        lits = sat.given_lits(givens, 6)
        text = "".join(str(d) if d else "." for d in givens)
        assert engine.count(lits) == count_backtracking(text)
    assert engine._next_var - engine._base_vars < 3 + 2


@pytest.mark.parametrize(
    ("givens", "blocks", "error", "message"),
    [
        ("." * 80, None, InvalidBoard, "36 or 81 cells, not 80"),
        ("", None, InvalidBoard, "not 0"),
        ("x" + "." * 80, None, InvalidBoard, "cell 0"),
        ("." * 35 + "7", None, InvalidBoard, "cell 35 .r=5, c=5. holds '7'"),
        ("." * 40 + "-" + "." * 40, None, InvalidBoard, "cell 40"),
        ("." * 81, "0" * 81, InvalidLayout, "block 0 has 81 cells"),
        ("." * 81, "012345", InvalidLayout, "36 or 81"),
        (
            "." * 36,
            "0" * 9 + "1" * 9 + "2" * 9 + "3" * 9 + "4" * 9 + "5" * 9 + "6" * 9 + "7" * 9 + "8" * 9,
            InvalidLayout,
            "9x9 board, the givens for 6x6",
        ),
    ],
)
def test_bad_input_is_a_clear_error(
    givens: str, blocks: str | None, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        count_solutions(givens, blocks)
    assert issubclass(error, ValueError)


def test_bad_limit() -> None:
    with pytest.raises(ValueError, match="limit"):
        count_solutions("." * 81, limit=0)


def test_17_clue_puzzles_minus_a_given_have_several_solutions() -> None:
    # There is no 16-clue sudoku: each of these has two solutions or more. Many are
    # nearly solved by propagation alone, which is where a wrong shortcut would show.
    rng = random.Random(17)
    for board in seventeen(300):
        i = rng.choice([i for i, ch in enumerate(board) if ch != "."])
        assert count_solutions(board[:i] + "." + board[i + 1 :]) == 2
