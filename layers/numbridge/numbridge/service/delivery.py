"""After a commit: what an outcome pushes, to every connection it is for.

Each player's frames go to all their devices; a game's spectator frames to every
connection watching it, read after the commit (a watch stored later was answered
with a state at least this new). Everything is posted at once
(``Notifier.post_all``); a failure reaching anyone is logged and skipped: the
change stands, and clients catch up by ``v`` (``sync``). A connection that asked
for batched events gets each game's run of events as one ``events`` frame.

Nothing is posted to a connection whose token has expired (its items keep the
token's expiry): it is closed instead (``DeleteConnection``) and forgotten, so a
hand never reaches a device after its sign-in ended, in AWS as locally (where the
gateway closes such a socket at the instant of expiry already).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from numbridge.protocol.batching import batched
from numbridge.service.context import Services
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome
from numbridge.store.watches import Receiver


def deliver(svc: Services, outcome: Outcome) -> None:
    frames_for: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    batching: set[str] = set()
    expired: set[str] = set()
    now = svc.clock()

    def add(receiver: Receiver, frames: list[dict[str, Any]]) -> None:
        if receiver.expired(now):
            expired.add(receiver.connection)
            return
        frames_for[receiver.connection] += frames
        if receiver.batch:
            batching.add(receiver.connection)

    for player, frames in outcome.pushes:
        for receiver in _whom(svc.connections.receivers, player):
            add(receiver, frames)
    for game_id, frames in outcome.to_watchers:
        for receiver in _whom(lambda game: svc.watches.receivers(game, now), game_id):
            add(receiver, frames)
    for connection_id in batching:
        frames_for[connection_id] = batched(frames_for[connection_id])
    svc.notifier.post_all(frames_for)
    for connection_id in sorted(expired):
        _close(svc, connection_id)


def _close(svc: Services, connection_id: str) -> None:
    """Close a connection whose token expired; a failure is logged (the next push or
    request on it tries again, and nothing is posted to it meanwhile)."""
    try:
        svc.notifier.close(connection_id)
        count("ExpiredConnectionsClosed")
    except Exception:
        logger.exception("expired connection not closed", extra={"connection": connection_id})


def _whom(connections_of: Callable[[str], list[Receiver]], key: str) -> list[Receiver]:
    """The connections of a player or a game's watchers; none if they cannot be read now."""
    try:
        return connections_of(key)
    except Exception:
        count("PushFailures")
        logger.exception("push failed; the clients catch up by v", extra={"of": key})
        return []
