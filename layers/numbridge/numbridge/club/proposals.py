"""What a game proposal chooses (RULES.md §8), and who sits where.

:class:`ProposalChoices` is the shape of the choices only — types and allowed
values. Whether they fit a room (clue range, block kinds, highlighting, the
variant) is :meth:`numbridge.club.rooms.Room.game_options`, which raises
:class:`ProposalRejected`.

The ``propose`` frame is these choices plus a room (``numbridge.protocol``
checks their types); a :class:`ProposalRejected` is well-formed but outside
the room's limits.
"""

from __future__ import annotations

import random
from typing import Annotated, Literal, TypedDict

from numbridge.rules.seats import BLOCK_KINDS, SEATS, VARIANTS, BlockKind, Grade, Seat, Variant

# The rules engine's vocabulary, re-exported for the club's callers.
from numbridge.values import frozen

__all__ = [
    "BLOCK_KINDS",
    "SEATS",
    "VARIANTS",
    "BlockKind",
    "Colour",
    "ProposalChoices",
    "ProposalDoc",
    "ProposalRejected",
    "Seat",
    "Variant",
    "seat_players",
]

Colour = Literal["blue", "red", "random"]


class _ProposalFields(TypedDict):
    """The fields every proposal has."""

    id: str
    room: str
    by: str
    variant: Variant
    blocks: BlockKind
    clues: int
    highlighting: bool
    rated: bool
    colour: Colour
    created_ms: int


# NotRequired is not read from a string annotation by Python 3.11: optional by total=False.
class ProposalDoc(_ProposalFields, total=False):
    """An open proposal, as stored and as the clients see it."""

    to: str
    """a challenge: the one player who sees it and may accept it (listed to them only)"""
    grade: Grade
    """the grade the proposal asked its board to be (absent: any of the room's grades)"""


class ProposalRejected(ValueError):
    """A well-formed proposal (or acceptance) that the room or the club refuses."""


@frozen(kw_only=True)
class ProposalChoices:
    """The choices of a ``propose`` frame (RULES.md §8), room limits not yet applied.

    - ``blocks``: regular or irregular (default regular);
    - ``clues``: cells open at the deal; ``None`` = the room's default;
    - ``highlighting``: candidate highlighting; ``None`` = on if the room allows it;
    - ``rated``: default true;
    - ``colour``: the proposer's seat: blue (moves first), red or random (default);
    - ``variant``: required only in a room that offers several;
    - ``grade``: the board's grade, one of the room's grades; ``None`` = any of them.
    """

    blocks: BlockKind = "regular"
    clues: Annotated[int | None, "default: the room's default"] = None
    highlighting: Annotated[bool | None, "default: what the room allows"] = None
    rated: bool = True
    colour: Colour = "random"
    variant: Annotated[Variant | None, "only where the room offers several"] = None
    grade: Annotated[Grade | None, (
        "the board's grade (docs/coach.md), one of the room's `grades`; "
        "default: any of them")] = None


def seat_players(
    proposer: str, acceptor: str, colour: Colour, rng: random.Random
) -> dict[Seat, str]:
    """Seat the two players: ``colour`` is the proposer's choice (blue moves first).

    ``random`` draws one value from ``rng`` (inject a seeded one in tests).
    Refuses a player accepting their own proposal.
    """
    if proposer == acceptor:
        raise ProposalRejected("you cannot accept your own proposal")
    if colour == "random":
        colour = rng.choice(SEATS)
    if colour == "blue":
        return {"blue": proposer, "red": acceptor}
    if colour == "red":
        return {"blue": acceptor, "red": proposer}
    raise ProposalRejected(f"colour must be blue, red or random, not {colour!r}")
