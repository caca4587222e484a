"""Property tests: thousands of random games of every variant, with random legal and
illegal actions, checked after every step (see rules_play.py)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numbridge.rules import archive_record
from rules_play import Player, Setup

# RULES_GAMES scales the number of games (e.g. RULES_GAMES=10 for a long soak).
SCALE = float(os.environ.get("RULES_GAMES", "1"))
MAX_STEPS = 3_000  # a game played to the end finishes well within this


def examples(n: int) -> int:
    return max(1, int(n * SCALE))


def setups(variant: str, to_the_end: bool) -> st.SearchStrategy[Setup]:
    size = 6 if variant == "blitz" else 9
    return st.builds(
        Setup,
        variant=st.just(variant),
        seed=st.integers(0, 2**32 - 1),
        irregular=st.booleans(),
        clue_share=st.floats(0.1, 0.5) if size == 9 else st.floats(0.15, 0.55),
        take_price=st.sampled_from([1, 2]),
        game_ms=st.sampled_from([None, 120_000, 600_000, 1_200_000]),
        move_ms=st.sampled_from([30_000, 45_000]),
        to_the_end=st.just(to_the_end),
    )


GAME_SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,
)


def play_to_the_end(setup: Setup) -> None:
    player = Player(setup)
    state = player.play(MAX_STEPS)
    assert state.status == "finished", f"not finished after {player.steps} steps"
    result = state.result and state.result.to_dict()
    assert result is not None
    assert result["winner"] in ("blue", "red")  # no positional draw: exactly one winner
    assert result["by"] in ("goal", "time")
    record = archive_record(state)
    assert record["result"] == result


def play_anything(setup: Setup) -> None:
    player = Player(setup)
    state = player.play(MAX_STEPS)
    if state.status == "finished":
        archive_record(state)


@settings(GAME_SETTINGS, max_examples=examples(420))
@given(setups("bridge", True))
def test_bridge_games_end_with_one_winner(setup: Setup) -> None:
    play_to_the_end(setup)


@settings(GAME_SETTINGS, max_examples=examples(800))
@given(setups("blitz", True))
def test_blitz_games_end_with_one_winner(setup: Setup) -> None:
    play_to_the_end(setup)


@settings(GAME_SETTINGS, max_examples=examples(380))
@given(setups("domains", True))
def test_domains_games_end_with_one_winner(setup: Setup) -> None:
    play_to_the_end(setup)


@settings(GAME_SETTINGS, max_examples=examples(400))
@given(st.sampled_from(["bridge", "blitz", "domains"]).flatmap(lambda v: setups(v, False)))
def test_games_with_resignations_draws_and_adjournments(setup: Setup) -> None:
    play_anything(setup)
