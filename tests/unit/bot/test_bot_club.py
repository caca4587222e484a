"""Draw offers, adjournment and resuming: the bot answers, and only when it should."""

from __future__ import annotations

import dataclasses

import pytest
from bot_helpers import arrange, cell, deal, play_frame, think, view
from numbridge.bot.position import LEVELS


def _domains_with_blocks(blue_blocks: int, red_blocks: int):  # type: ignore[no-untyped-def]
    owners: dict[int, str] = {}
    for block in range(blue_blocks + red_blocks):
        seat = "blue" if block < blue_blocks else "red"
        r0, c0 = divmod(block, 3)
        for k in range(5):
            owners[cell(3 * r0 + k // 3, 3 * c0 + k % 3)] = seat
    state = deal("domains", [cell(8, 8)])
    return arrange(state, owners=owners)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", LEVELS)
def test_a_draw_is_accepted_when_behind_on_blocks_and_declined_when_ahead(level: str) -> None:
    behind = dataclasses.replace(_domains_with_blocks(3, 1), draw_offer="blue", to_move="red")
    frame = think(behind, "red", level)  # type: ignore[arg-type]
    assert frame == {"action": "accept_draw", "game": "g-bot"}
    after = play_frame(behind, "red", frame).state
    assert after.result is not None and after.result.by == "agreement"

    ahead = dataclasses.replace(_domains_with_blocks(1, 3), draw_offer="blue", to_move="red")
    frame = think(ahead, "red", level)  # type: ignore[arg-type]
    assert frame == {"action": "decline_draw", "game": "g-bot"}
    play_frame(ahead, "red", frame)


def test_a_draw_is_accepted_when_behind_on_time() -> None:
    state = deal("bridge", [cell(0, 0)])
    low = dataclasses.replace(state.red, clock_ms=20_000)
    state = dataclasses.replace(state, red=low, draw_offer="blue")
    assert think(state, "red", "strong") == {"action": "accept_draw", "game": "g-bot"}
    plenty = dataclasses.replace(state.red, clock_ms=800_000)
    state = dataclasses.replace(state, red=plenty)
    assert think(state, "red", "strong") == {"action": "decline_draw", "game": "g-bot"}


def test_an_adjourned_game_is_resumed_once() -> None:
    state = dataclasses.replace(deal("bridge", [cell(0, 0)]), status="adjourned")
    frame = think(state, "red", "normal")
    assert frame == {"action": "resume", "game": "g-bot"}
    asked = play_frame(state, "red", frame).state
    assert view(asked, "red")["resume_requested"] == ["red"]
    assert think(asked, "red", "normal") is None  # asked already: wait for the other player


def test_an_adjournment_offer_is_accepted() -> None:
    state = dataclasses.replace(deal("bridge", [cell(0, 0)]), adjourn_offer="blue")
    frame = think(state, "red", "easy")
    assert frame == {"action": "accept_adjourn", "game": "g-bot"}
    assert play_frame(state, "red", frame).state.status == "adjourned"


def test_nothing_to_do_off_turn_or_after_the_end() -> None:
    state = deal("bridge", [cell(0, 0)])
    assert state.to_move == "blue"
    assert think(state, "red", "strong") is None
    over = dataclasses.replace(state, status="finished")
    assert think(over, "blue", "strong") is None
