"""The pie rule (RULES.md §10): Bridge and Blitz only, on red's first turn only.

If blue came to own a cell on its first turn (a correct placement or a take),
red may take that cell over instead of playing; that is red's whole turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from .seats import Seat, Status, Variant
from .state import RecordEntry


def pie_cell(
    variant: Variant,
    status: Status,
    to_move: Seat,
    turns_played: int,
    record: Sequence[RecordEntry],
) -> tuple[int, int] | None:
    """The cell red may take over now, or None if the pie rule is not open."""
    if variant == "domains" or status != "playing" or to_move != "red" or turns_played != 1:
        return None
    first = next((e for e in record if e.is_turn), None)
    if first is None or first.seat != "blue":
        return None
    if first.action == "take" or (first.action == "place" and not first.mistake):
        return first.cell
    return None


def why_no_swap(variant: Variant, turns_played: int) -> str:
    if variant == "domains":
        return "there is no pie rule in Domains"
    if turns_played != 1:
        return "the pie rule is open only on red's first turn"
    return "blue came to own no cell on its first turn"
