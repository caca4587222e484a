"""The timer queue and the sweep drive the ``timeout`` function as AWS does (against moto SQS)."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.parser.models import EventBridgeModel, SqsModel
from local_fakes import aws_client
from numbridge.local.timers import Timers

Event = dict[str, Any]


def new_queue(sqs: Any) -> str:
    return str(sqs.create_queue(QueueName=f"timers-{uuid.uuid4().hex[:8]}")["QueueUrl"])


def counts(sqs: Any, url: str) -> tuple[int, int]:
    """(visible, in flight) messages."""
    attributes = sqs.get_queue_attributes(
        QueueUrl=url,
        AttributeNames=["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    )["Attributes"]
    return (
        int(attributes["ApproximateNumberOfMessages"]),
        int(attributes["ApproximateNumberOfMessagesNotVisible"]),
    )


class Function:
    """A fake ``timeout`` function: records events, answers with ``respond(event)``."""

    def __init__(self, respond: Callable[[Event], Any] = lambda event: None) -> None:
        self.events: list[Event] = []
        self.respond = respond
        self._arrived: asyncio.Queue[Event] = asyncio.Queue()

    async def __call__(self, event: Event) -> Any:
        self.events.append(event)
        self._arrived.put_nowait(event)
        return self.respond(event)

    async def next(self, kind: str, timeout: float = 10.0) -> Event:
        """The next event that is an SQS batch (``kind="sqs"``) or a sweep (``"sweep"``)."""
        while True:
            event = await asyncio.wait_for(self._arrived.get(), timeout)
            if ("Records" in event) == (kind == "sqs"):
                return event


def run(scenario: Callable[[], Any]) -> Any:
    return asyncio.run(scenario())


def test_sweep_runs_at_start_with_a_scheduled_event(moto_url: str) -> None:
    sqs = aws_client("sqs", moto_url)
    url = new_queue(sqs)

    async def scenario() -> Event:
        function = Function()
        timers = Timers(sqs, url, function, poll_interval_s=0.05, sweep_interval_s=3600)
        timers.start()
        try:
            return await function.next("sweep")
        finally:
            await timers.stop()

    event = run(scenario)
    model = EventBridgeModel.model_validate(event)
    assert model.source == "aws.events" and model.detail_type == "Scheduled Event"


def test_sweep_repeats(moto_url: str) -> None:
    sqs = aws_client("sqs", moto_url)
    url = new_queue(sqs)

    async def scenario() -> None:
        function = Function()
        timers = Timers(sqs, url, function, poll_interval_s=0.05, sweep_interval_s=0.1)
        timers.start()
        try:
            for _ in range(3):
                await function.next("sweep")
        finally:
            await timers.stop()

    run(scenario)


def test_delayed_message_is_delivered_when_due_and_deleted(moto_url: str) -> None:
    sqs = aws_client("sqs", moto_url)
    url = new_queue(sqs)
    body = json.dumps({"game": "g-1", "v": 4, "deadline_ms": 0})

    async def scenario() -> tuple[Event, float]:
        function = Function(lambda event: {"batchItemFailures": []})
        timers = Timers(sqs, url, function, poll_interval_s=0.05, sweep_interval_s=3600)
        timers.start()
        try:
            sent = time.monotonic()
            sqs.send_message(QueueUrl=url, MessageBody=body, DelaySeconds=1)
            event = await function.next("sqs")
            return event, time.monotonic() - sent
        finally:
            await timers.stop()

    event, waited = run(scenario)
    assert 0.9 <= waited < 2.0
    model = SqsModel.model_validate(event)
    (record,) = model.Records
    assert record.body == body
    assert record.eventSourceARN.endswith(":" + url.rsplit("/", 1)[1])
    assert counts(sqs, url) == (0, 0)


def test_failed_items_stay_in_the_queue(moto_url: str) -> None:
    sqs = aws_client("sqs", moto_url)
    url = new_queue(sqs)

    def fail_odd(event: Event) -> dict[str, Any]:
        return {
            "batchItemFailures": [
                {"itemIdentifier": record["messageId"]}
                for record in event["Records"]
                if json.loads(record["body"])["n"] % 2
            ]
        }

    async def scenario() -> int:
        function = Function(fail_odd)
        for n in range(4):
            sqs.send_message(QueueUrl=url, MessageBody=json.dumps({"n": n}))
        timers = Timers(sqs, url, function, poll_interval_s=0.05, sweep_interval_s=3600)
        timers.start()
        try:
            delivered = 0
            while delivered < 4:
                delivered += len((await function.next("sqs"))["Records"])
            return delivered
        finally:
            await timers.stop()

    assert run(scenario) == 4
    assert counts(sqs, url) == (0, 2)  # the two failures wait out their visibility timeout


def test_a_crashing_function_leaves_the_batch(moto_url: str) -> None:
    sqs = aws_client("sqs", moto_url)
    url = new_queue(sqs)

    def crash(event: Event) -> None:
        raise RuntimeError("timeout function failed")

    async def scenario() -> None:
        function = Function(crash)
        sqs.send_message(QueueUrl=url, MessageBody="{}")
        timers = Timers(sqs, url, function, poll_interval_s=0.05, sweep_interval_s=3600)
        timers.start()
        try:
            await function.next("sqs")
        finally:
            await timers.stop()

    run(scenario)
    assert counts(sqs, url) == (0, 1)
