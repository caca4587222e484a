"""Counts per seat and per block owner, as events and views carry them."""

from __future__ import annotations

from collections.abc import Callable

from numbridge.values import frozen

from .seats import Seat


@frozen
class SeatCounts:
    """A count for each seat."""

    blue: int
    red: int

    @classmethod
    def of(cls, count: Callable[[Seat], int]) -> SeatCounts:
        return cls(blue=count("blue"), red=count("red"))


@frozen
class SeatClocks:
    """Each seat's remaining game time in ms (null: no game clock)."""

    blue: int | None
    red: int | None

    @classmethod
    def of(cls, clock: Callable[[Seat], int | None]) -> SeatClocks:
        return cls(blue=clock("blue"), red=clock("red"))


@frozen
class BlockCounts:
    """Domains: how many blocks each seat holds, and how many nobody does yet."""

    blue: int
    red: int
    undecided: int
