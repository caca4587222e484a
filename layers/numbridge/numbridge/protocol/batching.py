"""Batched events: what a connection opened with ``batch=1`` gets instead of one frame
per event.

The game events (``hidden`` ones included) of one game that follow each other
in what is sent to a connection become one ``events`` frame, each event exactly
the frame it would have been alone; a frame would pass :data:`MAX_EVENTS_FRAME_BYTES`
(API Gateway bills every 32 KB of a message) and starts the next. Every other
frame (an ``ack``, a ``state``, ``presence``) stays as it is, in its place.
Plain Python, as :mod:`.render`: the service batches without loading pydantic.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from numbridge.protocol.answers import Events
from numbridge.rules.events import EVENT_KINDS

MAX_EVENTS_FRAME_BYTES = 32 * 1024
GAME_EVENT_TYPES = frozenset({kind.kind for kind in EVENT_KINDS} | {"hidden"})
# {"type":"events","game":"…","events":[…]} around the events, and a comma between two
_FRAME_OVERHEAD = len('{"type":"events","game":"","events":[]}')


def is_game_event(frame: dict[str, Any]) -> bool:
    return frame.get("type") in GAME_EVENT_TYPES and "id" not in frame


def events_frame(game_id: str, events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    return Events(game=game_id, events=list(events)).frame()


def _size(frame: dict[str, Any]) -> int:
    return len(json.dumps(frame, separators=(",", ":"), ensure_ascii=False).encode())


def batched(frames: Iterable[dict[str, Any]],
            max_bytes: int = MAX_EVENTS_FRAME_BYTES) -> list[dict[str, Any]]:
    """``frames`` with each run of one game's events folded into ``events`` frames of
    at most ``max_bytes`` (an event larger than that alone is a frame of its own)."""
    out: list[dict[str, Any]] = []
    run: list[dict[str, Any]] = []
    game: str | None = None
    size = 0

    def close() -> None:
        if run:
            assert game is not None
            out.append(events_frame(game, run))

    for frame in frames:
        if not is_game_event(frame):
            close()
            run, game = [], None
            out.append(frame)
            continue
        bytes_ = _size(frame) + 1
        if frame["game"] != game or size + bytes_ > max_bytes:
            close()
            run, game = [], frame["game"]
            size = _FRAME_OVERHEAD + len(str(game).encode())
        run.append(frame)
        size += bytes_
    close()
    return out


def unbatched(frame: dict[str, Any]) -> list[dict[str, Any]]:
    """A received frame as the frames it stands for: an ``events`` frame's events, in
    order; any other frame itself."""
    if frame.get("type") == "events" and isinstance(frame.get("events"), list):
        return [e for e in frame["events"] if isinstance(e, dict)]
    return [frame]
