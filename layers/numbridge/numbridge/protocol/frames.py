"""Server → client frames, as pydantic models.

They document every answer (``numbridge.protocol.asyncapi``), and ``validate_frame``
checks, in the tests, every frame the handlers post. The frames are rendered
without them (:mod:`.render`, and the service's answers); the view is the rules'
dataclass (:mod:`numbridge.rules.view_types`), events are :mod:`.event_frames`.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal, Union, get_type_hints

from pydantic import BaseModel, Field, TypeAdapter, create_model

from numbridge.protocol.errors import ErrorCode
from numbridge.protocol.event_frames import EVENT_TYPES, EVENTS
from numbridge.protocol.schemas import Strict
from numbridge.rules.seats import BlockKind, Seat, Status, Variant
from numbridge.rules.state import Result
from numbridge.rules.view_types import View
from numbridge.store.club import ProposalDoc

CellOut = tuple[int, int]


class Ack(Strict):
    type: Literal["ack"] = "ack"
    id: str


class Error(Strict):
    type: Literal["error"] = "error"
    id: str | None = Field(description="the request's id; null if the frame had none")
    code: ErrorCode
    message: str
    retry_after_ms: int | None = Field(
        None, description="with rate_limited: when a retry may succeed")


class State(Strict):
    type: Literal["state"] = "state"
    id: str | None = Field(None, description="present when answering a sync or a watch")
    game: str
    v: int
    view: View


class Hidden(Strict):
    type: Literal["hidden"] = "hidden"
    game: str
    v: int


class ClueRangeOut(Strict):
    min: int
    max: int
    default: int


class VariantOut(Strict):
    size: int
    clues: ClueRangeOut
    take_price: int


class RoomOut(Strict):
    """A room; ``variant``, ``size``, ``clues`` and ``take_price`` are null in a room
    that offers several variants (``by_variant`` has them for each)."""

    id: str
    title: str
    variant: Variant | None
    variants: list[Variant]
    size: int | None
    clues: ClueRangeOut | None
    take_price: int | None
    move_ms: int
    game_ms: int | None
    highlighting: bool
    blocks: list[BlockKind]
    by_variant: dict[Variant, VariantOut]
    spectators: bool = Field(description="whether anyone may watch the room's games")


class RoomsAnswer(Strict):
    type: Literal["rooms"] = "rooms"
    id: str
    rooms: list[RoomOut]


# The proposal as the store keeps it is what the clients see: its model follows from it.
ProposalOut = create_model(
    "ProposalOut", __base__=Strict,
    **{name: (hint, ...) for name, hint in get_type_hints(
        ProposalDoc, localns={"BlockKind": BlockKind, "Variant": Variant}).items()},
)  # type: ignore[call-overload]


class ProposalAnswer(Strict):
    type: Literal["proposal"] = "proposal"
    id: str
    proposal: ProposalOut  # type: ignore[valid-type]


class ProposalsAnswer(Strict):
    type: Literal["proposals"] = "proposals"
    id: str
    proposals: list[ProposalOut]  # type: ignore[valid-type]
    next: str | None = Field(description="cursor of the next page (`after`); null on the last")


class RatingChange(Strict):
    before: float
    after: float
    rd: float
    provisional: bool


class GameSummary(Strict):
    game: str
    status: Status
    result: Result | None
    variant: Variant
    room: str
    you: Seat
    opponent: str
    rated: bool
    updated_ms: int
    rating: RatingChange | None = Field(None, description="a rated game, once finished")


class GamesAnswer(Strict):
    type: Literal["games"] = "games"
    id: str
    games: list[GameSummary]
    next: str | None = Field(description="cursor of the next page (`after`); null on the last")


class RecordAnswer(Strict):
    type: Literal["record"] = "record"
    id: str
    game: str
    record: dict[str, Any]


class LeaderboardEntry(Strict):
    name: str
    rating: float
    rd: float
    volatility: float
    games: int
    provisional: bool


class LeaderboardAnswer(Strict):
    type: Literal["leaderboard"] = "leaderboard"
    id: str
    variant: str
    players: list[LeaderboardEntry]
    next: str | None = Field(description="cursor of the next page (`after`); null on the last")


class CandidatesAnswer(Strict):
    type: Literal["candidates"] = "candidates"
    id: str
    game: str
    digit: int
    cells: list[CellOut]


class LiveGame(Strict):
    game: str
    room: str
    variant: Variant
    players: dict[Seat, str]
    v: int = Field(description="the game's version when listed")
    watchers: int = Field(description="connections watching it")


class LiveAnswer(Strict):
    type: Literal["live"] = "live"
    id: str
    games: list[LiveGame]
    next: str | None = Field(description="cursor of the next page (`after`); null on the last")


# --- pushed frames that are not game events (no `v`) ---------------------------------


class RematchOffered(Strict):
    """To both players of a finished game: `seat` offers a rematch."""

    type: Literal["rematch_offered"] = "rematch_offered"
    game: str
    seat: Seat


class RematchDeclined(Strict):
    """To both players: `seat` declined the rematch offer."""

    type: Literal["rematch_declined"] = "rematch_declined"
    game: str
    seat: Seat


class RematchAccepted(Strict):
    """To both players, just before the new game's `state`: `seat` accepted; `rematch`
    is the new game (colours swapped)."""

    type: Literal["rematch_accepted"] = "rematch_accepted"
    game: str
    seat: Seat
    rematch: str


class Presence(Strict):
    """To the opponent (and the watchers) when a player's first connection opens or
    last one closes, for each of that player's games in progress."""

    type: Literal["presence"] = "presence"
    game: str
    seat: Seat
    online: bool


