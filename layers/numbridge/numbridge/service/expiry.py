"""Connections past their token: nothing more is posted to them, and each is closed
(``DeleteConnection``) and forgotten, so a hand never reaches a device after its
sign-in ended — in AWS as locally, where the gateway also closes such a socket at
the instant of expiry. Plain Python and the store: $connect and $disconnect use it
(presence) without loading the protocol."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from numbridge.service.observability import count, logger
from numbridge.store.watches import Receiver

if TYPE_CHECKING:
    from numbridge.service.context import Services


def reachable(svc: Services, receivers: Iterable[Receiver], now_ms: int) -> list[Receiver]:
    """The receivers whose token is still current; each other one is closed."""
    current: list[Receiver] = []
    expired: set[str] = set()
    for receiver in receivers:
        if receiver.expired(now_ms):
            expired.add(receiver.connection)
        else:
            current.append(receiver)
    for connection_id in sorted(expired):
        _close(svc, connection_id)
    return current


def _close(svc: Services, connection_id: str) -> None:
    """A failure is logged: the next push or request on it tries again, and nothing is
    posted to it meanwhile."""
    try:
        svc.notifier.close(connection_id)
        count("ExpiredConnectionsClosed")
    except Exception:
        logger.exception("expired connection not closed", extra={"connection": connection_id})
