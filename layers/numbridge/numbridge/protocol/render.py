"""Frames as the server sends them, in plain Python: no pydantic here, so a function
that only renders frames does not load it at a cold start (:mod:`.models` derives
the models that describe and check them). A game event is its rules dataclass; every
other frame is an answer of :mod:`.answers`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from numbridge.protocol.answers import Ack, Error, Hidden
from numbridge.protocol.errors import ErrorCode
from numbridge.rules.plain import plain

if TYPE_CHECKING:
    from numbridge.rules.events import Event


def event_frame(game_id: str, event: Event) -> dict[str, Any]:
    """``{"type": KIND, "game": GID, "v": N, ...the body's fields}``."""
    return {"type": event.kind, "game": game_id, "v": event.v, **plain(event.body)}


def hidden_frame(game_id: str, v: int) -> dict[str, Any]:
    return Hidden(game=game_id, v=v).frame()


def ack_frame(request_id: str) -> dict[str, Any]:
    return Ack(id=request_id).frame()


def error_frame(request_id: str | None, code: ErrorCode, message: str,
                retry_after_ms: int | None = None) -> dict[str, Any]:
    """An error always carries ``id`` (null if the request had none); only
    ``rate_limited`` says when to retry."""
    return Error(id=request_id, code=code, message=message,
                 retry_after_ms=retry_after_ms).frame()
