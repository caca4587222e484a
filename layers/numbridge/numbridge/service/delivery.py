"""After a commit: what an outcome pushes, to every connection it is for.

Each player's frames go to all their devices; a game's spectator frames to every
connection watching it, read after the commit (a watch stored later was answered
with a state at least this new). Everything is posted at once
(``Notifier.post_all``); a failure reaching anyone is logged and skipped: the
change stands, and clients catch up by ``v`` (``sync``). A connection that asked
for batched events gets each game's run of events as one ``events`` frame.

Then what must come after the frames (``commit.after_pushes``): a tournament's step,
which may deal the players' next game, and the review of a finished game.

Nothing is posted to a connection whose token has expired (its items keep the
token's expiry): it is closed instead (``service.expiry``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any

from numbridge.protocol.batching import batched
from numbridge.service.commit import after_pushes
from numbridge.service.context import Services
from numbridge.service.expiry import reachable
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome
from numbridge.store.watches import Receiver


def deliver(svc: Services, outcome: Outcome) -> None:
    now = svc.clock()
    frames_for: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
    batching: set[str] = set()

    def add(receivers: list[Receiver], frames: list[dict[str, Any]]) -> None:
        for receiver in reachable(svc, receivers, now):
            frames_for[receiver.connection] += frames
            if receiver.batch:
                batching.add(receiver.connection)

    for player, frames in outcome.pushes:
        add(_whom(svc.connections.receivers, player), frames)
    for game_id, frames in outcome.to_watchers:
        add(_whom(lambda game: svc.watches.receivers(game, now), game_id), frames)
    for connection_id in batching:
        frames_for[connection_id] = batched(frames_for[connection_id])
    svc.notifier.post_all(frames_for)
    after_pushes(svc, outcome)


def _whom(connections_of: Callable[[str], list[Receiver]], key: str) -> list[Receiver]:
    """The connections of a player or a game's watchers; none if they cannot be read now."""
    try:
        return connections_of(key)
    except Exception:
        count("PushFailures")
        logger.exception("push failed; the clients catch up by v", extra={"of": key})
        return []
