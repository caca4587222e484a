"""Route selection as API Gateway does it with ``$request.body.action``."""

from __future__ import annotations

import json
from collections.abc import Container

from numbridge.protocol.wire import too_deep

CONNECT = "$connect"
DISCONNECT = "$disconnect"
DEFAULT = "$default"
SPECIAL = frozenset({CONNECT, DISCONNECT, DEFAULT})
# The keep-alive: in AWS a route to a MOCK integration with no route response (template.yaml,
# PingRoute): it keeps the connection from API Gateway's 10-minute idle cut, reaches no
# function and is answered with nothing. The local gateway drops it the same way.
KEEPALIVE = "ping"


def select_route(body: str, routes: Container[str]) -> str | None:
    """The route a text frame goes to, or ``None`` when nothing matches.

    A JSON object whose string ``action`` names a (non-special) route goes
    there; anything else (not JSON, not an object, no ``action``, an action
    that is not a string or names no route) goes to ``$default`` if there is
    one. API Gateway answers a frame that matches nothing with "Forbidden".
    """
    action = _action(body)
    if action == KEEPALIVE:
        return KEEPALIVE
    if action is not None and action not in SPECIAL and action in routes:
        return action
    return DEFAULT if DEFAULT in routes else None


def _action(body: str) -> str | None:
    # json.loads recurses: a deeply nested frame would raise RecursionError here
    # and take the connection down. Such a frame selects no route ($default),
    # whose handler refuses it as malformed.
    if too_deep(body):
        return None
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict):
        return None
    action = message.get("action")
    return action if isinstance(action, str) else None
