"""``numbridge puzzle count`` and ``numbridge puzzle generate``, through a small argparse."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import pytest
from numbridge.cli import main as numbridge_main
from numbridge.puzzles import puzzle_command as cli
from numbridge.rules.geometry import Layout
from numbridge.rules.seats import GRADES
from puzzles_helpers import count_backtracking, satisfies_units

DATA = Path(__file__).parents[2] / "data" / "sudoku17.txt"
SEVENTEEN = next(
    line for line in DATA.read_text().splitlines() if line and not line.startswith("#")
)


def run(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stdin: str = "",
) -> tuple[int, str, str]:
    parser = argparse.ArgumentParser(prog="numbridge")
    sub = parser.add_subparsers(dest="command", required=True)
    cli.register(sub)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    args = parser.parse_args(argv)
    code = args.func(args)
    out, err = capsys.readouterr()
    return code, out, err


# -- count ---------------------------------------------------------------------------


def test_count(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [
        SEVENTEEN,  # unique
        SEVENTEEN.replace(".", "0"),  # '0' for empty cells
        "." * 81,  # many
        "0" * 81,
        "11" + "." * 79,  # none
        "." * 36,  # 6x6, many
        "123456" + "." * 30,  # 6x6, many
        "1.....1" + "." * 29,  # 6x6, none
        "",  # blank lines are skipped
        "  " + SEVENTEEN + "  ",  # surrounding blanks are ignored
    ]
    code, out, err = run(["puzzle", "count"], capsys, monkeypatch, "\n".join(lines) + "\n")
    assert code == 0
    assert err == ""
    assert out.splitlines() == ["1", "1", "2+", "2+", "0", "2+", "2+", "0", "1"]


def test_count_with_blocks(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import random

    from numbridge.puzzles import deal_board

    board = deal_board(6, "irregular", 10, random.Random(1))
    stdin = "\n".join([board.givens, board.solution, "." * 36, board.givens.replace(".", "0")])
    code, out, _ = run(["puzzle", "count", "--blocks", board.blocks], capsys, monkeypatch, stdin)
    assert code == 0
    assert out.split() == ["1", "1", "2+", "1"]
    # the same givens with regular blocks
    code, out, _ = run(["puzzle", "count"], capsys, monkeypatch, board.givens)
    expected = count_backtracking(board.givens)
    assert out.strip() == {0: "0", 1: "1", 2: "2+"}[expected]


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (
            SEVENTEEN + "\n" + "." * 80 + "\n" + SEVENTEEN,
            "line 2: a board has 36 or 81 cells, not 80",
        ),
        ("." * 40 + "x" + "." * 40, "line 1: cell 40 (r=4, c=4) holds 'x'"),
        ("." * 35 + "9", "line 1: cell 35 (r=5, c=5) holds '9': expected a digit 1…6"),
    ],
)
def test_count_bad_line(
    stdin: str, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["puzzle", "count"], capsys, monkeypatch, stdin)
    assert code == 2
    assert message in err
    assert err.startswith("numbridge puzzle count: error: ")
    assert out == ("1\n" if stdin.startswith(SEVENTEEN) else "")


def test_count_bad_blocks(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(["puzzle", "count", "--blocks", "0" * 81], capsys, monkeypatch, "")
    assert code == 2
    assert "--blocks: block 0 has 81 cells" in err
    regular9 = Layout.regular(9).to_string()
    code, _, err = run(["puzzle", "count", "--blocks", regular9], capsys, monkeypatch, "." * 36)
    assert code == 2
    assert "line 1" in err and "9x9" in err


# -- generate ------------------------------------------------------------------------


def generate(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> list[dict[str, object]]:
    code, out, err = run(["puzzle", "generate", *argv], capsys, monkeypatch)
    assert code == 0, err
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize(
    ("size", "kind", "clues"),
    [(9, "regular", 22), (9, "irregular", 30), (6, "regular", 12), (6, "irregular", 10)],
)
def test_generate(
    size: int,
    kind: str,
    clues: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = ["--size", str(size), "--blocks", kind, "--clues", str(clues), "--count", "3"]
    boards = generate([*argv, "--seed", "1"], capsys, monkeypatch)
    assert len(boards) == 3
    for board in boards:
        # the grade: the hardest reading the board needs (catches a board left ungraded)
        assert list(board) == ["size", "blocks", "givens", "grade"]
        assert board["grade"] in GRADES
        assert board["size"] == size
        givens, blocks = str(board["givens"]), str(board["blocks"])
        assert len(givens) == len(blocks) == size * size
        assert set(givens) <= set(".123456789"[: size + 1])
        assert sum(ch != "." for ch in givens) == clues
        assert (blocks == Layout.regular(size).to_string()) == (kind == "regular")
        assert count_backtracking(givens, blocks) == 1


def test_generate_with_solution(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    boards = generate(
        ["--size", "9", "--blocks", "irregular", "--clues", "26", "--with-solution", "--seed", "3"],
        capsys,
        monkeypatch,
    )
    assert len(boards) == 1
    board = boards[0]
    assert list(board) == ["size", "blocks", "givens", "solution", "grade"]
    givens, solution, blocks = str(board["givens"]), str(board["solution"]), str(board["blocks"])
    assert all(g in (".", s) for g, s in zip(givens, solution, strict=True))
    assert satisfies_units(solution, blocks)


def test_generate_seed_is_reproducible(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for kind in ("regular", "irregular"):
        argv = ["--size", "9", "--blocks", kind, "--clues", "24", "--count", "2", "--with-solution"]
        first = generate([*argv, "--seed", "42"], capsys, monkeypatch)
        unseeded = generate(argv, capsys, monkeypatch)
        again = generate([*argv, "--seed", "42"], capsys, monkeypatch)
        other = generate([*argv, "--seed", "43"], capsys, monkeypatch)
        assert first == again
        assert first != other
        assert first != unseeded
        assert first[0] != first[1]


def test_generate_count_zero(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        generate(
            ["--size", "6", "--blocks", "regular", "--clues", "12", "--count", "0"],
            capsys,
            monkeypatch,
        )
        == []
    )


def test_generate_impossible_clues(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(
        ["puzzle", "generate", "--size", "9", "--blocks", "regular", "--clues", "12"],
        capsys,
        monkeypatch,
    )
    assert code == 2
    assert out == ""
    assert "numbridge puzzle generate: error: a 9x9 board is dealt with 17…81 clues, not 12" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--size", "7", "--blocks", "regular", "--clues", "20"],
        ["--size", "9", "--blocks", "jigsaw", "--clues", "20"],
        ["--size", "9", "--blocks", "regular"],
        ["--size", "9", "--blocks", "regular", "--clues", "22", "--count", "-1"],
    ],
)
def test_generate_usage_errors(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit) as exc:
        run(["puzzle", "generate", *argv], capsys, monkeypatch)
    assert exc.value.code == 2


def test_the_numbridge_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real top-level parser wires the same command."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(SEVENTEEN + "\n"))
    assert numbridge_main(["puzzle", "count"]) == 0
    assert capsys.readouterr().out == "1\n"
