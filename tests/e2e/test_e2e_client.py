"""The e2e client itself: it fails on a gap or a duplicate in a game's events
instead of waiting for a frame that matches (no server needed)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import pytest
from client import Seat, StreamError

Frame = dict[str, Any]
SOLUTION = "123456456123231564564231312645645312"
BLOCKS = "".join(str((r // 2) * 2 + c // 3) for r in range(6) for c in range(6))


class Script:
    """A player whose pushed frames are given in advance."""

    name = "ana"

    def __init__(self, frames: list[Frame]) -> None:
        self.pushed = deque(frames)

    def expect(self, match: Callable[[Frame], bool], timeout: float = 30.0) -> Frame:
        for frame in list(self.pushed):
            if match(frame):
                self.pushed.remove(frame)
                return frame
        raise TimeoutError("nothing matched")


def seat(frames: list[Frame]) -> Seat:
    digits = "".join("." if i % 7 == 0 else d for i, d in enumerate(SOLUTION))  # the diagonal
    view = {"v": 0, "size": 6, "blocks": BLOCKS, "you": "blue", "hand": [1, 2, 3],
            "digits": digits, "owners": "." * 36, "clues": "".join(
                "0" if d == "." else "1" for d in digits),
            "options": {"take_price": 2}, "turn": "blue", "bag": 10, "status": "playing",
            "result": None}
    return Seat(Script(frames), {"type": "state", "game": "g", "v": 0, "view": view})  # type: ignore[arg-type]


def event(v: int, kind: str = "exchanged") -> Frame:
    if kind == "turn":
        return {"type": "turn", "game": "g", "v": v, "turn": "red", "bag": 10}
    return {"type": kind, "game": "g", "v": v, "seat": "blue", "count": 3}


def test_the_client_solved_the_board_it_was_shown() -> None:
    assert seat([]).solution == SOLUTION


def test_events_in_order_are_applied_and_crossed_ones_are_reordered() -> None:
    s = seat([event(2, "turn"), event(1)])
    s.catch_up(timeout=1)
    assert s.v == 2 and s.turn == "red"
    s.settle(quiet=0)


def test_a_gap_fails_and_says_so() -> None:
    s = seat([event(1), event(3, "turn")])
    with pytest.raises(StreamError, match="gap"):
        s.catch_up(timeout=1)


def test_a_duplicate_fails() -> None:
    s = seat([event(1), event(1), event(2, "turn")])
    with pytest.raises(StreamError, match="twice"):
        s.catch_up(timeout=1)


def test_a_duplicate_left_over_after_the_game_fails() -> None:
    s = seat([event(1), event(2, "turn"), event(2, "turn")])
    s.catch_up(timeout=1)
    with pytest.raises(StreamError, match="twice"):
        s.settle(quiet=0)


def test_a_sync_replay_may_overlap_live_pushes_with_the_same_events_only() -> None:
    s = seat([event(1), event(2, "turn"), event(1)])
    s.replaying = True
    s.catch_up(timeout=1)
    s.settle(quiet=0)
    assert s.overlaps == 1
    other = seat([event(1), {**event(1), "count": 2}])
    other.replaying = True
    with pytest.raises(StreamError, match="different"):
        other.settle(quiet=0)
