"""Events and transitions: what one call of the engine produced.

Every event carries the game version ``v`` it brings the game to; ``v`` rises
by exactly 1 per event. ``to`` is None for every viewer, or the one seat that
may see it (other viewers get a ``hidden`` placeholder from the service).
See the package docstring for the kinds and their fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .seats import Seat

if TYPE_CHECKING:
    from .state import GameState


@dataclass(frozen=True)
class Event:
    v: int
    kind: str
    data: Mapping[str, Any]  # JSON-able; cells are [r, c] lists
    to: Seat | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"v": self.v, "kind": self.kind, "data": dict(self.data), "to": self.to}


@dataclass(frozen=True)
class Transition:
    """The new state and the events that led to it (in order)."""

    state: GameState
    events: tuple[Event, ...] = ()
