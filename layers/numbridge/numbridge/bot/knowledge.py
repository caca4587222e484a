"""What the bot remembers between its calls: what public mistakes ruled out, and exchanges.

The view shows only the latest mistake (``last_mistake``); each ``mistake``
event says where a digit is *not*. The view does not show exchanges either:
the bot counts each side's exchanges in a row, so that it never fishes for
tiles turn after turn. The caller keeps one :class:`Knowledge`
per game and folds every frame it receives into it with :func:`observe`; a
stateless caller can rebuild it from the game's frames at any time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from numbridge.rules.seats import Seat, is_seat

Wrong = tuple[int, int, int]  # (r, c, digit): that digit is not right at [r, c]


@dataclass(frozen=True)
class Knowledge:
    game: str | None = None  # the game the frames came from (None: not yet known)
    wrong: frozenset[Wrong] = frozenset()
    blue_exchanges: int = 0  # exchanges in a row, up to the latest turn of that side
    red_exchanges: int = 0

    def exchanges_in_a_row(self, seat: Seat) -> int:
        return self.blue_exchanges if seat == "blue" else self.red_exchanges

    def ruled_out(self, size: int) -> set[tuple[int, int]]:
        """The (cell index, digit) pairs known to be wrong."""
        return {(r * size + c, d) for r, c, d in self.wrong if 0 <= r < size and 0 <= c < size}


def _mistake(data: Mapping[str, Any]) -> Wrong | None:
    cell, digit = data.get("cell"), data.get("digit")
    if not isinstance(cell, list | tuple) or len(cell) != 2 or not isinstance(digit, int):
        return None
    return int(cell[0]), int(cell[1]), digit


# Turns that claim a cell or lose a tile: the run of exchanges of that side ends.
_RUN_ENDS = frozenset({"placed", "mistake", "taken", "swapped"})


def _count_exchanges(knowledge: Knowledge, kind: object, seat: object) -> Knowledge:
    if not is_seat(seat) or (kind != "exchanged" and kind not in _RUN_ENDS):
        return knowledge
    run = knowledge.exchanges_in_a_row(seat) + 1 if kind == "exchanged" else 0
    if seat == "blue":
        return replace(knowledge, blue_exchanges=run)
    return replace(knowledge, red_exchanges=run)


def observe(knowledge: Knowledge, frame: Mapping[str, Any]) -> Knowledge:
    """Fold one server frame (a game event or a ``state``) into the knowledge."""
    game = frame.get("game")
    if knowledge.game is not None and game is not None and game != knowledge.game:
        return knowledge  # another game's frame
    if knowledge.game is None and isinstance(game, str):
        knowledge = replace(knowledge, game=game)
    kind = frame.get("type")
    knowledge = _count_exchanges(knowledge, kind, frame.get("seat"))
    found: Wrong | None = None
    if kind == "mistake":
        found = _mistake(frame)
    elif kind == "state":
        view = frame.get("view")
        if isinstance(view, Mapping) and isinstance(view.get("last_mistake"), Mapping):
            found = _mistake(view["last_mistake"])
    if found is None or found in knowledge.wrong:
        return knowledge
    return replace(knowledge, wrong=knowledge.wrong | {found})


def observe_all(knowledge: Knowledge, frames: Iterable[Mapping[str, Any]]) -> Knowledge:
    for frame in frames:
        knowledge = observe(knowledge, frame)
    return knowledge
