"""The lobby queue of the local runtime: the ``fanout`` function driven as AWS would
drive it (docs/lobby-push.md).

The handlers' lobby port (``publish``, ``later``) queues a message in-process; the
first message of a batch opens a window of ``window_s`` (the event source mapping's
``MaximumBatchingWindowInSeconds`` in ``template.yaml``), and when it closes the
``fanout`` function gets every message of the window (at most ``batch_size``) as one
SQS-shaped event. A message for later waits its delay to the millisecond (SQS rounds
up to whole seconds). A failed delivery is logged and dropped: the next change, or a
subscriber's next page, brings the lobby up to date.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from numbridge.local.lambdas.aws_events import sqs_event, sqs_message

log = logging.getLogger("numbridge.local")

Invoke = Callable[[dict[str, Any]], Awaitable[Any]]

QUEUE_ARN = "arn:aws:sqs:us-east-1:123456789012:numbridge-lobby"
WINDOW_S = 1.0
BATCH_SIZE = 100


class LocalLobbyFeed:
    """The lobby port of the local runtime."""

    def __init__(self, invoke: Invoke, *, window_s: float = WINDOW_S,
                 batch_size: int = BATCH_SIZE) -> None:
        self._invoke = invoke
        self._window_s = window_s
        self._batch_size = batch_size
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pending: list[dict[str, Any]] = []
        self._window: asyncio.TimerHandle | None = None
        self._later: set[asyncio.TimerHandle] = set()
        self._running: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.batches = 0

    # ------------------------------------------------------------ the port

    def publish(self, message: Mapping[str, Any]) -> None:
        """Called by the handlers, on their threads."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        loop.call_soon_threadsafe(self._add, dict(message))

    def later(self, messages: Sequence[tuple[int, Mapping[str, Any]]]) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        for delay_ms, message in messages:
            loop.call_soon_threadsafe(self._add_later, max(0, delay_ms) / 1000, dict(message))

    # ------------------------------------------------------------ life

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()

    async def stop(self) -> None:
        self._stopping = True
        for handle in [*self._later, *([self._window] if self._window else [])]:
            handle.cancel()
        self._later.clear()
        await asyncio.gather(*self._running, return_exceptions=True)
        self._loop = None

    # ------------------------------------------------------------ batches

    def _add_later(self, delay_s: float, message: dict[str, Any]) -> None:
        if self._stopping or self._loop is None:
            return
        handle: asyncio.TimerHandle | None = None

        def due() -> None:
            assert handle is not None
            self._later.discard(handle)
            self._add(message)

        handle = self._loop.call_later(delay_s, due)
        self._later.add(handle)

    def _add(self, message: dict[str, Any]) -> None:
        if self._stopping or self._loop is None:
            return
        self._pending.append(message)
        if self._window is None:
            self._window = self._loop.call_later(self._window_s, self._flush)

    def _flush(self) -> None:
        self._window = None
        batch, self._pending = (self._pending[:self._batch_size],
                                self._pending[self._batch_size:])
        if self._pending and self._loop is not None:  # a full batch: the rest at once
            self._window = self._loop.call_later(0, self._flush)
        if not batch:
            return
        self.batches += 1
        task = asyncio.ensure_future(self._deliver(batch))
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _deliver(self, batch: list[dict[str, Any]]) -> None:
        try:
            await self._invoke(sqs_event([sqs_message(body, 1) for body in batch], QUEUE_ARN))
        except Exception:
            log.warning("lobby batch of %d messages failed; dropped", len(batch))
