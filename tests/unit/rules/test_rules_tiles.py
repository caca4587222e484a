"""Golden tests: placing, mistakes, taking clues (price 1, 2, free), exchanging (RULES §3-§5)."""

from __future__ import annotations

import random

import pytest
from numbridge.rules import (
    Exchange,
    GameState,
    IllegalAction,
    Place,
    Take,
    apply,
    player_view,
)
from numbridge.rules.counts import SeatCounts
from numbridge.rules.events import Exchanged, Hand, Mistake, Placed, Taken
from rules_helpers import (
    arrange,
    check_board,
    check_tiles,
    deal,
    empty_cell_for,
    free_clue,
    idx,
    wrong_cell_for,
)


def rng() -> random.Random:
    return random.Random(7)


def test_deal_hands_of_three_and_the_invariant() -> None:
    s = deal()
    check_tiles(s)
    assert len(s.blue.hand) == len(s.red.hand) == 3
    assert s.v == 0 and s.turn == "blue" and s.status == "playing"
    assert len(s.bag) == 81 - 27 - 6


def test_correct_placement_owns_the_cell_and_refills() -> None:
    s = deal()
    digit = s.blue.hand[0]
    r, c = empty_cell_for(s, digit)
    t = apply(s, "blue", Place((r, c), digit), 1_000, rng())
    n = t.state
    assert [e.kind for e in t.events] == ["placed", "hand", "turn"]
    assert [e.v for e in t.events] == [1, 2, 3] and n.v == 3
    assert t.events[0].body == Placed("blue", (r, c), digit)
    assert t.events[1].to == "blue" and t.events[1].body == Hand(n.blue.hand)
    assert all(e.to is None for e in (t.events[0], t.events[2]))
    assert n.owners[idx(n, r, c)] == "b" and n.digits[idx(n, r, c)] == str(digit)
    assert len(n.blue.hand) == 3 and len(n.bag) == len(s.bag) - 1
    assert n.turn == "red" and n.blue.clock_ms == 900_000 - 1_000
    entry = n.record[-1]
    assert (entry.seat, entry.action, entry.cell, entry.digit, entry.mistake) == (
        "blue",
        "place",
        (r, c),
        digit,
        False,
    )
    assert entry.time_ms == 1_000 and entry.at_ms == 1_000
    check_tiles(n)
    check_board(n)


def test_mistake_returns_the_tile_loses_the_turn_and_refills() -> None:
    s = deal()
    digit = s.blue.hand[0]
    r, c = wrong_cell_for(s, digit)
    t = apply(s, "blue", Place((r, c), digit), 2_000, rng())
    n = t.state
    assert [e.kind for e in t.events] == ["mistake", "hand", "turn"]
    assert t.events[0].body == Mistake("blue", (r, c), digit)
    assert t.events[0].to is None  # mistakes are public
    assert n.digits[idx(n, r, c)] == "." and n.owners[idx(n, r, c)] == "."
    assert n.blue.mistakes == 1 and n.red.mistakes == 0
    assert len(n.blue.hand) == 3 and len(n.bag) == len(s.bag)
    assert n.turn == "red"
    assert n.record[-1].mistake is True
    view = player_view(n, "red", 2_000)
    assert view["players"]["blue"]["mistakes"] == 1
    assert view["last_mistake"] == {"seat": "blue", "cell": [r, c], "digit": digit, "v": 1}
    check_tiles(n)


def test_place_errors_name_the_action_and_why() -> None:
    s = deal()
    with pytest.raises(IllegalAction, match=r"^place \[0, 0\] 7: cell \[0, 0\] is a clue$"):
        apply(s, "blue", Place((0, 0), 7), 0, rng())
    missing = next(d for d in range(1, 10) if d not in s.blue.hand)
    r, c = empty_cell_for(s, missing)
    with pytest.raises(IllegalAction, match=f"you hold no {missing}"):
        apply(s, "blue", Place((r, c), missing), 0, rng())
    with pytest.raises(IllegalAction, match=r"off the 9x9 board"):
        apply(s, "blue", Place((9, 0), s.blue.hand[0]), 0, rng())
    with pytest.raises(IllegalAction, match=r"not a digit"):
        apply(s, "blue", Place((r, c), 10), 0, rng())
    digit = s.blue.hand[0]
    r, c = empty_cell_for(s, digit)
    placed = apply(s, "blue", Place((r, c), digit), 0, rng()).state
    red_digit = placed.red.hand[0]
    with pytest.raises(IllegalAction, match="already filled"):
        apply(placed, "red", Place((r, c), red_digit), 0, rng())


def test_take_at_price_one_pays_the_chosen_tile_and_refills() -> None:
    s = deal()
    r, c = free_clue(s)
    digit = s.blue.hand[1]
    t = apply(s, "blue", Take((r, c), digit), 500, rng())
    n = t.state
    assert [e.kind for e in t.events] == ["taken", "hand", "turn"]
    assert t.events[0].body == Taken("blue", (r, c), 1)
    assert n.owners[idx(n, r, c)] == "b"
    assert len(n.blue.hand) == 3 and len(n.bag) == len(s.bag)
    assert n.record[-1].discarded == (digit,) and n.record[-1].action == "take"
    check_tiles(n)


def blitz_with_hand(hand: list[int], **kw: object) -> GameState:
    s = deal("blitz", givens=range(0, 36, 3))
    return arrange(s, hands={"blue": hand}, **kw)


