"""One game's events as one player received them: duplicates, arrivals ahead, gaps.

Pushes of two handlers may cross on the way, so a client applies events by
``v``: one that comes before its predecessor is ahead (not an error), a ``v``
seen twice is a duplicate, and a ``v`` that never came is lost.
"""

from __future__ import annotations

from enum import Enum


class Arrival(Enum):
    NEXT = "next"
    AHEAD = "ahead"
    DUPLICATE = "duplicate"


class Stream:
    def __init__(self, base: int) -> None:
        self.base = base  # the v of the game's `state` frame: its view holds what came before
        self.top = base  # the highest v received
        self._seen: set[int] = set()
        self._next = base + 1  # the first v not yet received in order

    def receive(self, v: int) -> Arrival:
        if v <= self.base or v in self._seen:
            return Arrival.DUPLICATE
        self._seen.add(v)
        self.top = max(self.top, v)
        arrival = Arrival.NEXT if v == self._next else Arrival.AHEAD
        while self._next in self._seen:
            self._next += 1
        return arrival

    def missing(self, top: int) -> int:
        """The events up to ``top`` that never came."""
        return sum(1 for v in range(self.base + 1, top + 1) if v not in self._seen)


def lost(streams: list[Stream | None]) -> int:
    """Events of one game some of its players never got: every player gets every v
    (``hidden`` stands in for what a player may not see), up to the highest any got."""
    known = [s for s in streams if s is not None]
    if not known:
        return 0
    top = max(s.top for s in known)
    base = min(s.base for s in known)
    return sum(s.missing(top) if s is not None else top - base for s in streams)
