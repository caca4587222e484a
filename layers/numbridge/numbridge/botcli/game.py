"""One game as the bot client follows it: its view kept from the frames pushed, in ``v`` order.

Pushes of two handlers may cross on the way, and the same ``v`` can come twice
after a ``sync``: an event ahead of a gap waits until the gap is filled, a
repeat is dropped. The view (``numbridge.bot.tracking``) is None until a
``state`` frame gives one, and again after a frame it could not apply or a
refused action: then the client asks for a fresh one.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any

from numbridge.bot import Knowledge, observe
from numbridge.bot.tracking import NeedsSync, apply_event, tracked_view

log = logging.getLogger("numbridge.bot")

Frame = dict[str, Any]


@dataclass
class Game:
    knowledge: Knowledge = field(default_factory=Knowledge)
    view: Frame | None = None
    ahead: dict[int, Frame] = field(default_factory=dict)  # v → an event not applied yet
    in_order: asyncio.Event = field(default_factory=asyncio.Event)  # a view and no gap
    seat: str | None = None  # ours, once a view said it
    busy: bool = False
    again: bool = False
    accepted_v: int = -1  # the v of the view whose action was acknowledged
    refused_v: int = -1  # the v of the latest refused action
    refusals: int = 0  # how many were refused at that v

    @property
    def v(self) -> int:
        """The version the view is at (0 without one)."""
        return int(self.view["v"]) if self.view is not None else 0

    @property
    def behind(self) -> bool:
        """No view, or events missing before those that came: a sync is due."""
        return self.view is None or bool(self.ahead)

    def take_state(self, frame: Frame) -> None:
        """A ``state`` frame (a deal or a sync's answer): the view, unless it is older."""
        self.knowledge = observe(self.knowledge, frame)
        self.seat = frame["view"].get("you")
        if self.view is not None and frame["v"] < self.view["v"]:
            return
        self.view = tracked_view(frame)
        self.ahead = {v: f for v, f in self.ahead.items() if v > frame["v"]}
        self._apply_ahead()

    def take_event(self, frame: Frame) -> bool:
        """An event frame; False for a repeat (it changes nothing)."""
        v = frame["v"]
        if v in self.ahead or (self.view is not None and v <= self.view["v"]):
            return False
        self.knowledge = observe(self.knowledge, frame)
        self.ahead[v] = frame
        self._apply_ahead()
        return True

    def forget_view(self) -> None:
        self.view = None
        self.in_order.clear()

    def _apply_ahead(self) -> None:
        while self.view is not None and self.view["v"] + 1 in self.ahead:
            frame = self.ahead.pop(self.view["v"] + 1)
            try:
                self.view = apply_event(self.view, frame)
            except NeedsSync as exc:
                log.warning("%s: %s (a sync follows)", frame.get("game"), exc)
                self.view = None
        if self.behind:
            self.in_order.clear()
        else:
            self.in_order.set()
