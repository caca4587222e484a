"""Checking a view kept from pushed events (``numbridge.bot.tracking``) against a fresh one.

Every field the tracked view holds must be the fresh view's — the clocks as of
the fresh view's ``now_ms`` (the player to move has spent the time since the
tracked ``turn``) — and, while the game is not finished, it must hold every
field the fresh view has that events can keep: the brain reads any of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numbridge.bot.tracking import settled, tracked_view
from numbridge.rules.seats import SEATS


def clock_then(tracked: Mapping[str, Any], seat: str, now_ms: int) -> Any:
    """A tracked clock as a view at ``now_ms`` gives it."""
    clock = tracked["players"][seat]["clock_ms"]
    if clock is None or tracked["status"] != "playing" or tracked["turn"] != seat:
        return clock
    return max(0, clock - max(0, now_ms - tracked["now_ms"]))


def check_tracked(tracked: Mapping[str, Any], fresh: Mapping[str, Any]) -> None:
    """``fresh``: the view a ``sync`` (or ``rules.player_view``) gives the same seat at
    the same ``v``."""
    want = tracked_view({"v": fresh["v"], "view": fresh})
    assert tracked["v"] == want["v"]
    if tracked["status"] != "finished":
        assert settled(tracked), sorted(tracked)
        assert set(tracked) == set(want), set(tracked) ^ set(want)
    for key, value in tracked.items():
        if key == "now_ms":
            assert value <= want["now_ms"]
        elif key != "players":
            assert (key, value) == (key, want[key])
    for seat in SEATS:
        mine, theirs = tracked["players"][seat], want["players"][seat]
        if tracked["status"] != "finished":
            assert set(mine) == set(theirs), (seat, set(mine) ^ set(theirs))
        for key, value in mine.items():
            if key == "clock_ms":
                value = clock_then(tracked, seat, want["now_ms"])
            assert (seat, key, value) == (seat, key, theirs[key])
