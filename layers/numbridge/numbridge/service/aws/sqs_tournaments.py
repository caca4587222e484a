"""Tournament steps in AWS: one SQS message per step to take (the port:
``service.ports.TournamentSteps``), read by the ``tournament`` function.

The body is ``{"tournament": TID}``, with ``"game": GID`` when a game of it just
ended, ``"due_ms"`` for a timer (the start, an arena's end, a standings push put
off), ``"roster": true`` when a player joined or left. SQS delays a message by at most
15 minutes: a timer that arrives before it is due is sent again for the rest of the wait
(``usecases.tournament_steps``).
"""

from __future__ import annotations

import json
import logging
import math
from typing import Any

MAX_DELAY_S = 900

log = logging.getLogger("numbridge")


def step_body(tournament_id: str, game: str | None, due_ms: int | None,
              roster: bool = False) -> dict[str, Any]:
    """A step message's body, as every runtime sends it."""
    body: dict[str, Any] = {"tournament": tournament_id}
    if game is not None:
        body["game"] = game
    if due_ms is not None:
        body["due_ms"] = due_ms
    if roster:
        body["roster"] = True
    return body


class SqsTournamentSteps:
    def __init__(self, client: Any, queue_url: str) -> None:
        self.client = client
        self.queue_url = queue_url

    def send(self, tournament_id: str, delay_ms: int, *, game: str | None = None,
             due_ms: int | None = None, roster: bool = False) -> None:
        delay = min(MAX_DELAY_S, max(0, math.ceil(delay_ms / 1000)))
        self.client.send_message(
            QueueUrl=self.queue_url, DelaySeconds=delay,
            MessageBody=json.dumps(step_body(tournament_id, game, due_ms, roster)))


class NoTournamentSteps:
    """Where no tournament queue is configured: steps wait for the sweep."""

    def send(self, tournament_id: str, delay_ms: int, *, game: str | None = None,
             due_ms: int | None = None, roster: bool = False) -> None:
        log.debug("no tournament queue: a step of %s not sent", tournament_id)
