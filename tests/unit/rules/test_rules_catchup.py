"""Golden tests: missed deadlines in any number make a bounded catch-up (RULES §6, §7).

A game without a game clock is adjourned after four turns in a row lost to the
clock; a clocked one ends on time with its timeouts folded. Either way one
catch-up fits one store transaction, ``v`` stays gapless, and the state is the
one the unfolded catch-up would make.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from numbridge.rules import (
    Exchange,
    GameState,
    IllegalAction,
    RecordEntry,
    Resume,
    Seat,
    Transition,
    advance,
    apply,
    catchup,
    next_deadline,
)
from numbridge.rules.counts import SeatClocks
from numbridge.rules.events import Adjourned
from rules_helpers import arrange, check_tiles, deal, play_correct, roundtrip

# A commit holds the state, the events and a few status items: DynamoDB allows 100.
MAX_EVENTS = 30
MINUTE = 60_000


def rng() -> random.Random:
    return random.Random(5)


def started(variant: str = "bridge", **overrides: object) -> GameState:
    """Both players have made a first move (the abort rule no longer applies)."""
    s = deal(variant, **overrides)
    s = play_correct(s, "blue", now=100)
    s = play_correct(s, "red", now=200)
    if variant == "domains":
        s = play_correct(s, "red", now=300)
    return s


def study(variant: str = "bridge") -> GameState:
    return started(variant, room="study", move_ms=2 * MINUTE, game_ms=None)


def check_versions(before: GameState, t: Transition) -> None:
    assert [e.v for e in t.events] == list(range(before.v + 1, t.state.v + 1))


def record_timeouts(state: GameState) -> int:
    return sum(1 for e in state.record if e.action == "timeout")


def test_four_turns_in_a_row_lost_to_the_clock_adjourn_a_game_without_a_game_clock() -> None:
    s = study()
    t = advance(s, s.turn_started_ms + 200 * MINUTE, rng())
    check_versions(s, t)
    kinds = [e.kind for e in t.events]
    assert kinds.count("timeout") == 4 and kinds[-1] == "adjourned"
    assert [e.body.seat for e in t.events if e.kind == "timeout"] == [
        "blue", "red", "blue", "red"]
    last = t.events[-1].body
    assert last == Adjourned("red", SeatClocks(blue=None, red=None), auto=True)
    n = roundtrip(t.state)
    assert n.status == "adjourned" and n.turn is None and next_deadline(n) is None
    assert n.record[-1] == RecordEntry(seat="red", action="auto_adjourn",
                                       at_ms=s.turn_started_ms + 4 * 2 * MINUTE)
    # Frozen: no more timeouts, however long nobody comes back.
    assert advance(n, 10**13, rng()).events == ()
    with pytest.raises(IllegalAction, match="adjourned"):
        apply(n, "blue", Exchange(), 10**13, rng())


def test_it_resumes_like_any_adjourned_game() -> None:
    s = advance(study(), 10**12, rng()).state
    s = apply(s, "red", Resume(), 10**12 + 1, rng()).state
    t = apply(s, "blue", Resume(), 10**12 + 2, rng())
    assert [e.kind for e in t.events] == ["resumed", "turn"]
    s = t.state
    assert s.status == "playing" and s.turn == "blue"
    assert next_deadline(s) == 10**12 + 2 + 2 * MINUTE
    # The run starts again from the resume: three more timeouts do not adjourn.
    t = advance(s, 10**12 + 2 + 3 * 2 * MINUTE, rng())
    assert [e.kind for e in t.events].count("timeout") == 3
    assert t.state.status == "playing"


def test_a_move_breaks_the_run() -> None:
    s = study()
    s = advance(s, s.turn_started_ms + 3 * 2 * MINUTE, rng()).state  # blue, red, blue
    assert s.status == "playing" and s.turn == "red"
    s = play_correct(s, "red", now=s.turn_started_ms + 1_000)
    t = advance(s, s.turn_started_ms + 3 * 2 * MINUTE, rng())
    assert [e.kind for e in t.events].count("timeout") == 3
    assert t.state.status == "playing"
    t = advance(t.state, t.state.turn_started_ms + 2 * MINUTE, rng())
    assert t.state.status == "adjourned"


def test_automatic_passes_neither_count_nor_break_the_run() -> None:
    def entry(action: str) -> RecordEntry:
        return RecordEntry(seat="blue", action=action)

    run = [entry("place"), entry("timeout"), entry("pass"), entry("timeout"),
           entry("pass"), entry("timeout")]
    assert catchup.lost_in_a_row(run) == 3
    assert catchup.lost_in_a_row([*run, entry("pass")]) == 3
    assert catchup.lost_in_a_row([*run, entry("resume")]) == 0
    assert catchup.lost_in_a_row([*run, entry("take")]) == 0

    # Red holds nothing, the bag is empty and no clue is free: red always passes.
    s = _red_must_pass(study())
    t = advance(s, s.turn_started_ms + 200 * MINUTE, rng())
    kinds = [e.kind for e in t.events]
    assert kinds.count("timeout") == kinds.count("passed") == 4
    assert {e.body.seat for e in t.events if e.kind == "timeout"} == {"blue"}
    assert t.state.status == "adjourned"
    check_versions(s, t)


def _red_must_pass(s: GameState) -> GameState:
    """Red owns row 4 but its middle cell, which is empty; blue owns the rest and
    holds the one tile left. Nobody is connected; red has nothing to play."""
    size = s.size
    hole = (4, 4)
    owners: dict[tuple[int, int], Seat] = {
        (r, c): "red" if r == 4 else "blue"
        for r in range(size) for c in range(size) if (r, c) != hole
    }
    digit = int(s.board.solution[hole[0] * size + hole[1]])
    return arrange(s, owners=owners, hands={"blue": [digit], "red": []}, bag=[])


def test_thousands_of_missed_deadlines_without_a_game_clock() -> None:
    s = study("domains")
    now = s.turn_started_ms
    total = 0
    for _ in range(500):
        now += 1_000 * MINUTE  # 500 move limits missed each time
        t = advance(s, now, rng())
        check_versions(s, t)
        assert len(t.events) <= MAX_EVENTS
        assert t.state.status == "adjourned"
        total += [e.kind for e in t.events].count("timeout")
        s = apply(t.state, "blue", Resume(), now, rng()).state
        s = apply(s, "red", Resume(), now, rng()).state
        check_tiles(s)
    assert total == 2_000 == record_timeouts(s)
    assert roundtrip(s).status == "playing"


def test_a_long_absence_in_a_clocked_room_ends_on_time_in_one_bounded_catch_up() -> None:
    # 200 minutes away, 45 s a move, 20 minutes each: about 53 moves lost to the clock.
    s = started("domains")
    now = s.turn_started_ms + 200 * MINUTE
    t = advance(s, now, rng())
    check_versions(s, t)
    assert len(t.events) <= MAX_EVENTS
    kinds = [e.kind for e in t.events]
    assert kinds[-1] == "finished" and kinds.count("timeouts") == 1
    assert t.state.result is not None and t.state.result.by == "time"
    folded = next(e.body for e in t.events if e.kind == "timeouts")
    shown = kinds.count("timeout")
    assert folded.count + shown == record_timeouts(t.state) > 40
    assert folded.seats.blue + folded.seats.red == folded.count
    # A client counting turns from the events keeps the count.
    turns = shown + folded.count + folded.passes + kinds.count("passed")
    assert t.state.turns_played - s.turns_played == turns

    # The fold changes the events only: the state is the unfolded catch-up's.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(catchup, "SHOWN_EVENTS", 10**6)
        unfolded = advance(s, now, rng())
    assert len(unfolded.events) > 100  # what failed to commit before
    assert dataclasses.replace(t.state, v=0) == dataclasses.replace(unfolded.state, v=0)
    assert roundtrip(t.state).to_dict()["record"] == unfolded.state.to_dict()["record"]


def test_a_folded_catch_up_still_tells_each_player_their_new_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(catchup, "SHOWN_EVENTS", 0)  # fold from the first timeout
    s = started("domains")
    short = s.hand(s.to_move)[:1]
    s = arrange(s, hands={s.to_move: short})
    t = advance(s, s.turn_started_ms + 200 * MINUTE, rng())
    check_versions(s, t)
    kinds = [e.kind for e in t.events]
    assert kinds[:2] == ["timeouts", "hand"] and kinds[-2:] == ["turn", "finished"]
    [hand] = [e for e in t.events if e.kind == "hand"]
    assert hand.to == s.to_move and len(hand.body.hand) == 3
    assert hand.body.hand == t.state.hand(s.to_move)
    check_tiles(t.state)


def test_thousands_of_missed_deadlines_with_a_generous_game_clock() -> None:
    # A room whose clock allows ~3,000 timeouts: each call stops after MAX_STEPS.
    s = started("bridge", move_ms=1_000, game_ms=1_500_000)
    calls, now = 0, s.turn_started_ms
    while s.status == "playing":
        now += 10**9  # the timers stay lost
        t = advance(s, now, rng())
        check_versions(s, t)
        assert len(t.events) <= MAX_EVENTS
        s = t.state
        calls += 1
        assert calls < 100
    assert s.result is not None and s.result.by == "time"
    assert record_timeouts(s) > 2_000
