"""Whether a client frame is legal for the position (RULES.md §4, PROTOCOL.md's `illegal`).

The brain checks its own answer with this before returning it; the tests check
the same answers against the rules engine itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from numbridge.rules.geometry import index_of, on_board

from .position import Position


def _cell(position: Position, frame: Mapping[str, Any]) -> int | None:
    cell = frame.get("cell")
    if not isinstance(cell, list) or len(cell) != 2:
        return None
    r, c = cell
    if not isinstance(r, int) or not isinstance(c, int) or not on_board(r, c, position.size):
        return None
    return index_of(r, c, position.size)


def is_legal(position: Position, frame: Mapping[str, Any]) -> bool:
    action = frame.get("action")
    if frame.get("game") != position.game:
        return False
    if action in ("place", "take", "exchange", "swap") and not position.my_move:
        return False
    digit = frame.get("digit")
    if action == "place":
        i = _cell(position, frame)
        return (
            i is not None
            and position.digits[i] == "."
            and position.clues[i] == "0"
            and digit in position.hand
        )
    if action == "take":
        i = _cell(position, frame)
        if i is None or position.clues[i] != "1" or position.owners[i] != ".":
            return False
        if not position.hand:
            return "digit" not in frame
        return digit in position.hand and len(position.hand) >= position.take_price
    if action == "exchange":
        return position.bag > 0
    if action == "swap":
        return position.swap_available
    if action in ("accept_draw", "decline_draw"):
        return position.status != "finished" and position.draw_offer == position.them
    if action == "accept_adjourn":
        return position.status == "playing" and position.adjourn_offer == position.them
    if action == "resume":
        return position.status == "adjourned" and position.me not in position.resume_requested
    return False
