"""Golden tests: deadlines, game clocks, loss on time, catching up after an outage,
adjournment and resumption (RULES §6, §7; PROTOCOL `deadline_ms`, `clock_ms`)."""

from __future__ import annotations

import random

import pytest
from numbridge.rules import (
    AcceptAdjourn,
    Exchange,
    GameOver,
    GameState,
    IllegalAction,
    OfferAdjourn,
    Resume,
    advance,
    apply,
    catchup,
    next_deadline,
    player_view,
)
from numbridge.rules.counts import SeatClocks
from numbridge.rules.events import Adjourned, Finished
from numbridge.rules.state import Result
from rules_helpers import deal, play_correct


def rng() -> random.Random:
    return random.Random(11)


def test_deadline_is_the_move_limit_while_the_game_clock_lasts() -> None:
    s = deal("bridge", now=1_000)
    assert next_deadline(s) == 1_000 + 45_000
    view = player_view(s, "blue", 21_000)
    assert view["deadline_ms"] == 46_000
    assert view["players"]["blue"]["clock_ms"] == 900_000 - 20_000
    assert view["players"]["red"]["clock_ms"] == 900_000


def test_time_used_is_deducted_from_the_movers_game_clock() -> None:
    s = deal("bridge")
    s = play_correct(s, "blue", now=12_345)
    assert s.blue.clock_ms == 900_000 - 12_345 and s.red.clock_ms == 900_000
    assert s.turn_started_ms == 12_345 and next_deadline(s) == 12_345 + 45_000
    s = play_correct(s, "red", now=20_000)
    assert s.red.clock_ms == 900_000 - (20_000 - 12_345)


def test_deadline_is_the_end_of_the_game_clock_when_that_comes_first() -> None:
    s = deal("bridge", game_ms=60_000)
    s = play_correct(s, "blue", now=40_000)  # blue has 20 s left
    s = play_correct(s, "red", now=41_000)
    assert next_deadline(s) == 41_000 + 20_000
    assert player_view(s, "blue", 41_000)["deadline_ms"] == 61_000


def test_loss_on_time() -> None:
    s = deal("bridge", game_ms=60_000)
    s = play_correct(s, "blue", now=40_000)
    s = play_correct(s, "red", now=41_000)
    assert advance(s, 60_999, rng()).state is s
    t = advance(s, 61_000, rng())
    assert [e.kind for e in t.events] == ["finished"]
    assert t.events[0].body == Finished(Result(winner="red", by="time"))
    n = t.state
    assert n.status == "finished" and n.blue.clock_ms == 0 and next_deadline(n) is None
    assert n.record[-1].action == "time" and n.record[-1].seat == "blue"
    # an action arriving after the deadline meets a lost game
    with pytest.raises(GameOver, match="time ran out"):
        apply(s, "blue", Exchange(), 70_000, rng())


def started(variant: str = "bridge", **overrides: object) -> GameState:
    """Both players have made a first move, in no time (no abort on the clock now)."""
    s = play_correct(deal(variant, **overrides), "blue")
    return play_correct(s, "red")


def test_loss_on_time_when_the_clock_ends_with_the_move_limit() -> None:
    s = started("bridge", game_ms=45_000)  # both limits fall at 45 s: the game clock wins
    t = advance(s, 45_000, rng())
    assert t.state.result.to_dict() == {"winner": "red", "by": "time"}


def test_catching_up_applies_missed_deadlines_in_order() -> None:
    # 100 s each, 45 s a move: timeouts at 45, 90, 135, 180 s; at 180 s blue has
    # 10 s left, so blue loses on time at 190 s
    s = started("bridge", game_ms=100_000)
    t = advance(s, 10_000_000, rng())
    kinds = [e.kind for e in t.events]
    assert kinds.count("timeout") == 4 and kinds[-1] == "finished"
    timeouts = [e.body.seat for e in t.events if e.kind == "timeout"]
    assert timeouts == ["blue", "red", "blue", "red"]
    turns = [e.body for e in t.events if e.kind == "turn"]
    assert [d.now_ms for d in turns] == [45_000, 90_000, 135_000, 180_000]
    assert [d.deadline_ms for d in turns] == [90_000, 135_000, 180_000, 190_000]
    assert t.state.result.to_dict() == {"winner": "red", "by": "time"}
    assert [e.v for e in t.events] == list(range(s.v + 1, s.v + len(t.events) + 1))


