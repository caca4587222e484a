"""Whether each player has made a first move: the abort rule's test (RULES.md §7)."""

from __future__ import annotations

from collections.abc import Sequence

from .seats import SEATS, Seat
from .state import RecordEntry

# The record's entries that are a player's own move (timeouts and passes are not).
FIRST_MOVES = frozenset({"place", "take", "exchange", "swap"})


def has_moved(record: Sequence[RecordEntry], seat: Seat) -> bool:
    return any(e.seat == seat and e.action in FIRST_MOVES for e in record)


def abortable(status: str, record: Sequence[RecordEntry]) -> bool:
    """Whether a player may still abort: not finished, and someone has not moved yet."""
    return status != "finished" and not all(has_moved(record, s) for s in SEATS)
