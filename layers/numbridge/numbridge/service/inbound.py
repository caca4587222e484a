"""The two things a message handler needs from an API Gateway MESSAGE event.

Only the connection id must be sound (without it nobody can be answered); the
body may be anything and is judged by :mod:`numbridge.protocol.wire`. API
Gateway sends text frames as ``body`` strings; a base64 body (a binary
payload, which API Gateway itself refuses with close code 1003) is decoded to
bytes so that it too gets a typed answer.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping

from numbridge.protocol.wire import MAX_FRAME_BYTES

MAX_CONNECTION_ID = 128


def message_parts(event: object) -> tuple[str, object]:
    """``(connection_id, body)``; ValueError when the event names no connection."""
    if not isinstance(event, Mapping):
        raise ValueError("the event is not an object")
    context = event.get("requestContext")
    connection_id = context.get("connectionId") if isinstance(context, Mapping) else None
    if not isinstance(connection_id, str) or not 0 < len(connection_id) <= MAX_CONNECTION_ID:
        raise ValueError("the event has no requestContext.connectionId")
    body = event.get("body")
    if event.get("isBase64Encoded") is True and isinstance(body, str):
        body = _unbase64(body)
    return connection_id, body


def _unbase64(body: str) -> object:
    if len(body) > MAX_FRAME_BYTES * 4 // 3 + 4:
        return body  # too big either way: the reader says so
    try:
        return base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError):
        return None  # not base64: no frame at all
