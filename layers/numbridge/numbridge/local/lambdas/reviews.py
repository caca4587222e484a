"""The review queue of the local runtime: the ``review`` function driven as AWS would
drive it, one SQS-shaped message per finished game or stock to refill, at once (no pause
to wait), tried again after a failure as the bot queue's messages are. The function runs
on the local runtime's workers, off the request that sent the message, at most
:data:`AT_ONCE` at a time as in AWS."""

from __future__ import annotations

import asyncio
from typing import Any

from numbridge.local.lambdas.bots import Invoke, LocalBotTurns

QUEUE_ARN = "arn:aws:sqs:us-east-1:123456789012:numbridge-reviews"
# The review function's concurrency in AWS (template.yaml, ScalingConfig
# MaximumConcurrency). Every game of a stocked ask sends a refill: a burst of them run all
# at once would each read the same free slots and deal them all (10 at once: 36-40 boards
# for 4 slots), on the workers the request handlers share. Two at once, the rest of a
# burst finds the stock full (one read each).
AT_ONCE = 2


class LocalReviews(LocalBotTurns):
    """The review port of the local runtime (``send(game_id)``, ``refill(setting)``)."""

    queue_arn = QUEUE_ARN

    def __init__(self, invoke: Invoke, **options: Any) -> None:
        super().__init__(invoke, **options)
        self._at_once = asyncio.Semaphore(AT_ONCE)

    def send(self, game_id: str) -> None:  # type: ignore[override]
        """Called by the handlers, on their threads."""
        self._enqueue({"game": game_id})

    def refill(self, setting: str) -> None:
        """Called by the handlers, on their threads."""
        self._enqueue({"stock": setting})

    def _enqueue(self, body: dict[str, Any]) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            # Not started or stopped: the game stays unreviewed, the stock's next deal
            # asks again.
            return
        loop.call_soon_threadsafe(self._later, 0.0, body, 1)

    async def _deliver(self, body: dict[str, Any], receives: int) -> None:
        async with self._at_once:
            if self._stopping:
                return  # stopped while waiting its turn: not delivered, as if still queued
            await super()._deliver(body, receives)
