"""The bot's choice as a client frame (PROTOCOL.md's action table), without the `id`."""

from __future__ import annotations

from typing import Any

from numbridge.rules.geometry import cell_of

from .choose import Turn
from .position import Position


def turn_frame(position: Position, turn: Turn) -> dict[str, Any]:
    frame: dict[str, Any] = {"action": turn.kind, "game": position.game}
    if turn.cell is not None:
        frame["cell"] = list(cell_of(turn.cell, position.size))
    if turn.digit is not None:
        frame["digit"] = turn.digit
    return frame


def club_frame(position: Position, action: str) -> dict[str, Any]:
    return {"action": action, "game": position.game}
