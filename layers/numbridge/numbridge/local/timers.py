"""The ``timeout`` function's two triggers, driven as AWS drives them.

- the SQS event source mapping: poll the timer queue (moto honours
  ``DelaySeconds``), hand batches to the function as SQS events, delete what
  it did not report in ``batchItemFailures``;
- the ``rate(1 minute)`` schedule: an EventBridge "Scheduled Event" every
  minute, and once at start (timers sent before a restart are lost with moto's
  memory: the sweep recovers them).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

from numbridge.local.aws_events import (
    failed_message_ids,
    queue_arn,
    scheduled_event,
    sqs_event,
)

log = logging.getLogger("numbridge.local")

Invoke = Callable[[dict[str, Any]], Awaitable[Any]]

POLL_INTERVAL_S = 0.25
SWEEP_INTERVAL_S = 60.0
BATCH_SIZE = 10


class Timers:
    """Delivers timer messages and sweeps to ``invoke`` (the ``timeout`` function)."""

    def __init__(
        self,
        sqs: Any,
        queue_url: str,
        invoke: Invoke,
        *,
        poll_interval_s: float = POLL_INTERVAL_S,
        sweep_interval_s: float = SWEEP_INTERVAL_S,
    ) -> None:
        self._sqs = sqs
        self._queue_url = queue_url
        self._arn = queue_arn(queue_url)
        self._invoke = invoke
        self._poll_interval_s = poll_interval_s
        self._sweep_interval_s = sweep_interval_s
        self._stopping = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._every(self._poll_interval_s, self.poll)),
            asyncio.create_task(self._every(self._sweep_interval_s, self.sweep)),
        ]

    async def stop(self) -> None:
        """Stop after the deliveries under way."""
        self._stopping.set()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _every(self, interval_s: float, action: Callable[[], Awaitable[object]]) -> None:
        while not self._stopping.is_set():
            try:
                busy = await action()
            except Exception:
                log.exception("timer delivery failed")
                busy = False
            if busy:
                continue  # a full batch: there may be more at once
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), interval_s)

    async def _call(self, method: Callable[..., Any], **kwargs: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(None, partial(method, **kwargs))

    async def poll(self) -> bool:
        """Deliver one batch of due timer messages; whether the batch was full."""
        received = await self._call(
            self._sqs.receive_message,
            QueueUrl=self._queue_url,
            MaxNumberOfMessages=BATCH_SIZE,
            WaitTimeSeconds=0,
            MessageSystemAttributeNames=["All"],
            MessageAttributeNames=["All"],
        )
        messages = received.get("Messages", [])
        if not messages:
            return False
        try:
            response = await self._invoke(sqs_event(messages, self._arn))
        except Exception:
            return False  # the whole batch comes back after its visibility timeout
        failed = failed_message_ids(response)
        done = [m for m in messages if m["MessageId"] not in failed]
        if done:
            await self._call(
                self._sqs.delete_message_batch,
                QueueUrl=self._queue_url,
                Entries=[
                    {"Id": str(i), "ReceiptHandle": m["ReceiptHandle"]} for i, m in enumerate(done)
                ],
            )
        return len(messages) == BATCH_SIZE

    async def sweep(self) -> bool:
        """One scheduled sweep."""
        with contextlib.suppress(Exception):  # the invoker has logged it
            await self._invoke(scheduled_event())
        return False
