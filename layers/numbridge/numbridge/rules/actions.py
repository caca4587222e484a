"""The actions a player can send: the one definition of each, as a small frozen value.

An action's class is its whole definition: ``name`` is its protocol name, its
fields (with their types) are the frame's fields — ``numbridge.protocol``
reads them to check frames and write the schema — and the function that
applies it is registered with :func:`on_turn` (it needs the player to be on
move) or :func:`any_time` (it may be sent whenever the game allows it), next
to the rule it implements. The docstring is the protocol's summary.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, TypeVar, get_args

from numbridge.values import frozen

from .errors import IllegalAction, MalformedAction
from .geometry import index_of, on_board

if TYPE_CHECKING:
    from .draft import Draft
    from .seats import Seat


@frozen
class Place:
    """Place a tile of your hand on an empty cell: the right digit makes the cell
    yours, a wrong one is a public mistake."""

    name: ClassVar[str] = "place"
    cell: tuple[int, int]
    digit: int


@frozen
class Take:
    """Take a clue cell for the room's price in tiles (free with an empty hand)."""

    name: ClassVar[str] = "take"
    cell: tuple[int, int]
    digit: Annotated[int | None, "the tile paid (at price 2 the game picks the second); "
                                 "omitted with an empty hand"] = None


@frozen
class Exchange:
    """Put your whole hand into the bag and draw a new one (your move)."""

    name: ClassVar[str] = "exchange"


@frozen
class Swap:
    """Pie rule: as red, on your first move, take over blue's first cell."""

    name: ClassVar[str] = "swap"


@frozen
class Resign:
    """Give up the game: the opponent wins."""

    name: ClassVar[str] = "resign"


@frozen
class OfferDraw:
    """Offer a draw (offering back accepts the opponent's offer)."""

    name: ClassVar[str] = "offer_draw"


@frozen
class AcceptDraw:
    """Accept the opponent's draw offer: the game ends drawn."""

    name: ClassVar[str] = "accept_draw"


@frozen
class DeclineDraw:
    """Decline the opponent's draw offer (the offerer is told)."""

    name: ClassVar[str] = "decline_draw"


@frozen
class OfferAdjourn:
    """Offer to adjourn: the clocks stop once the opponent accepts."""

    name: ClassVar[str] = "offer_adjourn"


@frozen
class AcceptAdjourn:
    """Accept the opponent's adjournment offer: the clocks stop."""

    name: ClassVar[str] = "accept_adjourn"


@frozen
class Resume:
    """Ask to resume an adjourned game; play goes on when both have asked."""

    name: ClassVar[str] = "resume"


@frozen
class Abort:
    """End a game before each player has made a first move: no winner, unrated."""

    name: ClassVar[str] = "abort"


Action = (
    Place | Take | Exchange | Swap | Resign | OfferDraw | AcceptDraw | DeclineDraw
    | OfferAdjourn | AcceptAdjourn | Resume | Abort
)
ACTION_TYPES: tuple[type[Action], ...] = get_args(Action)

# --- what applies each action (filled by the modules that hold the rules) ------------

TurnHandler = Callable[["Draft", "Seat", Any, int, random.Random], None]
AnyTimeHandler = Callable[["Draft", "Seat", Any, int], None]
TURN_HANDLERS: dict[type[Action], TurnHandler] = {}
ANY_TIME_HANDLERS: dict[type[Action], AnyTimeHandler] = {}
H = TypeVar("H")


def on_turn(kind: type[Action]) -> Callable[[H], H]:
    """Register the rule of an action only the player to move may send."""
    def register(handler: H) -> H:
        TURN_HANDLERS[kind] = handler  # type: ignore[assignment]
        return handler
    return register


def any_time(kind: type[Action]) -> Callable[[H], H]:
    """Register the rule of an action either player may send whenever the game allows it."""
    def register(handler: H) -> H:
        ANY_TIME_HANDLERS[kind] = handler  # type: ignore[assignment]
        return handler
    return register


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
