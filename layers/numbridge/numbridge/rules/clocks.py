"""Clocks as data (RULES.md §6, PROTOCOL.md `deadline_ms`/`clock_ms`).

Each move has a limit (``move_ms``) counted from the move's start; each player
also has a game clock (``game_ms`` in total, None for none) from which the
time of their own moves is deducted. The mover loses the move at the earlier
of the move limit and the end of their game clock; reaching the end of the
game clock first (or at the same instant) is a loss on time.
"""

from __future__ import annotations

from numbridge.values import frozen


@frozen
class Deadline:
    at_ms: int
    on_time: bool  # True: it is the game clock running out (a loss), not the move limit


def deadline(turn_started_ms: int, move_ms: int, clock_ms: int | None) -> Deadline:
    """When the current move ends for the mover, and whether that ends the game."""
    if clock_ms is not None and clock_ms <= move_ms:
        return Deadline(turn_started_ms + clock_ms, True)
    return Deadline(turn_started_ms + move_ms, False)


def time_used(turn_started_ms: int, now_ms: int) -> int:
    """Time spent on the current move (never negative, whatever clock skew)."""
    return max(0, now_ms - turn_started_ms)


def remaining(clock_ms: int | None, used_ms: int) -> int | None:
    """A game clock after ``used_ms`` of thinking (never below zero)."""
    return None if clock_ms is None else max(0, clock_ms - used_ms)
