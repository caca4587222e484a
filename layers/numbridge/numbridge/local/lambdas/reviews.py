"""The review queue of the local runtime: the ``review`` function driven as AWS would
drive it, one SQS-shaped message per finished game or stock to refill, at once (no pause
to wait), tried again after a failure as the bot queue's messages are. The function runs
on the local runtime's workers, off the request that sent the message."""

from __future__ import annotations

from numbridge.local.lambdas.bots import LocalBotTurns

QUEUE_ARN = "arn:aws:sqs:us-east-1:123456789012:numbridge-reviews"


class LocalReviews(LocalBotTurns):
    """The review port of the local runtime (``send(game_id)``, ``refill(setting)``)."""

    queue_arn = QUEUE_ARN

    def send(self, game_id: str) -> None:  # type: ignore[override]
        """Called by the handlers, on their threads."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # not started or stopped: the game stays unreviewed
        loop.call_soon_threadsafe(self._later, 0.0, {"game": game_id}, 1)

    def refill(self, setting: str) -> None:
        """Called by the handlers, on their threads."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # not started or stopped: the next deal of the setting asks again
        loop.call_soon_threadsafe(self._later, 0.0, {"stock": setting}, 1)
