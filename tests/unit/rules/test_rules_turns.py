"""Golden tests: turn order (1-2-2 in Domains), timeouts, automatic passes, the pie rule."""

from __future__ import annotations

import random

import pytest
from numbridge.rules import (
    GameState,
    IllegalAction,
    NotYourTurn,
    Place,
    Swap,
    Take,
    advance,
    apply,
    new_game,
    next_deadline,
    player_view,
    spectator_view,
)
from numbridge.rules.counts import BlockCounts
from numbridge.rules.events import Passed, Swapped, Timeout
from numbridge.rules.seats import Seat
from rules_helpers import (
    arrange,
    check_tiles,
    deal,
    empty_cell_for,
    free_clue,
    idx,
    make_board,
    options,
    play_correct,
    play_mistake,
)


def rng() -> random.Random:
    return random.Random(3)


# --- Domains order -----------------------------------------------------------


def test_domains_order_is_a_b_b_a_a_b_b() -> None:
    s = deal("domains")
    order = []
    for _ in range(9):
        order.append((s.turn, s.moves_left_in_pair))
        s = play_correct(s, s.to_move)
    assert order == [
        ("blue", 1),
        ("red", 2),
        ("red", 1),
        ("blue", 2),
        ("blue", 1),
        ("red", 2),
        ("red", 1),
        ("blue", 2),
        ("blue", 1),
    ]


def test_bridge_alternates() -> None:
    s = deal("bridge")
    seen = []
    for _ in range(4):
        seen.append((s.turn, s.moves_left_in_pair))
        s = play_correct(s, s.to_move)
    assert seen == [("blue", 1), ("red", 1), ("blue", 1), ("red", 1)]


def test_domains_mistake_on_first_move_of_a_pair_keeps_the_second() -> None:
    s = play_correct(deal("domains"), "blue")
    assert (s.turn, s.moves_left_in_pair) == ("red", 2)
    s = play_mistake(s, "red")
    assert (s.turn, s.moves_left_in_pair) == ("red", 1)
    assert player_view(s, "red", 0)["moves_left_in_pair"] == 1
    s = play_correct(s, "red")
    assert (s.turn, s.moves_left_in_pair) == ("blue", 2)


def test_domains_timeout_costs_the_whole_pair() -> None:
    s = play_correct(deal("domains"), "blue")  # A B B A A: each has made a first move
    s = play_correct(play_correct(s, "red"), "red")
    s = play_correct(play_correct(s, "blue"), "blue", now=1_000)
    assert (s.turn, s.moves_left_in_pair) == ("red", 2)
    due = next_deadline(s)
    assert due == 1_000 + 45_000
    assert advance(s, due - 1, rng()).events == ()
    t = advance(s, due, rng())
    assert [e.kind for e in t.events] == ["timeout", "turn"]
    assert t.events[0].body == Timeout("red")
    n = t.state
    assert (n.turn, n.moves_left_in_pair) == ("blue", 2)
    assert n.turn_started_ms == due and next_deadline(n) == due + 45_000
    assert n.red.clock_ms == 1_200_000 - 45_000
    assert n.record[-1].action == "timeout" and n.record[-1].time_ms == 45_000


def test_domains_timeout_on_the_second_move_passes_the_turn() -> None:
    s = play_correct(deal("domains"), "blue")
    s = play_correct(s, "red", now=10)
    assert (s.turn, s.moves_left_in_pair) == ("red", 1)
    n = advance(s, 10 + 45_000, rng()).state
    assert (n.turn, n.moves_left_in_pair) == ("blue", 2)


def test_timeout_refills_the_hand_like_a_mistake() -> None:
    s = deal("blitz", givens=range(0, 36, 3))
    r, c = free_clue(s)
    s = apply(s, "blue", Take((r, c), s.blue.hand[0]), 0, rng()).state
    assert len(s.blue.hand) == 1
    s = play_correct(s, "red", now=100)
    t = advance(s, 100 + 30_000, rng())
    assert [e.kind for e in t.events] == ["timeout", "hand", "turn"]
    assert t.events[1].to == "blue" and len(t.state.blue.hand) == 3
    check_tiles(t.state)


