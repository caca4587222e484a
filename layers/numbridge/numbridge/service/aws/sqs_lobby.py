"""Lobby changes in AWS: a message to the lobby queue per change, read by the
``fanout`` function in batches (the port: ``service.ports.LobbyFeed``;
docs/lobby-push.md).

A message's body is JSON: ``{"hints": [HINT, …]}`` (what changed; the fan-out
reads the store for the rest), ``{"online": true}`` or ``{"retry": ROOM}``. SQS counts
``DelaySeconds`` in whole seconds (at most 900): a later message is rounded up, never
early.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping, Sequence
from typing import Any

MAX_DELAY_S = 900
BATCH = 10  # SendMessageBatch's limit

log = logging.getLogger("numbridge")


def _body(message: Mapping[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


class SqsLobbyFeed:
    def __init__(self, client: Any, queue_url: str) -> None:
        self.client = client
        self.queue_url = queue_url

    def publish(self, message: Mapping[str, Any]) -> None:
        self.client.send_message(QueueUrl=self.queue_url, MessageBody=_body(message))

    def later(self, messages: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
        entries = [{"Id": str(n), "MessageBody": _body(message),
                    "DelaySeconds": min(MAX_DELAY_S, max(0, math.ceil(delay_ms / 1000)))}
                   for n, (delay_ms, message) in enumerate(messages)]
        for start in range(0, len(entries), BATCH):
            answer = self.client.send_message_batch(QueueUrl=self.queue_url,
                                                    Entries=entries[start:start + BATCH])
            if answer.get("Failed"):
                log.warning("lobby messages not sent: %s", answer["Failed"])


class NoLobbyFeed:
    """Where no lobby queue is configured: the lobby's subscribers are not told."""

    def publish(self, message: Mapping[str, Any]) -> None:
        log.debug("no lobby queue: %s not sent", message)

    def later(self, messages: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
        log.debug("no lobby queue: %d later messages not sent", len(messages))
