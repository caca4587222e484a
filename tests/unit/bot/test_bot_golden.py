"""Golden positions: what each level must (and must not) see and do.

Each position is a real game state arranged by hand; its preconditions (a
naked or hidden single, a single winning cell...) are checked with the
independent checker of bot_helpers before the bot is asked.
"""

from __future__ import annotations

import pytest
from bot_helpers import (
    SOL9,
    arrange,
    candidates,
    cell,
    deal,
    hidden_single,
    play_frame,
    think,
    view,
)
from numbridge.bot import Knowledge, observe
from numbridge.bot.beliefs import beliefs
from numbridge.bot.position import LEVELS, read_view
from numbridge.rules.goals import connection

# Blue's chain from row 0 down to row 7; (7, 3) touches row 8 at (8, 2) and (8, 3).
CHAIN = [(0, 6), (1, 6), (2, 5), (3, 5), (4, 4), (5, 4), (6, 3), (7, 3)]
WIN_CELL = cell(8, 3)
HIDDEN_GIVENS = [5, 7, 9, 10, 14, 18, 20, 21, 26, 35, 37, 38, 39, 44, 45, 46, 53, 56, 58, 59,
                 60, 62, 68, 69, 70, 72, 79, 80]


def _won_by(state, seat, frame) -> bool:  # type: ignore[no-untyped-def]
    after = play_frame(state, seat, frame).state
    return after.status == "finished" and after.result is not None and (
        after.result.winner == seat
    )


def _one_cell_from_winning(givens: list[int]) -> tuple:  # type: ignore[type-arg]
    """Blue needs only WIN_CELL (red holds the other way down); blue holds its digit."""
    owners = {cell(r, c): "blue" for r, c in CHAIN}
    owners |= {cell(8, 2): "red", cell(2, 6): "red", cell(4, 5): "red"}
    state = deal("bridge", givens)
    digit = int(SOL9[WIN_CELL])
    others = [d for d in range(1, 10) if d != digit][:2]
    state = arrange(state, owners=owners, hands={"blue": [digit, *others]})
    return state, digit


@pytest.mark.parametrize("level", LEVELS)
def test_a_forced_naked_single_that_wins_is_found_at_every_level(level: str) -> None:
    # Blue's chain runs down column 4: the last cell's column shows every other digit.
    owners = {cell(r, 4): "blue" for r in range(8)} | {cell(8, 3): "red", cell(3, 5): "red"}
    state = deal("bridge", [cell(0, 0), cell(2, 2), cell(6, 7)])
    target = cell(8, 4)
    digit = int(SOL9[target])
    state = arrange(state, owners=owners, hands={"blue": [digit, *(
        d for d in (1, 2, 3) if d != digit)][:3]})
    assert candidates(state.digits, 9)[target] == {digit}  # a naked single
    assert beliefs(read_view(view(state, "blue")), set(), level).known[target] == digit  # type: ignore[arg-type]
    frame = think(state, "blue", level)  # type: ignore[arg-type]
    assert frame == {"action": "place", "game": "g-bot", "cell": [8, 4], "digit": digit}
    assert _won_by(state, "blue", frame)


def test_a_hidden_single_only_normal_and_strong_deduce() -> None:
    state, digit = _one_cell_from_winning(HIDDEN_GIVENS)
    digits = state.digits
    assert len(candidates(digits, 9)[WIN_CELL]) >= 2  # not a naked single...
    assert hidden_single(digits, 9, WIN_CELL, digit)  # ...but a hidden one
    position = read_view(view(state, "blue"))
    easy = beliefs(position, set(), "easy")
    assert WIN_CELL not in easy.known
    assert easy.chance(WIN_CELL, digit) < 1.0  # easy can only guess it
    for level in ("normal", "strong"):
        assert beliefs(position, set(), level).known[WIN_CELL] == digit  # type: ignore[arg-type]
        frame = think(state, "blue", level)  # type: ignore[arg-type]
        assert frame == {"action": "place", "game": "g-bot", "cell": [8, 3], "digit": digit}


@pytest.mark.parametrize("level", LEVELS)
def test_a_one_move_hex_win_is_taken(level: str) -> None:
    # The winning cell is a free clue: a take (paid with any tile) wins.
    state, _ = _one_cell_from_winning([WIN_CELL, cell(0, 0), cell(4, 8)])
    frame = think(state, "blue", level)  # type: ignore[arg-type]
    assert frame is not None and frame["action"] == "take" and frame["cell"] == [8, 3]
    assert _won_by(state, "blue", frame)


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_opponents_one_cell_win_is_blocked(level: str) -> None:
    # Red to move; blue needs only the clue at WIN_CELL; red can take it.
    state, _ = _one_cell_from_winning([WIN_CELL, cell(0, 0), cell(4, 8)])
    state = arrange(state, hands={"blue": [], "red": [1, 2, 3]}, to_move="red")
    threat = list(state.owners)
    threat[WIN_CELL] = "b"
    assert connection(threat, 9, "blue") is not None  # the threat is real
    frame = think(state, "red", level)  # type: ignore[arg-type]
    assert frame is not None and frame["cell"] == [8, 3]
    play_frame(state, "red", frame)  # legal