# --- automatic pass ----------------------------------------------------------


def endgame(variant: str, givens: set[int], empty: list[tuple[int, int]]) -> GameState:
    """Rows 0..N-2 blue (bar the listed empty cells), row N-1 red (bar empty cells):
    nobody connected. Bridge only."""
    size = 9
    s = new_game(
        "g-end",
        options(variant),
        make_board(size, givens),
        {"blue": "ana", "red": "bob"},
        random.Random(1),
        0,
    )
    owners: dict[tuple[int, int], Seat] = {}
    for i in range(size * size):
        r, c = divmod(i, size)
        if i in givens or (r, c) in empty:
            continue
        owners[(r, c)] = "red" if r == size - 1 else "blue"
    return arrange(s, owners=owners, hands={"blue": [], "red": []})


def test_auto_pass_exactly_when_hand_bag_and_free_clues_are_all_empty() -> None:
    empty = [(8, 2), (8, 4), (8, 6)]
    s = endgame("bridge", set(), empty)
    sol = [int(s.board.solution[idx(s, r, c)]) for r, c in empty]
    s = arrange(s, hands={"red": sol}, to_move="red")
    assert s.bag == () and s.blue.hand == ()
    t = apply(s, "red", Place((8, 2), sol[0]), 5, rng())
    assert [e.kind for e in t.events] == ["placed", "hand", "passed", "turn"]
    assert t.events[2].body == Passed("blue")
    n = t.state
    assert n.turn == "red" and n.record[-1].action == "pass" and n.record[-1].seat == "blue"
    assert n.turns_played == s.turns_played + 2
    check_tiles(n)


def test_no_auto_pass_while_a_free_clue_remains() -> None:
    empty = [(8, 2), (8, 4), (8, 6)]
    clue = idx(deal(), 8, 8)
    s = endgame("bridge", {clue}, empty)
    sol = [int(s.board.solution[idx(s, r, c)]) for r, c in empty]
    s = arrange(s, hands={"red": sol}, to_move="red")
    t = apply(s, "red", Place((8, 2), sol[0]), 5, rng())
    assert [e.kind for e in t.events] == ["placed", "hand", "turn"]
    assert t.state.turn == "blue"
    # blue takes the free clue for nothing
    n = apply(t.state, "blue", Take((8, 8)), 6, rng()).state
    assert n.owners[clue] == "b"


def test_no_auto_pass_while_the_bag_has_tiles() -> None:
    empty = [(8, 2), (8, 4), (8, 6), (8, 7)]
    s = endgame("bridge", set(), empty)
    sol = [int(s.board.solution[idx(s, r, c)]) for r, c in empty]
    s = arrange(s, hands={"red": sol[:3]}, to_move="red")
    assert len(s.bag) == 1
    # red makes a mistake: its tile goes back, red draws, the bag keeps one tile
    t = apply(s, "red", Place((8, 4), sol[0]), 5, rng())
    assert t.events[0].kind == "mistake"
    assert "passed" not in [e.kind for e in t.events]
    assert t.state.turn == "blue" and len(t.state.bag) == 1


