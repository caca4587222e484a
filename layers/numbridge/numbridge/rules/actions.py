"""The actions a player can send, as small frozen values, and their structural checks.

Turn actions (place, take, exchange, swap) need the player to be on move;
club actions (resign, draws, adjournment, resume, abort) can be sent at any time the
game allows them. ``name`` is the protocol's action name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from .errors import IllegalAction, MalformedAction
from .geometry import index_of, on_board


@dataclass(frozen=True)
class Place:
    name: ClassVar[str] = "place"
    cell: tuple[int, int]
    digit: int


@dataclass(frozen=True)
class Take:
    name: ClassVar[str] = "take"
    cell: tuple[int, int]
    digit: int | None = None


@dataclass(frozen=True)
class Exchange:
    name: ClassVar[str] = "exchange"


@dataclass(frozen=True)
class Swap:
    name: ClassVar[str] = "swap"


@dataclass(frozen=True)
class Resign:
    name: ClassVar[str] = "resign"


@dataclass(frozen=True)
class OfferDraw:
    name: ClassVar[str] = "offer_draw"


@dataclass(frozen=True)
class AcceptDraw:
    name: ClassVar[str] = "accept_draw"


@dataclass(frozen=True)
class DeclineDraw:
    name: ClassVar[str] = "decline_draw"


@dataclass(frozen=True)
class OfferAdjourn:
    name: ClassVar[str] = "offer_adjourn"


@dataclass(frozen=True)
class AcceptAdjourn:
    name: ClassVar[str] = "accept_adjourn"


@dataclass(frozen=True)
class Resume:
    name: ClassVar[str] = "resume"


@dataclass(frozen=True)
class Abort:
    name: ClassVar[str] = "abort"


Action = (
    Place
    | Take
    | Exchange
    | Swap
    | Resign
    | OfferDraw
    | AcceptDraw
    | DeclineDraw
    | OfferAdjourn
    | AcceptAdjourn
    | Resume
    | Abort
)
ACTION_TYPES: tuple[type, ...] = (
    Place,
    Take,
    Exchange,
    Swap,
    Resign,
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    OfferAdjourn,
    AcceptAdjourn,
    Resume,
    Abort,
)


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: Any) -> str:
    if isinstance(value, tuple | list) and all(is_int(v) for v in value):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return repr(value)


def describe(action: object) -> str:
    """How an error message names the action, e.g. ``place [3, 4] 7``."""
    if isinstance(action, Place):
        return f"place {_show(action.cell)} {_show(action.digit)}"
    if isinstance(action, Take):
        if action.digit is None:
            return f"take {_show(action.cell)}"
        return f"take {_show(action.cell)} {_show(action.digit)}"
    if isinstance(action, ACTION_TYPES):
        return str(getattr(action, "name", type(action).__name__))
    return f"action {action!r}"


def check_structure(action: object) -> None:
    """Raise :class:`MalformedAction` unless it is one of our actions with well-typed fields."""
    if not isinstance(action, ACTION_TYPES):
        raise MalformedAction(f"{describe(action)}: not an action")
    if isinstance(action, Place | Take):
        cell = action.cell
        if not isinstance(cell, tuple | list) or len(cell) != 2 or not all(is_int(v) for v in cell):
            raise MalformedAction(f"{describe(action)}: a cell is a pair [r, c] of integers")
        digit = action.digit
        if isinstance(action, Place) and not is_int(digit):
            raise MalformedAction(f"{describe(action)}: the digit must be an integer")
        if isinstance(action, Take) and digit is not None and not is_int(digit):
            raise MalformedAction(f"{describe(action)}: the digit must be an integer or omitted")


def cell_index(action: Place | Take, size: int) -> int:
    """The board index of the action's cell; :class:`IllegalAction` if it is off the board."""
    r, c = action.cell
    if not on_board(r, c, size):
        raise IllegalAction(f"{describe(action)}: cell [{r}, {c}] is off the {size}x{size} board")
    return index_of(r, c, size)
