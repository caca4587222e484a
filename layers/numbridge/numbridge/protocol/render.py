"""Frames as the server sends them, in plain Python: no pydantic here, so a function
that only renders frames does not load it at a cold start (the models of
:mod:`.frames` and :mod:`.event_frames` describe and check these frames)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from numbridge.protocol.errors import ErrorCode
from numbridge.rules.plain import plain

if TYPE_CHECKING:
    from numbridge.rules.events import Event


def event_frame(game_id: str, event: Event) -> dict[str, Any]:
    """``{"type": KIND, "game": GID, "v": N, ...the body's fields}``."""
    return {"type": event.kind, "game": game_id, "v": event.v, **plain(event.body)}


def hidden_frame(game_id: str, v: int) -> dict[str, Any]:
    """What a viewer gets for an event that is not theirs to see: it still advances ``v``."""
    return {"type": "hidden", "game": game_id, "v": v}


def ack_frame(request_id: str) -> dict[str, Any]:
    return {"type": "ack", "id": request_id}


def error_frame(request_id: str | None, code: ErrorCode, message: str,
                retry_after_ms: int | None = None) -> dict[str, Any]:
    """An error always carries ``id`` (null if the request had none); only
    ``rate_limited`` says when to retry."""
    frame: dict[str, Any] = {"type": "error", "id": request_id, "code": code, "message": message}
    if retry_after_ms is not None:
        frame["retry_after_ms"] = retry_after_ms
    return frame
