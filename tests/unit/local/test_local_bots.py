"""The local bot queue drives the ``bot`` function as SQS would: after the pause,
SQS-shaped events, failures delivered again, then dead-lettered."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

from aws_lambda_powertools.utilities.parser.models import SqsModel
from numbridge.local.lambdas.bots import LocalBotTurns

Event = dict[str, Any]


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 20))


def test_a_turn_reaches_the_function_after_the_pause_as_an_sqs_event() -> None:
    async def scenario() -> None:
        arrived: asyncio.Queue[tuple[float, Event]] = asyncio.Queue()

        async def function(event: Event) -> Any:
            arrived.put_nowait((time.monotonic(), event))
            return {"batchItemFailures": []}

        bots = LocalBotTurns(function, delay_ms=300)
        bots.start()
        sent_at = time.monotonic()
        # the handlers send from their worker threads
        thread = threading.Thread(target=bots.send, args=("g-1", "red", 7))
        thread.start()
        thread.join()
        at, event = await arrived.get()
        assert at - sent_at >= 0.29
        (record,) = SqsModel.model_validate(event).Records
        assert json.loads(record.body) == {"game": "g-1", "seat": "red", "v": 7}
        assert record.eventSourceARN.endswith(":numbridge-bots")
        await bots.stop()

    run(scenario())


def test_a_failing_turn_is_tried_again_then_dead_lettered() -> None:
    async def scenario() -> None:
        calls: list[str] = []

        async def function(event: Event) -> Any:
            record = event["Records"][0]
            calls.append(record["attributes"]["ApproximateReceiveCount"])
            if len(calls) == 1:
                raise RuntimeError("crashed")
            return {"batchItemFailures": [{"itemIdentifier": record["messageId"]}]}

        bots = LocalBotTurns(function, delay_ms=0, retry_s=0.05, max_receives=3)
        bots.start()
        bots.send("g-2", "blue", 1)
        for _ in range(200):
            if bots.dead_lettered:
                break
            await asyncio.sleep(0.02)
        assert calls == ["1", "2", "3"]
        assert bots.dead_lettered == [{"game": "g-2", "seat": "blue", "v": 1}]
        await bots.stop()

    run(scenario())


def test_nothing_is_delivered_after_stop() -> None:
    async def scenario() -> None:
        calls: list[Event] = []

        async def function(event: Event) -> Any:
            calls.append(event)

        # Due a second on, so that it is still pending at stop() however late the loop
        # runs (at 200 ms, a stall of 150 ms on a loaded machine would deliver it first).
        bots = LocalBotTurns(function, delay_ms=1_000)
        bots.start()
        bots.send("g-3", "blue", 0)
        await asyncio.sleep(0.05)
        await bots.stop()
        await asyncio.sleep(1.1)
        assert calls == []
        bots.send("g-3", "blue", 0)  # after stop: dropped (the watchdog covers it)

    run(scenario())