def test_domains_auto_pass_passes_the_whole_pair() -> None:
    # blocks 0-3 blue, 4-7 red, block 8 (rows 6-8, cols 6-8): 3 blue, 3 red, 3 empty
    s = deal("domains", givens=())
    layout = s.board.layout
    block8 = list(layout.block_cells(8))
    owners: dict[tuple[int, int], Seat] = {}
    for i in range(81):
        b = layout.blocks[i]
        if b < 4:
            owners[divmod(i, 9)] = "blue"
        elif b < 8:
            owners[divmod(i, 9)] = "red"
    for k, i in enumerate(block8[:6]):
        owners[divmod(i, 9)] = "blue" if k < 3 else "red"
    empty = [divmod(i, 9) for i in block8[6:]]
    sol = [int(s.board.solution[idx(s, r, c)]) for r, c in empty]
    s = arrange(s, owners=owners, hands={"blue": [], "red": sol}, to_move="red")
    s = arrange(s, moves_left_in_pair=1)
    t = apply(s, "red", Place(empty[0], sol[0]), 5, rng())
    assert [e.kind for e in t.events] == ["placed", "hand", "passed", "turn"]
    n = t.state
    assert (n.turn, n.moves_left_in_pair) == ("red", 2)
    assert t.events[-1].body.block_table == BlockCounts(blue=4, red=4, undecided=1)


# --- pie rule ------------------------------------------------------------------


def test_pie_rule_after_blue_owns_a_cell() -> None:
    s = deal("bridge")
    digit = s.blue.hand[0]
    r, c = empty_cell_for(s, digit)
    t = apply(s, "blue", Place((r, c), digit), 0, rng())
    assert t.events[-1].body.swap_available is True
    s = t.state
    assert player_view(s, "red", 0)["swap_available"] is True
    assert player_view(s, "blue", 0)["swap_available"] is False
    assert spectator_view(s, 0)["swap_available"] is True
    red_hand = s.red.hand
    t = apply(s, "red", Swap(), 10, rng())
    assert [e.kind for e in t.events] == ["swapped", "turn"]
    assert t.events[0].body == Swapped("red", (r, c))
    n = t.state
    assert n.owners[idx(n, r, c)] == "r" and n.red.hand == red_hand
    assert n.turn == "blue" and t.events[-1].body.swap_available is False
    assert n.record[-1].action == "swap"
    check_tiles(n)


def test_pie_rule_after_blue_takes_a_clue() -> None:
    s = deal("blitz", givens=range(0, 36, 3))
    r, c = free_clue(s)
    s = apply(s, "blue", Take((r, c), s.blue.hand[0]), 0, rng()).state
    n = apply(s, "red", Swap(), 0, rng()).state
    assert n.owners[idx(n, r, c)] == "r"


def test_pie_rule_only_on_reds_first_turn() -> None:
    s = deal("bridge")
    with pytest.raises(NotYourTurn):
        apply(s, "red", Swap(), 0, rng())
    with pytest.raises(IllegalAction, match="only on red's first turn"):
        apply(s, "blue", Swap(), 0, rng())
    s = play_correct(s, "blue")
    s = play_correct(s, "red")
    s = play_correct(s, "blue")
    assert player_view(s, "red", 0)["swap_available"] is False
    with pytest.raises(IllegalAction, match=r"^swap: the pie rule is open only on red's first"):
        apply(s, "red", Swap(), 0, rng())


def test_no_pie_rule_after_a_blue_mistake_or_after_reds_first_turn() -> None:
    s = play_mistake(deal("bridge"), "blue")
    with pytest.raises(IllegalAction, match="blue came to own no cell"):
        apply(s, "red", Swap(), 0, rng())
    s = play_correct(deal("bridge"), "blue")
    s = play_mistake(s, "red", now=1)  # red's first turn (a timeout would abort the game)
    s = play_correct(s, "blue", now=2)
    with pytest.raises(IllegalAction, match="only on red's first turn"):
        apply(s, "red", Swap(), 3, rng())


def test_no_pie_rule_in_domains() -> None:
    s = play_correct(deal("domains"), "blue")
    assert "swap_available" not in player_view(s, "red", 0)
    with pytest.raises(IllegalAction, match="no pie rule in Domains"):
        apply(s, "red", Swap(), 0, rng())


def test_not_your_turn() -> None:
    s = deal()
    with pytest.raises(NotYourTurn, match=r"^place \[1, 1\] \d: it is blue's turn$") as err:
        apply(s, "red", Place((1, 1), s.red.hand[0]), 0, rng())
    assert err.value.due is None  # nothing was due
