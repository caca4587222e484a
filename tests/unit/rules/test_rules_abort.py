"""Golden tests: abort until each player has made a first move (RULES §7 [decided]),
by either player, or by itself when a first move is lost to the clock."""

from __future__ import annotations

import random

import pytest
from numbridge.rules import (
    Abort,
    AcceptAdjourn,
    Exchange,
    GameOver,
    IllegalAction,
    OfferAdjourn,
    Resign,
    Swap,
    Take,
    advance,
    apply,
    archive_record,
    next_deadline,
    player_view,
    spectator_view,
)
from numbridge.rules.events import Finished, Timeout
from numbridge.rules.state import Result
from rules_helpers import deal, free_clue, play_correct, play_mistake, roundtrip

ABORTED = Result(winner=None, by="aborted")
ABORT = Finished(ABORTED)


def rng() -> random.Random:
    return random.Random(17)


@pytest.mark.parametrize("seat", ["blue", "red"])
def test_either_player_may_abort_a_fresh_game(seat: str) -> None:
    s = deal(now=1_000)
    assert player_view(s, "blue", 1_000)["abortable"] is True
    t = apply(s, seat, Abort(), 4_000, rng())  # type: ignore[arg-type]
    assert [e.kind for e in t.events] == ["finished"]
    assert t.events[0].body == ABORT
    n = roundtrip(t.state)
    assert n.status == "finished" and n.result == ABORTED and next_deadline(n) is None
    assert n.blue.clock_ms == 900_000 - 3_000  # the mover's time is charged, as on resign
    assert n.record[-1].action == "abort" and n.record[-1].seat == seat
    assert archive_record(n)["result"] == ABORTED.to_dict()
    assert player_view(n, "red", 4_000)["abortable"] is False
    with pytest.raises(GameOver):
        apply(n, "blue", Abort(), 5_000, rng())


def test_abort_stays_open_until_the_second_player_moves() -> None:
    s = play_correct(deal(), "blue")
    assert spectator_view(s, 0)["abortable"] is True
    assert apply(s, "blue", Abort(), 1, rng()).state.result == ABORTED  # even the mover
    s = play_correct(s, "red", now=2)
    assert player_view(s, "blue", 2)["abortable"] is False
    for seat in ("blue", "red"):
        with pytest.raises(IllegalAction, match=r"^abort: both players have moved; resign"):
            apply(s, seat, Abort(), 3, rng())  # type: ignore[arg-type]
    assert apply(s, "red", Resign(), 3, rng()).state.result.to_dict() == {"winner": "blue",
                                                                 "by": "resign"}


@pytest.mark.parametrize("first", ["mistake", "take", "exchange"])
def test_every_kind_of_first_move_counts(first: str) -> None:
    s = play_correct(deal(), "blue")
    if first == "mistake":
        s = play_mistake(s, "red", now=1)
    elif first == "take":
        s = apply(s, "red", Take(free_clue(s), s.red.hand[0]), 1, rng()).state
    else:
        s = apply(s, "red", Exchange(), 1, rng()).state
    with pytest.raises(IllegalAction):
        apply(s, "blue", Abort(), 2, rng())


def test_a_swap_counts_as_reds_first_move() -> None:
    s = play_correct(deal(), "blue")
    s = apply(s, "red", Swap(), 1, rng()).state
    with pytest.raises(IllegalAction):
        apply(s, "red", Abort(), 2, rng())


def test_an_adjourned_game_may_be_aborted_before_the_first_moves() -> None:
    s = apply(deal(), "blue", OfferAdjourn(), 0, rng()).state
    s = apply(s, "red", AcceptAdjourn(), 10, rng()).state
    t = apply(s, "red", Abort(), 10**9, rng())
    assert t.state.result == ABORTED and t.state.blue.clock_ms == 900_000 - 10


def test_blues_first_move_lost_to_the_clock_aborts_the_game() -> None:
    s = deal(now=1_000)
    assert advance(s, 45_999, rng()).events == ()
    t = advance(s, 10**9, rng())  # however late: the catch-up stops at the abort
    assert [e.kind for e in t.events] == ["timeout", "finished"]
    assert t.events[0].body == Timeout("blue")
    assert t.events[1].body == ABORT
    n = t.state
    assert n.result == ABORTED and n.blue.clock_ms == 900_000 - 45_000
    assert [(e.seat, e.action) for e in n.record] == [("blue", "timeout"), ("blue", "abort")]
    assert n.record[-1].at_ms == 46_000
    with pytest.raises(GameOver, match="time ran out"):
        apply(s, "blue", Exchange(), 50_000, rng())  # a move too late meets the aborted game


def test_reds_first_move_lost_to_the_clock_aborts_the_game() -> None:
    s = play_correct(deal(), "blue", now=5)
    t = advance(s, 5 + 45_000, rng())
    assert [e.kind for e in t.events] == ["timeout", "finished"]
    assert t.events[0].body == Timeout("red") and t.state.result == ABORTED


def test_domains_reds_first_pair_lost_to_the_clock_aborts_the_game() -> None:
    s = play_correct(deal("domains"), "blue")
    assert advance(s, 45_000, rng()).state.result == ABORTED
    s = play_mistake(s, "red", now=1)  # a mistake is a first move: the pair goes on
    t = advance(s, 1 + 45_000, rng())
    assert [e.kind for e in t.events] == ["timeout", "turn"]


def test_a_later_timeout_does_not_abort() -> None:
    s = play_correct(play_correct(deal(), "blue"), "red")
    t = advance(s, 45_000, rng())
    assert [e.kind for e in t.events] == ["timeout", "turn"] and t.state.status == "playing"


def test_a_study_game_is_aborted_not_adjourned_when_nobody_moves() -> None:
    s = deal("bridge", room="study", move_ms=120_000, game_ms=None)
    t = advance(s, 10 * 120_000, rng())
    assert t.state.result == ABORTED and [e.kind for e in t.events] == ["timeout", "finished"]
