"""Bot turns in AWS: one SQS message per turn a bot seat owes (the port: ``service.ports``).

The body is ``{"game", "seat", "v"}``; the ``bot`` function plays that seat if
the game is still at ``v``. The pause a person can follow is the message's
delay: SQS counts ``DelaySeconds`` in whole seconds, so ``BOT_DELAY_MS`` is
rounded to the nearest second there (800 ms → 1 s); the local runtime keeps
the milliseconds.
"""

from __future__ import annotations

import json
import logging
from typing import Any

DEFAULT_DELAY_MS = 800
MAX_DELAY_S = 900

log = logging.getLogger("numbridge")


class SqsBotTurns:
    def __init__(self, client: Any, queue_url: str, delay_ms: int = DEFAULT_DELAY_MS) -> None:
        self.client = client
        self.queue_url = queue_url
        self.delay_s = min(MAX_DELAY_S, max(0, round(delay_ms / 1000)))

    def send(self, game_id: str, seat: str, v: int) -> None:
        self.client.send_message(
            QueueUrl=self.queue_url,
            DelaySeconds=self.delay_s,
            MessageBody=json.dumps({"game": game_id, "seat": seat, "v": v}),
        )


class NoBotTurns:
    """Where no bot queue is configured: a bot seat then waits for its timer."""

    def send(self, game_id: str, seat: str, v: int) -> None:
        log.warning("no bot queue: bot turn of %s v%d not sent", game_id, v)


def delay_ms_from(raw: str | None) -> int:
    """``BOT_DELAY_MS`` as milliseconds (the default when unset or unreadable)."""
    try:
        return max(0, int(raw)) if raw else DEFAULT_DELAY_MS
    except ValueError:
        return DEFAULT_DELAY_MS
