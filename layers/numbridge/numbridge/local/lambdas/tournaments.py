"""The tournament queue of the local runtime: the ``tournament`` function driven as AWS
would drive it.

The handlers' step port (``send``) queues a message in-process; after its delay (to the
millisecond here: SQS's cap of 15 minutes does not apply, and a timer is never sent
again for the rest of its wait) the ``tournament`` function gets the same SQS-shaped
event as in AWS. A failed delivery is tried again after a few seconds, a few times (the
queue's redrive policy), then dropped with a log line: the sweep steps every tournament
due.

The sweep runs every :data:`SWEEP_INTERVAL_S` (a schedule event to the same function):
a tournament made by ``numbridge tournament create`` while the server runs — another
process, writing the same data directory — starts on time, found by the sweep's query
of the upcoming tournaments due to start. Steps held in memory when the server stopped
are made good by the sweep after its start.
"""

from __future__ import annotations

import asyncio
import contextlib

from numbridge.local.lambdas.aws_events import scheduled_event
from numbridge.local.lambdas.bots import Invoke, LocalBotTurns
from numbridge.service.aws.sqs_tournaments import step_body

QUEUE_ARN = "arn:aws:sqs:us-east-1:123456789012:numbridge-tournaments"
SWEEP_INTERVAL_S = 2.0
SWEEP_RULE = "numbridge-tournament-sweep"
RECONNECT_GRACE_S = 5.0


class LocalTournamentSteps(LocalBotTurns):
    """The tournament-step port of the local runtime, and its sweep."""

    queue_arn = QUEUE_ARN

    def __init__(self, invoke: Invoke, *, sweep_interval_s: float = SWEEP_INTERVAL_S) -> None:
        super().__init__(invoke)
        self._sweep_interval_s = sweep_interval_s
        self._sweeper: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()

    def send(self, tournament_id: str, delay_ms: int, *,  # type: ignore[override]
             game: str | None = None, due_ms: int | None = None,
             roster: bool = False) -> None:
        """Called by the handlers, on their threads."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # not started or stopped: the sweep takes it
        body = step_body(tournament_id, game, due_ms, roster)
        loop.call_soon_threadsafe(self._later, max(0, delay_ms) / 1000, body, 1)

    def start(self) -> None:
        super().start()
        self._sweeper = asyncio.ensure_future(self._sweep_every())

    async def stop(self) -> None:
        self._stop.set()
        if self._sweeper is not None:
            await asyncio.gather(self._sweeper, return_exceptions=True)
        await super().stop()

    async def _sweep_every(self) -> None:
        # The first sweep waits for the clients to connect again after a restart: a
        # Swiss round paired at once would find its players absent and withdraw them.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stop.wait(), RECONNECT_GRACE_S)
        while not self._stop.is_set():
            with contextlib.suppress(Exception):  # the invoker has logged it
                await self._invoke(scheduled_event(SWEEP_RULE))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self._sweep_interval_s)
