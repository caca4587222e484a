"""The bot queue of the local runtime: the ``bot`` function driven as AWS would drive it.

The handlers' bot-turn port (``send``) queues a message in-process; after the
bot's pause (``BOT_DELAY_MS``, to the millisecond here) the ``bot`` function
gets the same SQS-shaped event as in AWS. A failed delivery is tried again
after a visibility timeout, up to the receive count of ``template.yaml``'s
redrive policy, then dropped with a log line (SQS's dead-letter queue).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from numbridge.local.lambdas.aws_events import failed_message_ids, sqs_event, sqs_message
from numbridge.service.aws.sqs_bot_turns import DEFAULT_DELAY_MS

log = logging.getLogger("numbridge.local")

Invoke = Callable[[dict[str, Any]], Awaitable[Any]]

QUEUE_ARN = "arn:aws:sqs:us-east-1:123456789012:numbridge-bots"
RETRY_S = 2.0
MAX_RECEIVES = 3


class LocalBotTurns:
    """The bot-turn port of the local runtime."""

    queue_arn = QUEUE_ARN

    def __init__(self, invoke: Invoke, *, delay_ms: int = DEFAULT_DELAY_MS,
                 retry_s: float = RETRY_S, max_receives: int = MAX_RECEIVES) -> None:
        self._invoke = invoke
        self._delay_s = delay_ms / 1000
        self._retry_s = retry_s
        self._max_receives = max_receives
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: set[asyncio.TimerHandle] = set()
        self._running: set[asyncio.Task[None]] = set()
        self._stopping = False
        self.dead_lettered: list[dict[str, Any]] = []

    # ------------------------------------------------------------ the port

    def send(self, game_id: str, seat: str, v: int) -> None:
        """Called by the handlers, on their threads."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # not started or stopped: the watchdog timer sends it again
        body = {"game": game_id, "seat": seat, "v": v}
        loop.call_soon_threadsafe(self._later, self._delay_s, body, 1)

    # ------------------------------------------------------------ life

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()

    async def stop(self) -> None:
        self._stopping = True
        for handle in self._waiting:
            handle.cancel()
        self._waiting.clear()
        await asyncio.gather(*self._running, return_exceptions=True)
        self._loop = None

    # ------------------------------------------------------------ deliveries

    def _later(self, delay_s: float, body: dict[str, Any], receives: int) -> None:
        if self._stopping or self._loop is None:
            return
        handle: asyncio.TimerHandle | None = None

        def fire() -> None:
            assert handle is not None
            self._waiting.discard(handle)
            task = asyncio.ensure_future(self._deliver(body, receives))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

        handle = self._loop.call_later(delay_s, fire)
        self._waiting.add(handle)

    async def _deliver(self, body: dict[str, Any], receives: int) -> None:
        try:
            response = await self._invoke(sqs_event([sqs_message(body, receives)], self.queue_arn))
            failed = bool(failed_message_ids(response))
        except Exception:
            failed = True  # the invoker has logged it
        if not failed or self._stopping:
            return
        if receives >= self._max_receives:
            log.error("bot turn %s failed %d times: dead-lettered", body, receives)
            self.dead_lettered.append(body)
            return
        log.warning("bot turn %s failed; again in %.0f s", body, self._retry_s)
        self._later(self._retry_s, body, receives + 1)
