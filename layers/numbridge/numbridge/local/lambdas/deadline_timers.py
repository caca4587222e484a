"""The ``timeout`` function's two triggers, driven from the store.

- **Per-move deadlines**: the handlers' timer port (``schedule``, what SQS
  ``DelaySeconds`` is in AWS) arms an in-process timer; when it falls, the
  ``timeout`` function gets an SQS-shaped event with the same body as in AWS.
  At start every deadline in the store's deadline index is armed again, so a
  restart loses none.
- **The sweep**: an EventBridge "Scheduled Event" every minute (and once at
  start), the backstop for a timer that could not be delivered. The same loop
  runs the store's housekeeping (expired items, where the store has no TTL).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from numbridge.local.lambdas.aws_events import failed_message_ids, scheduled_event, sqs_event

log = logging.getLogger("numbridge.local")

Invoke = Callable[[dict[str, Any]], Awaitable[Any]]

SWEEP_INTERVAL_S = 60.0
RETRY_S = 5.0
QUEUE_URL = "https://sqs.us-east-1.amazonaws.com/123456789012/numbridge-timers"
QUEUE_ARN = "arn:aws:sqs:us-east-1:123456789012:numbridge-timers"


def timer_message(game_id: str, v: int, deadline_ms: int) -> dict[str, Any]:
    """A ``ReceiveMessage`` message as SQS would hand it over, body as in AWS."""
    body = json.dumps({"game": game_id, "v": v, "deadline_ms": deadline_ms})
    now_ms = str(int(time.time() * 1000))
    return {
        "MessageId": str(uuid.uuid4()),
        "ReceiptHandle": uuid.uuid4().hex,
        "Body": body,
        "MD5OfBody": hashlib.md5(body.encode()).hexdigest(),
        "Attributes": {"ApproximateReceiveCount": "1", "SentTimestamp": now_ms,
                       "SenderId": "numbridge-local",
                       "ApproximateFirstReceiveTimestamp": now_ms},
    }


class DeadlineTimers:
    """The timer port of the local runtime, and the sweep."""

    def __init__(
        self,
        invoke: Invoke,
        *,
        sweep_interval_s: float = SWEEP_INTERVAL_S,
        housekeeping: Callable[[], object] | None = None,
    ) -> None:
        self._invoke = invoke
        self._sweep_interval_s = sweep_interval_s
        self._housekeeping = housekeeping
        self._loop: asyncio.AbstractEventLoop | None = None
        self._armed: dict[str, tuple[int, asyncio.TimerHandle]] = {}
        self._running: set[asyncio.Task[None]] = set()
        self._stopping = asyncio.Event()
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ the port

    def schedule(self, game_id: str, v: int, deadline_ms: int, now_ms: int) -> None:
        """Called by the handlers, on their threads."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # not started or stopped: the sweep after the next start applies it
        loop.call_soon_threadsafe(self._arm, game_id, v, deadline_ms)

    # ------------------------------------------------------------ life

    def start(self, pending: Iterable[tuple[str, int, int]]) -> int:
        """Arm every (game, v, deadline) still pending and start the sweep; how many."""
        self._loop = asyncio.get_running_loop()
        count = 0
        for game_id, v, deadline_ms in pending:
            self._arm(game_id, v, deadline_ms)
            count += 1
        self._sweeper = asyncio.create_task(self._sweep_every())
        return count

    async def stop(self) -> None:
        """Disarm, and wait for the deliveries under way."""
        self._stopping.set()
        for _, handle in self._armed.values():
            handle.cancel()
        self._armed.clear()
        if self._sweeper is not None:
            await asyncio.gather(self._sweeper, return_exceptions=True)
        await asyncio.gather(*self._running, return_exceptions=True)
        self._loop = None

    @property
    def armed(self) -> dict[str, int]:
        """Game → the version its armed timer is for."""
        return {game: v for game, (v, _) in self._armed.items()}

    # ------------------------------------------------------------ timers

    def _arm(self, game_id: str, v: int, deadline_ms: int) -> None:
        if self._stopping.is_set():
            return
        current = self._armed.get(game_id)
        if current is not None:
            if current[0] > v:
                return  # a timer for a newer version is armed already
            current[1].cancel()
        assert self._loop is not None
        delay_s = max(0.0, deadline_ms / 1000 - time.time())
        handle = self._loop.call_later(delay_s, self._fire, game_id, v, deadline_ms)
        self._armed[game_id] = (v, handle)

    def _fire(self, game_id: str, v: int, deadline_ms: int) -> None:
        if self._armed.get(game_id, (None,))[0] == v:
            del self._armed[game_id]
        self._spawn(self._deliver(game_id, v, deadline_ms))

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _deliver(self, game_id: str, v: int, deadline_ms: int) -> None:
        message = timer_message(game_id, v, deadline_ms)
        try:
            response = await self._invoke(sqs_event([message], QUEUE_ARN))
            failed = bool(failed_message_ids(response))
        except Exception:
            failed = True  # the invoker has logged it
        if failed and not self._stopping.is_set():
            # SQS would deliver it again after its visibility timeout.
            log.warning("timer for %s v%d failed; again in %.0f s", game_id, v, RETRY_S)
            assert self._loop is not None
            handle = self._loop.call_later(RETRY_S, self._fire, game_id, v, deadline_ms)
            self._armed.setdefault(game_id, (v, handle))

    # ------------------------------------------------------------ the sweep

    async def sweep(self) -> None:
        with contextlib.suppress(Exception):  # the invoker has logged it
            await self._invoke(scheduled_event())
        if self._housekeeping is not None:
            try:
                await asyncio.get_running_loop().run_in_executor(None, self._housekeeping)
            except Exception:
                log.exception("housekeeping failed")

    async def _sweep_every(self) -> None:
        while not self._stopping.is_set():
            await self.sweep()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), self._sweep_interval_s)
