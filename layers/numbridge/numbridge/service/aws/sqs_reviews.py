"""Reviews in AWS: one SQS message per finished game (the port: ``service.ports.Reviews``).

The body is ``{"game": GID}``; the ``review`` function computes the game's review
(numbridge.coach) and stores it beside its archive record. Off the request that
finished the game: a review costs tens of milliseconds of CPU the players' move need
not wait for. The same queue carries the stock's refills, ``{"stock": SETTING}``: the
function deals a board for each free slot of that setting (``store.board_stock``).
"""

from __future__ import annotations

import json
import logging
from typing import Any

log = logging.getLogger("numbridge")


class SqsReviews:
    def __init__(self, client: Any, queue_url: str) -> None:
        self.client = client
        self.queue_url = queue_url

    def send(self, game_id: str) -> None:
        self._send({"game": game_id})

    def refill(self, setting: str) -> None:
        self._send({"stock": setting})

    def _send(self, body: dict[str, str]) -> None:
        self.client.send_message(QueueUrl=self.queue_url, MessageBody=json.dumps(body))


class NoReviews:
    """Where no review queue is configured: finished games stay unreviewed, and the
    stock is never refilled (its asks are dealt inline, as any other)."""

    def send(self, game_id: str) -> None:
        log.debug("no review queue: game %s not reviewed", game_id)

    def refill(self, setting: str) -> None:
        log.debug("no review queue: stock %s not refilled", setting)
