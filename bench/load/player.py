"""The load bench's player: the client of ``numbridge bot``, timed and checked.

It plays exactly as ``numbridge bot`` does (numbridge.botcli.client): it keeps
its view of each game from the frames pushed to it, and after each frame that
may make it owe something lets the brain (``numbridge.bot.decide``) choose from
that view and the events it has seen, and sends the answer; it asks for a view
(``sync``) only when events are missing or an action was refused (then decided
again on the fresh view). What the bench adds is only watching: when each
request left and its answer came, each event's ``v``, the brain's time; and,
for the runs where players think, a pause before each action.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

from numbridge.bot import Knowledge
from numbridge.botcli.client import BotClient, BotOptions

from .stats import Stats
from .stream import Arrival, Stream

Frame = dict[str, Any]

# Requests that only read; any other request of a player is an action.
READS = frozenset({"sync", "games", "proposals"})
# The bench's own actions to deal a game; the rest are the brain's.
DEALS = frozenset({"propose", "accept"})


@dataclass
class Window:
    """One run's shared clock: the players wait for ``go`` and stop acting at ``stop``."""

    think_s: float
    stats: Stats = field(default_factory=Stats)
    go: asyncio.Event = field(default_factory=asyncio.Event)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def measuring(self) -> bool:
        return self.go.is_set() and not self.stop.is_set()


class Player(BotClient):
    def __init__(self, options: BotOptions, rng: random.Random, window: Window) -> None:
        super().__init__(options, rng)
        self.window = window
        self.opponent: Player | None = None
        self.streams: dict[str, Stream] = {}
        self.ended = asyncio.Event()  # the latest game's `finished` came
        self.outstanding = 0  # requests sent and not yet answered
        self.last_frame_at = time.perf_counter()
        self._arrived: dict[str, float] = {}  # request id → when its answer came
        # (game, v) → when the opponent sent the action that v is the first event of
        self.expected: dict[tuple[str, int], float] = {}

    async def request(self, action: str, request_id: str | None = None,
                      **fields: Any) -> Frame:
        brains = action not in READS and action not in DEALS
        game = str(fields.get("game"))
        decided_on = self.games.get(game)
        # The action's first event, if it is applied: right after the view it was decided on.
        first_event = (game, (decided_on.v if decided_on else -1) + 1)
        if brains:
            await self._pause()
        sent = time.perf_counter()
        if brains and self.opponent is not None:
            self.opponent.expected.setdefault(first_event, sent)
        self.outstanding += 1
        try:
            answer = await super().request(action, request_id, **fields)
        finally:
            self.outstanding -= 1
        arrived = self._arrived.pop(str(answer.get("id")), time.perf_counter())
        refused = answer.get("type") == "error"
        if refused and brains and self.opponent is not None:
            self.opponent.expected.pop(first_event, None)
        if self.window.measuring:
            self._count(action, answer, refused, (arrived - sent) * 1000)
        return answer

    async def _pause(self) -> None:
        """Before the brain's action: the clock has started, the player has thought,
        and the run is not over (then the action waits until the client stops)."""
        window = self.window
        await window.go.wait()  # the first deals are made before the clock starts
        if window.think_s and not window.stop.is_set():
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * window.think_s)
        if window.stop.is_set():
            await asyncio.Event().wait()

    def _count(self, action: str, answer: Frame, refused: bool, ms: float) -> None:
        stats = self.window.stats
        stats.requests += 1
        if refused:
            stats.refused += 1
        elif action not in READS:
            stats.actions += 1
            if answer.get("type") == "ack":
                stats.ack_ms.append(ms)

    def choose(self, view: Frame, knowledge: Knowledge) -> Frame | None:
        started = time.perf_counter()
        frame = super().choose(view, knowledge)
        if frame is not None and self.window.measuring:
            self.window.stats.think_ms.append((time.perf_counter() - started) * 1000)
        return frame

    def on_frame(self, frame: Frame) -> None:
        now = self.last_frame_at = time.perf_counter()
        if frame.get("id") is not None:
            self._arrived[str(frame["id"])] = now
            return  # an answer (a sync's `state` too), not a pushed event
        game, kind, v = frame.get("game"), frame.get("type"), frame.get("v")
        if not isinstance(game, str) or not isinstance(v, int):
            return  # not a game's frame (presence)
        if kind == "state":  # a game dealt
            self.streams[game] = Stream(v)
            return
        stream = self.streams.get(game)
        if stream is None:
            return
        stats = self.window.stats
        arrival = stream.receive(v)
        if arrival is Arrival.DUPLICATE:
            stats.duplicated += 1
            return
        if arrival is Arrival.AHEAD:
            stats.out_of_order += 1
        sent = self.expected.pop((game, v), None)
        if sent is not None and self.window.measuring:
            stats.delivery_ms.append((now - sent) * 1000)
        if kind == "finished":
            self.ended.set()
