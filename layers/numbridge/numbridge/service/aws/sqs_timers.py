"""Per-turn timers in AWS: one SQS message per new deadline (the port: ``service.ports``).

SQS delays are capped at 15 minutes; a message that arrives before its deadline
is sent again for the rest of the wait (``play.advance``). A timer that could
not be sent is not lost: the once-a-minute sweep reads the deadline index.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DELAY_S = 900


class SqsTimers:
    def __init__(self, client: Any, queue_url: str) -> None:
        self.client = client
        self.queue_url = queue_url

    def schedule(self, game_id: str, v: int, deadline_ms: int, now_ms: int) -> None:
        delay = min(MAX_DELAY_S, max(0, math.ceil((deadline_ms - now_ms) / 1000)))
        self.client.send_message(
            QueueUrl=self.queue_url,
            DelaySeconds=delay,
            MessageBody=json.dumps({"game": game_id, "v": v, "deadline_ms": deadline_ms}),
        )
