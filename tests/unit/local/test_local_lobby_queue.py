"""The local lobby queue drives the ``fanout`` function as the event source mapping
would: the messages of one batching window in one SQS-shaped event, at most a batch's
size of them, a message for later after its delay."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

from aws_lambda_powertools.utilities.parser.models import SqsModel
from numbridge.local.lambdas.lobby_queue import LocalLobbyFeed

Event = dict[str, Any]


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 20))


def test_the_messages_of_one_window_come_in_one_invocation() -> None:
    """Catches: an invocation per message (a frame per change to every subscriber)."""
    async def scenario() -> None:
        events: list[tuple[float, Event]] = []

        async def function(event: Event) -> Any:
            events.append((time.monotonic(), event))
            return {"batchItemFailures": []}

        feed = LocalLobbyFeed(function, window_s=0.3, batch_size=5)
        feed.start()
        sent_at = time.monotonic()
        threads = [threading.Thread(target=feed.publish, args=({"hints": [{"seeks": str(n)}]},))
                   for n in range(7)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        await asyncio.sleep(0.6)
        assert [len(SqsModel.model_validate(e).Records) for _, e in events] == [5, 2]
        assert events[0][0] - sent_at >= 0.29
        bodies = [json.loads(r.body) for _, e in events
                  for r in SqsModel.model_validate(e).Records]
        assert sorted(b["hints"][0]["seeks"] for b in bodies) == [str(n) for n in range(7)]
        await feed.stop()

    run(scenario())


def test_a_message_for_later_comes_after_its_delay() -> None:
    """Catches: a message for later delivered at once (a seek tried again before its window
    widened, an absence told before the reconnect could come)."""
    async def scenario() -> None:
        arrived: asyncio.Queue[tuple[float, Event]] = asyncio.Queue()

        async def function(event: Event) -> Any:
            arrived.put_nowait((time.monotonic(), event))
            return {"batchItemFailures": []}

        feed = LocalLobbyFeed(function, window_s=0.05)
        feed.start()
        sent_at = time.monotonic()
        feed.later([(400, {"retry": "blitz"})])
        at, event = await arrived.get()
        assert at - sent_at >= 0.4
        (record,) = SqsModel.model_validate(event).Records
        assert json.loads(record.body) == {"retry": "blitz"}
        await feed.stop()

    run(scenario())