# A game event as it stands alone: one of the kinds, or a placeholder.
GameEvent = Annotated[Union[(Hidden, *EVENTS)], Field(discriminator="type")]  # type: ignore[valid-type]

Events = create_model(
    "Events", __base__=Strict, __module__=__name__,
    __doc__="To a connection opened with `batch=1`: the events one request (or timer, or "
            "bot move) produced in one game, in `v` order, each exactly the frame it would "
            "have been alone; and a `sync` with `v` answered in such frames (each at most "
            "32 KB) before its `ack`.",
    type=(Literal["events"], "events"), game=(str, ...),
    events=(list[GameEvent], Field(..., min_length=1)),
)

PUSHED = (RematchOffered, RematchDeclined, RematchAccepted, Presence, Events)

ANSWERS = (
    Ack, Error, State, RoomsAnswer, ProposalAnswer, ProposalsAnswer, GamesAnswer,
    RecordAnswer, LeaderboardAnswer, CandidatesAnswer, LiveAnswer,
)
FixedFrame = Annotated[
    Ack | Error | State | Hidden | RoomsAnswer | ProposalAnswer | ProposalsAnswer
    | GamesAnswer | RecordAnswer | LeaderboardAnswer | CandidatesAnswer | LiveAnswer
    | RematchOffered | RematchDeclined | RematchAccepted | Presence
    | Events,  # type: ignore[valid-type]
    Field(discriminator="type"),
]
FIXED_TYPES = frozenset(
    {"ack", "error", "state", "hidden", "rooms", "proposal", "proposals", "games", "record",
     "leaderboard", "candidates", "live", "rematch_offered", "rematch_declined",
     "rematch_accepted", "presence", "events"}
)


@cache
def _fixed() -> TypeAdapter[FixedFrame]:
    return TypeAdapter(FixedFrame)


def validate_frame(data: dict[str, Any]) -> BaseModel:
    """Validate a frame about to be posted (or received, in tests): an answer,
    a state, a placeholder, or one of the documented game events."""
    kind = data.get("type")
    if kind in FIXED_TYPES:
        return _fixed().validate_python(data)
    if isinstance(kind, str) and kind in EVENT_TYPES:
        return EVENT_TYPES[kind].model_validate(data)
    raise ValueError(f"undocumented frame type {kind!r}")
