"""After a commit: what an outcome pushes, to every connection it is for.

Each player's frames go to all their devices; a game's spectator frames to every
connection watching it, read after the commit (a watch stored later was answered
with a state at least this new). Everything is posted at once
(``Notifier.post_all``); a failure reaching anyone is logged and skipped: the
change stands, and clients catch up by ``v`` (``sync``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from numbridge.service.context import Services
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome


def deliver(svc: Services, outcome: Outcome) -> None:
    frames_for: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    for player, frames in outcome.pushes:
        for connection_id in _whom(svc.connections.of_player, player):
            frames_for[connection_id] += frames
    now = svc.clock()
    for game_id, frames in outcome.to_watchers:
        for connection_id in _whom(lambda game: svc.watches.of_game(game, now), game_id):
            frames_for[connection_id] += frames
    svc.notifier.post_all(frames_for)


def _whom(connections_of: Callable[[str], list[str]], key: str) -> list[str]:
    """The connections of a player or a game's watchers; none if they cannot be read now."""
    try:
        return connections_of(key)
    except Exception:
        count("PushFailures")
        logger.exception("push failed; the clients catch up by v", extra={"of": key})
        return []
