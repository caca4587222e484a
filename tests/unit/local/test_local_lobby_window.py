"""The local lobby queue's batching window under a steady trickle of messages: it opens at
the first message of a batch and closes a window later, whatever comes meanwhile (the
event source mapping's ``MaximumBatchingWindowInSeconds``)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from aws_lambda_powertools.utilities.parser.models import SqsModel
from numbridge.local.lambdas.lobby_queue import LocalLobbyFeed

Event = dict[str, Any]


def test_a_steady_trickle_is_delivered_a_window_after_its_first_message() -> None:
    """Catches: a window that starts over at each message (changes a tenth of a second
    apart would reach nobody while they kept coming), and a window opened by each message
    rather than by the batch's first (an invocation, and a frame to every subscriber, for
    nearly every change)."""
    async def scenario() -> None:
        events: list[tuple[float, Event]] = []

        async def function(event: Event) -> Any:
            events.append((time.monotonic(), event))
            return {"batchItemFailures": []}

        feed = LocalLobbyFeed(function, window_s=0.3)
        feed.start()
        started = time.monotonic()
        for n in range(10):  # one every 0.1 s for a second
            feed.publish({"hints": [{"seeks": str(n)}]})
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.6)
        await feed.stop()
        assert events, "nothing delivered"
        assert events[0][0] - started < 0.7, "the first window did not close after 0.3 s"
        assert len(events) <= 5, f"{len(events)} invocations for about three windows"
        bodies = [json.loads(r.body) for _, e in events
                  for r in SqsModel.model_validate(e).Records]
        assert sorted(int(b["hints"][0]["seeks"]) for b in bodies) == list(range(10))

    asyncio.run(asyncio.wait_for(scenario(), 20))