def test_catching_up_without_a_game_clock() -> None:
    s = started("bridge", room="study", move_ms=120_000, game_ms=None)
    t = advance(s, 365_000, rng())
    assert [e.body.seat for e in t.events if e.kind == "timeout"] == ["blue", "red", "blue"]
    n = t.state
    assert n.turn == "red" and n.turn_started_ms == 360_000
    assert next_deadline(n) == 480_000
    assert n.blue.clock_ms is None
    assert player_view(n, "red", 400_000)["players"]["red"]["clock_ms"] is None


def test_catching_up_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catchup, "MAX_STEPS", 5)
    s = started("bridge", move_ms=1_000, game_ms=10**8)
    t = advance(s, 10**9, rng())
    assert [e.kind for e in t.events].count("timeout") == 5
    assert t.state.turn_started_ms == 10**9 and next_deadline(t.state) == 10**9 + 1_000


def test_apply_first_applies_the_due_timeout() -> None:
    s = started("bridge")
    # at 50 s blue's move has timed out: red is on move
    t = apply(s, "red", Exchange(), 50_000, rng())
    assert [e.kind for e in t.events][:2] == ["timeout", "turn"]
    assert t.events[2].kind == "exchanged"
    assert t.state.red.clock_ms == 900_000 - 5_000


def test_adjournment_stops_the_clocks_and_resume_gives_a_fresh_move_limit() -> None:
    s = deal("bridge")
    t = apply(s, "blue", OfferAdjourn(), 10_000, rng())
    assert [e.kind for e in t.events] == ["adjourn_offered"]
    t = apply(t.state, "red", AcceptAdjourn(), 12_000, rng())
    assert [e.kind for e in t.events] == ["adjourned"]
    assert t.events[0].body == Adjourned("red", SeatClocks(blue=888_000, red=900_000))
    s = t.state
    assert s.status == "adjourned" and s.turn is None and next_deadline(s) is None
    view = player_view(s, "blue", 10**9)
    assert view["deadline_ms"] is None and view["turn"] is None
    assert view["players"]["blue"]["clock_ms"] == 888_000
    assert advance(s, 10**12, rng()).events == ()
    with pytest.raises(IllegalAction, match="adjourned"):
        apply(s, "blue", Exchange(), 10**9, rng())
    t = apply(s, "blue", Resume(), 10**9, rng())
    assert [e.kind for e in t.events] == ["resume_requested"]
    assert player_view(t.state, "red", 10**9)["resume_requested"] == ["blue"]
    with pytest.raises(IllegalAction, match="already asked"):
        apply(t.state, "blue", Resume(), 10**9, rng())
    t = apply(t.state, "red", Resume(), 10**9 + 5, rng())
    assert [e.kind for e in t.events] == ["resumed", "turn"]
    s = t.state
    assert s.status == "playing" and s.turn == "blue"
    assert next_deadline(s) == 10**9 + 5 + 45_000
    assert (s.blue.clock_ms, s.red.clock_ms) == (888_000, 900_000)
    s = play_correct(s, "blue", now=10**9 + 5_005)
    assert s.blue.clock_ms == 883_000


def test_adjourn_rules() -> None:
    s = deal("bridge")
    with pytest.raises(IllegalAction, match="has not offered an adjournment"):
        apply(s, "red", AcceptAdjourn(), 0, rng())
    s = apply(s, "blue", OfferAdjourn(), 0, rng()).state
    with pytest.raises(IllegalAction, match="already offered"):
        apply(s, "blue", OfferAdjourn(), 0, rng())
    with pytest.raises(IllegalAction, match="not adjourned"):
        apply(s, "red", Resume(), 0, rng())
    # crossing offers: both want it
    t = apply(s, "red", OfferAdjourn(), 0, rng())
    assert t.state.status == "adjourned"
    with pytest.raises(IllegalAction, match="already adjourned"):
        apply(t.state, "red", OfferAdjourn(), 0, rng())
