"""Golden tests: connections (corners touch two sides) and Domains block majorities."""

from __future__ import annotations

import random

import pytest
from numbridge.rules import Board, GameOver, GameState, Place, Take, apply, archive_record, new_game
from numbridge.rules.counts import BlockCounts
from numbridge.rules.goals import block_table, connection, touches
from numbridge.rules.seats import Seat
from rules_helpers import arrange, deal, idx


def rng() -> random.Random:
    return random.Random(5)


@pytest.mark.parametrize("size", [6, 9])
def test_corner_cells_touch_two_sides(size: int) -> None:
    n = size - 1
    top_left, top_right, bottom_left, bottom_right = 0, n, n * size, n * size + n
    # (0,0): blue's top row and red's left column
    assert touches("blue", top_left, size) == (True, False)
    assert touches("red", top_left, size) == (True, False)
    # (0,N-1): blue's top row, red's right column
    assert touches("blue", top_right, size) == (True, False)
    assert touches("red", top_right, size) == (False, True)
    # (N-1,0): blue's bottom row, red's left column
    assert touches("blue", bottom_left, size) == (False, True)
    assert touches("red", bottom_left, size) == (True, False)
    assert touches("blue", bottom_right, size) == (False, True)
    assert touches("red", bottom_right, size) == (False, True)
    # a lone middle cell touches nothing
    assert touches("blue", size + 1, size) == (False, False)


def test_red_wins_along_the_top_row_through_both_corners() -> None:
    s = deal("bridge", givens=())
    owners: dict[tuple[int, int], Seat] = {(0, c): "red" for c in range(8)}
    digit = int(s.board.solution[idx(s, 0, 8)])
    s = arrange(s, owners=owners, hands={"red": [digit]}, to_move="red")
    t = apply(s, "red", Place((0, 8), digit), 7, rng())
    assert [e.kind for e in t.events] == ["placed", "hand", "finished"]
    result = t.state.result and t.state.result.to_dict()
    assert result == {
        "winner": "red",
        "by": "goal",
        "path": [[0, c] for c in range(9)],
    }
    assert t.state.status == "finished" and t.state.turn is None
    with pytest.raises(GameOver) as err:
        apply(t.state, "blue", Place((1, 1), 1), 8, rng())
    assert err.value.due is None
    record = archive_record(t.state)
    assert record["result"] == result and record["solution"] == s.board.solution


def test_blue_wins_down_a_column_that_is_reds_side() -> None:
    # the left column c=0 is red's side, but a blue chain down it joins r=0 to r=8
    s = deal("bridge", givens=())
    owners: dict[tuple[int, int], Seat] = {(r, 0): "blue" for r in range(8)}
    digit = int(s.board.solution[idx(s, 8, 0)])
    s = arrange(s, owners=owners, hands={"blue": [digit]})
    t = apply(s, "blue", Place((8, 0), digit), 7, rng())
    assert t.state.result.to_dict() == {
        "winner": "blue",
        "by": "goal",
        "path": [[r, 0] for r in range(9)],
    }


def test_six_neighbour_chains_use_the_slanted_diagonal() -> None:
    # (r, c) - (r+1, c-1) are neighbours: the anti-diagonal from (0,5) to (5,0) joins
    # r=0 to r=5 for blue on 6x6 and c=5 to c=0 for red
    size = 6
    cells = [r * size + (5 - r) for r in range(size)]
    owners = ["."] * 36
    for i in cells:
        owners[i] = "b"
    assert connection(owners, size, "blue") == cells
    for i in cells:
        owners[i] = "r"
    assert connection(owners, size, "red") is not None
    # the other diagonal (r, c) - (r+1, c+1) is not adjacent
    owners = ["."] * 36
    for r in range(size):
        owners[r * size + r] = "b"
    assert connection(owners, size, "blue") is None


def domains_position(
    blue_blocks: int, red_blocks: int, blue_in_next: int
) -> tuple[GameState, dict[tuple[int, int], Seat], int]:
    """Blue owns ``blue_blocks`` whole blocks, red the next ``red_blocks``, and blue
    holds ``blue_in_next`` cells of the following block."""
    s = deal("domains", givens=())
    layout = s.board.layout
    owners: dict[tuple[int, int], Seat] = {}
    for i in range(81):
        b = layout.blocks[i]
        if b < blue_blocks:
            owners[divmod(i, 9)] = "blue"
        elif b < blue_blocks + red_blocks:
            owners[divmod(i, 9)] = "red"
    target = layout.block_cells(blue_blocks + red_blocks)
    for i in target[:blue_in_next]:
        owners[divmod(i, 9)] = "blue"
    return s, owners, target[blue_in_next]


def test_domains_early_end_at_five_two_with_two_undecided() -> None:
    s, owners, last = domains_position(4, 2, 4)
    digit = int(s.board.solution[last])
    s = arrange(s, owners=owners, hands={"blue": [digit]})
    table = block_table(s.owners, s.board.layout)
    assert table.counts() == BlockCounts(blue=4, red=2, undecided=3)
    t = apply(s, "blue", Place(divmod(last, 9), digit), 3, rng())
    assert [e.kind for e in t.events] == ["placed", "hand", "finished"]
    assert t.state.result.to_dict() == {
        "winner": "blue",
        "by": "goal",
        "blocks": [0, 1, 2, 3, 6],
        "block_table": {"blue": 5, "red": 2, "undecided": 2},
    }


def test_domains_no_end_while_the_other_could_still_catch_up() -> None:
    # 5 - 3 with 1 undecided: 5 > 3 + 1, ends; but 4 - 2 with 3 undecided does not
    s, owners, last = domains_position(3, 2, 4)
    digit = int(s.board.solution[last])
    s = arrange(s, owners=owners, hands={"blue": [digit]})
    t = apply(s, "blue", Place(divmod(last, 9), digit), 3, rng())
    assert t.state.status == "playing"
    assert t.events[-1].kind == "turn"
    assert t.events[-1].body.block_table == BlockCounts(blue=4, red=2, undecided=3)


def test_domains_taken_clue_counts_for_the_block() -> None:
    s, owners, last = domains_position(4, 2, 4)
    givens = "".join(s.board.solution[i] if i == last else "." for i in range(81))
    board = Board(s.board.layout, givens, s.board.solution)
    s2 = new_game("g", s.options, board, {"blue": "a", "red": "b"}, rng(), 0)
    s2 = arrange(s2, owners=owners, hands={"blue": [1, 2, 3]})
    t = apply(s2, "blue", Take(divmod(last, 9), 1), 3, rng())
    assert t.state.result is not None and t.state.result.winner == "blue"