@pytest.mark.parametrize("level", LEVELS)
def test_a_deciding_domains_block_is_contested(level: str) -> None:
    # Block 0 stands 4-4 with one empty cell; blue has 3 blocks, red 3; red to move
    # holds the digit of that cell, whoever gets it takes the lead.
    last = cell(2, 2)
    block0 = [cell(r, c) for r in range(3) for c in range(3) if cell(r, c) != last]
    owners: dict[int, str] = {i: ("blue" if k % 2 else "red") for k, i in enumerate(block0)}
    for block, seat in ((1, "blue"), (2, "blue"), (3, "blue"), (4, "red"), (5, "red"), (6, "red")):
        r0, c0 = divmod(block, 3)
        for k, (dr, dc) in enumerate((a, b) for a in range(3) for b in range(3)):
            if k < 5:
                owners[cell(3 * r0 + dr, 3 * c0 + dc)] = seat
    state = deal("domains", [cell(8, 8), cell(7, 7)])
    digit = int(SOL9[last])
    state = arrange(state, owners=owners, hands={"red": [digit, 1 if digit != 1 else 2]},  # type: ignore[arg-type]
                    to_move="red", moves_left_in_pair=1)
    v = view(state, "red")
    assert v["block_table"] == {"blue": 3, "red": 3, "undecided": 3}
    frame = think(state, "red", level)  # type: ignore[arg-type]
    assert frame == {"action": "place", "game": "g-bot", "cell": [2, 2], "digit": digit}
    after = play_frame(state, "red", frame).state
    assert view(after, "red")["block_table"]["red"] == 4


def _after_blue_opens(r: int, c: int):  # type: ignore[no-untyped-def]
    state = deal("bridge", [cell(0, 1), cell(8, 7)])
    digit = int(SOL9[cell(r, c)])
    state = arrange(state, hands={"blue": [digit, *(d for d in (1, 2, 3) if d != digit)][:3]})
    frame = {"action": "place", "game": "g-bot", "cell": [r, c], "digit": digit}
    return play_frame(state, "blue", frame).state


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_pie_rule_takes_over_a_central_first_cell(level: str) -> None:
    state = _after_blue_opens(4, 4)
    assert view(state, "red")["swap_available"] is True
    for seed in range(3):
        frame = think(state, "red", level, seed=seed)  # type: ignore[arg-type]
        assert frame == {"action": "swap", "game": "g-bot"}
        play_frame(state, "red", frame)


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_the_pie_rule_leaves_an_acute_corner(level: str) -> None:
    state = _after_blue_opens(0, 0)
    assert view(state, "red")["swap_available"] is True
    for seed in range(3):
        frame = think(state, "red", level, seed=seed)  # type: ignore[arg-type]
        assert frame is not None and frame["action"] != "swap"
        play_frame(state, "red", frame)


@pytest.mark.parametrize("level", ["normal", "strong"])
def test_blue_opens_where_the_pie_rule_would_not_pay(level: str) -> None:
    state = deal("bridge", list(range(0, 81, 3)))
    frame = think(state, "blue", level)  # type: ignore[arg-type]
    assert frame is not None and frame["action"] in ("place", "take")
    r, c = frame["cell"]
    assert (r, c) != (4, 4)  # the centre would be taken over at once


def _swappable_rectangle() -> tuple[int, int, int, int]:
    """Four cells in two blocks holding a, b / b, a: with every other cell given, the
    board has two solutions, and no logic can tell them apart."""
    def at(r: int, c: int) -> str:
        return SOL9[cell(r, c)]

    for r1 in range(9):
        for r2 in range(r1 + 1, 3 * (r1 // 3) + 3):  # the same band of blocks
            for c1 in range(9):
                for c2 in range(3 * (c1 // 3) + 3, 9):  # another stack
                    if at(r1, c1) == at(r2, c2) and at(r1, c2) == at(r2, c1):
                        return cell(r1, c1), cell(r1, c2), cell(r2, c1), cell(r2, c2)
    raise AssertionError("no such rectangle in the solution")


def test_a_public_mistake_teaches_normal_the_other_digit() -> None:
    corners = _swappable_rectangle()
    state = deal("bridge", [i for i in range(81) if i not in corners])
    target = corners[0]
    right = int(SOL9[target])
    wrong = int(SOL9[corners[1]])
    assert candidates(state.digits, 9)[target] == {right, wrong}
    r, c = divmod(target, 9)
    frame = {"type": "mistake", "game": "g-bot", "v": 3, "seat": "red", "cell": [r, c],
             "digit": wrong}
    knowledge = observe(Knowledge(), frame)
    ruled_out = knowledge.ruled_out(9)
    assert ruled_out == {(target, wrong)}
    position = read_view(view(state, "blue"))
    assert not beliefs(position, set(), "normal").known  # two solutions: nothing is known
    taught = beliefs(position, ruled_out, "normal").known
    assert taught == {i: int(SOL9[i]) for i in corners}  # one mistake settles all four
    easy = beliefs(position, ruled_out, "easy")
    assert target not in easy.known  # easy does not reason from it...
    assert easy.chance(target, wrong) == 0.0  # ...but never repeats it
