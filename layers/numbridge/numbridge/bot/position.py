"""A player's view (PROTOCOL.md's VIEW, as ``rules.player_view`` makes it), read into typed fields.

This is all the brain ever sees of a game: the public board, its own hand,
the public counters. Never the solution, the bag's contents or the other hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from numbridge.rules.geometry import index_of
from numbridge.rules.seats import Seat, Variant, is_seat, is_variant, other

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "strong")

FREE = "."


def _seat_or_none(value: object) -> Seat | None:
    return value if is_seat(value) else None


@dataclass(frozen=True)
class Position:
    game: str
    variant: Variant
    size: int
    blocks: str  # block id per cell
    digits: str  # digit or '.' per cell
    owners: str  # 'b', 'r' or '.' per cell
    clues: str  # '1' where the cell was a given
    me: Seat
    hand: tuple[int, ...]
    bag: int
    turn: Seat | None
    status: str
    moves_left_in_pair: int
    swap_available: bool
    take_price: int
    draw_offer: Seat | None
    adjourn_offer: Seat | None
    resume_requested: tuple[Seat, ...]
    my_clock_ms: int | None
    their_clock_ms: int | None
    move_ms: int
    last_mistake: tuple[int, int] | None  # (cell index, digit)

    @property
    def them(self) -> Seat:
        return other(self.me)

    @property
    def my_move(self) -> bool:
        return self.status == "playing" and self.turn == self.me

    @property
    def cells(self) -> int:
        return self.size * self.size

    def free_clues(self) -> list[int]:
        """Clue cells nobody has taken yet."""
        return [
            i for i, (c, o) in enumerate(zip(self.clues, self.owners, strict=True))
            if c == "1" and o == FREE
        ]

    def empty_cells(self) -> list[int]:
        return [i for i, d in enumerate(self.digits) if d == "."]

    def can_take(self) -> bool:
        """Whether a take can be paid: free with an empty hand, else the price in tiles."""
        return not self.hand or len(self.hand) >= self.take_price


def _cell_index(value: Any, size: int) -> int:
    r, c = value
    return index_of(int(r), int(c), size)


def read_view(view: Mapping[str, Any]) -> Position:
    """The position of the player whose view this is; ValueError for a spectator's view."""
    me = view.get("you")
    if not is_seat(me) or "hand" not in view:
        raise ValueError("the bot needs a player's view (with `you` and `hand`)")
    variant = view["variant"]
    if not is_variant(variant):
        raise ValueError(f"unknown variant {variant!r}")
    size = int(view["size"])
    players = view["players"]
    mistake = view.get("last_mistake")
    options = view["options"]
    offers = view.get("offers") or {}
    return Position(
        game=str(view["game"]),
        variant=variant,
        size=size,
        blocks=str(view["blocks"]),
        digits=str(view["digits"]),
        owners=str(view["owners"]),
        clues=str(view["clues"]),
        me=me,
        hand=tuple(int(t) for t in view["hand"]),
        bag=int(view["bag"]),
        turn=_seat_or_none(view.get("turn")),
        status=str(view["status"]),
        moves_left_in_pair=int(view.get("moves_left_in_pair", 1)),
        swap_available=bool(view.get("swap_available", False)),
        take_price=int(options["take_price"]),
        draw_offer=_seat_or_none(offers.get("draw")),
        adjourn_offer=_seat_or_none(offers.get("adjourn")),
        resume_requested=tuple(
            s for s in view.get("resume_requested", ()) if is_seat(s)
        ),
        my_clock_ms=players[me].get("clock_ms"),
        their_clock_ms=players[other(me)].get("clock_ms"),
        move_ms=int(options["move_ms"]),
        last_mistake=None
        if mistake is None
        else (_cell_index(mistake["cell"], size), int(mistake["digit"])),
    )