def test_take_at_price_two_with_one_tile_is_illegal() -> None:
    s = blitz_with_hand([4])
    r, c = free_clue(s)
    before = s.to_dict()
    with pytest.raises(
        IllegalAction, match=r"^take \[0, 0\] 4: the price is 2 tiles and you hold 1$"
    ):
        apply(s, "blue", Take((r, c), 4), 0, rng())
    assert s.to_dict() == before


def test_take_at_price_two_second_tile_at_random_then_no_refill_until_next_turn_ends() -> None:
    s = blitz_with_hand([1, 2, 5])
    r, c = free_clue(s)
    seen_second = set()
    for seed in range(40):
        t = apply(s, "blue", Take((r, c), 2), 0, random.Random(seed))
        paid = t.state.record[-1].discarded
        assert paid[0] == 2 and paid[1] in (1, 5)
        seen_second.add(paid[1])
        assert len(t.state.blue.hand) == 1
    assert seen_second == {1, 5}  # uniformly at random from the rest of the hand

    t = apply(s, "blue", Take((r, c), 2), 0, rng())
    n = t.state
    assert [e.kind for e in t.events] == ["taken", "hand", "turn"]
    assert t.events[0].body.paid == 2
    assert len(n.blue.hand) == 1  # no refill
    assert t.events[2].body.hand_sizes == SeatCounts(blue=1, red=3)
    check_tiles(n)
    # red plays; blue still holds one tile
    red_digit = n.red.hand[0]
    n = apply(n, "red", Place(empty_cell_for(n, red_digit), red_digit), 1, rng()).state
    assert len(n.blue.hand) == 1
    # blue's next turn is played with what is left (a mistake here); refill at its end
    last = n.blue.hand[0]
    t = apply(n, "blue", Place(wrong_cell_for(n, last), last), 2, rng())
    assert len(t.state.blue.hand) == 3
    check_tiles(t.state)


def test_take_at_price_two_with_two_tiles_pays_both() -> None:
    s = blitz_with_hand([3, 6])
    r, c = free_clue(s)
    n = apply(s, "blue", Take((r, c), 6), 0, rng()).state
    assert n.blue.hand == () and sorted(n.record[-1].discarded) == [3, 6]
    check_tiles(n)


@pytest.mark.parametrize("variant", ["bridge", "blitz"])
def test_take_with_no_tiles_is_free(variant: str) -> None:
    s = deal(variant)
    s = arrange(s, hands={"blue": []})
    r, c = free_clue(s)
    with pytest.raises(IllegalAction, match="take is free: send no digit"):
        apply(s, "blue", Take((r, c), 1), 0, rng())
    t = apply(s, "blue", Take((r, c)), 0, rng())
    assert t.events[0].body.paid == 0
    assert t.state.owners[idx(s, r, c)] == "b"
    assert len(t.state.blue.hand) == 3  # a free take is not a take that cost 2: refill
    check_tiles(t.state)


def test_take_without_digit_while_holding_tiles_is_illegal() -> None:
    s = deal()
    r, c = free_clue(s)
    with pytest.raises(IllegalAction, match="name the tile you pay with"):
        apply(s, "blue", Take((r, c)), 0, rng())


def test_take_only_an_untaken_clue() -> None:
    s = deal()
    digit = s.blue.hand[0]
    r, c = empty_cell_for(s, digit)
    with pytest.raises(IllegalAction, match="is not a clue"):
        apply(s, "blue", Take((r, c), digit), 0, rng())
    cr, cc = free_clue(s)
    n = apply(s, "blue", Take((cr, cc), digit), 0, rng()).state
    with pytest.raises(IllegalAction, match="already taken"):
        apply(n, "red", Take((cr, cc), n.red.hand[0]), 0, rng())


def test_exchange_returns_the_hand_and_draws_a_new_one() -> None:
    s = deal()
    t = apply(s, "blue", Exchange(), 0, rng())
    n = t.state
    assert [e.kind for e in t.events] == ["exchanged", "hand", "turn"] or [
        e.kind for e in t.events
    ] == ["exchanged", "turn"]
    assert t.events[0].body == Exchanged("blue", 3)
    assert len(n.blue.hand) == 3 and len(n.bag) == len(s.bag)
    assert n.record[-1].discarded == s.blue.hand
    check_tiles(n)


def test_exchange_with_an_empty_bag_is_illegal() -> None:
    s = deal()
    s = arrange(s, bag=[], hands={"blue": list(s.blue.hand)}, owners=_own_all_but(s, 6))
    assert s.bag == ()
    with pytest.raises(IllegalAction, match=r"^exchange: the bag is empty$"):
        apply(s, "blue", Exchange(), 0, rng())


def test_exchange_with_an_empty_hand_draws_a_hand() -> None:
    s = arrange(deal(), hands={"blue": []})
    n = apply(s, "blue", Exchange(), 0, rng()).state
    assert len(n.blue.hand) == 3
    check_tiles(n)


def _own_all_but(s: GameState, keep: int) -> dict[tuple[int, int], str]:
    """Blue owns every empty cell but the ``keep`` whose tiles are in the hands
    (nobody is connected: blue avoids the bottom row)."""
    n = s.size
    hands = list(s.blue.hand) + list(s.red.hand)
    owners: dict[tuple[int, int], str] = {}
    kept = 0
    for i, (d, sol) in enumerate(zip(s.digits, s.board.solution, strict=True)):
        if d != ".":
            continue
        if int(sol) in hands and kept < keep:
            hands.remove(int(sol))
            kept += 1
            continue
        r, c = divmod(i, n)
        owners[(r, c)] = "red" if r == n - 1 else "blue"
    assert kept == keep
    return owners
