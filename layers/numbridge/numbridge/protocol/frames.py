"""Server → client frames, as pydantic models.

They document every answer (``numbridge.protocol.asyncapi``), build the
``ack``/``error`` frames, and ``validate_frame`` checks, in the tests, every
frame the handlers post.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from numbridge.protocol.errors import ErrorCode
from numbridge.protocol.events import EVENT_TYPES, BlockTable, Result
from numbridge.rules.seats import BlockKind, Seat, Status, Variant

CellOut = tuple[int, int]


class Frame(BaseModel):
    """Built on first use: a function renders only the frames it sends."""

    model_config = ConfigDict(extra="forbid", defer_build=True)


class Ack(Frame):
    type: Literal["ack"] = "ack"
    id: str


class Error(Frame):
    type: Literal["error"] = "error"
    id: str | None = Field(description="the request's id; null if the frame had none")
    code: ErrorCode
    message: str
    retry_after_ms: int | None = Field(
        None, description="with rate_limited: when a retry may succeed")


class Strict(BaseModel):
    """A part of a frame: an undeclared field is refused (a leak or a drift fails the
    tests, which validate every posted frame)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)


class PlayerInfo(Strict):
    name: str
    hand_size: int
    mistakes: int
    clock_ms: int | None
    online: bool | None = Field(None, description="whether the player has a connection open")


class GameOptionsOut(Strict):
    blocks: BlockKind
    clues: int
    take_price: int
    move_ms: int
    game_ms: int | None
    highlighting: bool
    rated: bool


class Offers(Strict):
    draw: Seat | None = Field(description="the seat with a pending draw offer")
    adjourn: Seat | None = Field(description="the seat with a pending adjournment offer")
    rematch: Seat | None = Field(
        None, description="a finished game: the seat whose rematch offer stands")


class LastMistake(Strict):
    """The most recent mistake, public (RULES.md §5)."""

    seat: Seat
    cell: CellOut
    digit: int
    v: int = Field(description="the version of its `mistake` event")


class View(Strict):
    """What one player (or a spectator, without ``you``/``hand``) may know."""

    game: str
    v: int
    room: str
    variant: Variant
    size: Literal[6, 9]
    blocks: str
    digits: str
    owners: str
    clues: str
    you: Seat | None = None
    players: dict[Seat, PlayerInfo]
    hand: list[int] | None = None
    bag: int
    turn: Seat | None
    moves_left_in_pair: int | None = None
    now_ms: int
    deadline_ms: int | None
    status: Status
    result: Result | None
    block_table: BlockTable | None = None
    block_owners: str | None = Field(
        None, description="Domains: each block's owner, 'b', 'r' or '.' (undecided)")
    swap_available: bool | None = None
    offers: Offers
    options: GameOptionsOut
    last_mistake: LastMistake | None
    resume_requested: list[Seat] = Field(
        description="the seats that asked to resume an adjourned game")
    moves: int = Field(description="turns played so far")
    abortable: bool = Field(
        description="the game may still be aborted: a player has not made a first move")
    rematch: str | None = Field(None, description="a finished game's rematch, once dealt")


class State(Frame):
    type: Literal["state"] = "state"
    id: str | None = Field(None, description="present when answering a sync or a watch")
    game: str
    v: int
    view: View


class Hidden(Frame):
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


class RoomsAnswer(Frame):
    type: Literal["rooms"] = "rooms"
    id: str
    rooms: list[RoomOut]


class ProposalOut(Strict):
    id: str
    room: str
    by: str
    variant: Variant
    blocks: BlockKind
    clues: int
    highlighting: bool
    rated: bool
    colour: Literal["blue", "red", "random"]
    created_ms: int


class ProposalAnswer(Frame):
    type: Literal["proposal"] = "proposal"
    id: str
    proposal: ProposalOut


class ProposalsAnswer(Frame):
    type: Literal["proposals"] = "proposals"
    id: str
    proposals: list[ProposalOut]
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


class GamesAnswer(Frame):
    type: Literal["games"] = "games"
    id: str
    games: list[GameSummary]
    next: str | None = Field(description="cursor of the next page (`after`); null on the last")


class RecordAnswer(Frame):
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


class LeaderboardAnswer(Frame):
    type: Literal["leaderboard"] = "leaderboard"
    id: str
    variant: str
    players: list[LeaderboardEntry]
    next: str | None = Field(description="cursor of the next page (`after`); null on the last")


class CandidatesAnswer(Frame):
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


class LiveAnswer(Frame):
    type: Literal["live"] = "live"
    id: str
    games: list[LiveGame]
    next: str | None = Field(description="cursor of the next page (`after`); null on the last")


# --- pushed frames that are not game events (no `v`) ---------------------------------


class RematchOffered(Frame):
    """To both players of a finished game: `seat` offers a rematch."""

    type: Literal["rematch_offered"] = "rematch_offered"
    game: str
    seat: Seat


class RematchDeclined(Frame):
    """To both players: `seat` declined the rematch offer."""

    type: Literal["rematch_declined"] = "rematch_declined"
    game: str
    seat: Seat


class RematchAccepted(Frame):
    """To both players, just before the new game's `state`: `seat` accepted; `rematch`
    is the new game (colours swapped)."""

    type: Literal["rematch_accepted"] = "rematch_accepted"
    game: str
    seat: Seat
    rematch: str


class Presence(Frame):
    """To the opponent (and the watchers) when a player's first connection opens or
    last one closes, for each of that player's games in progress."""

    type: Literal["presence"] = "presence"
    game: str
    seat: Seat
    online: bool


PUSHED = (RematchOffered, RematchDeclined, RematchAccepted, Presence)

ANSWERS = (
    Ack, Error, State, RoomsAnswer, ProposalAnswer, ProposalsAnswer, GamesAnswer,
    RecordAnswer, LeaderboardAnswer, CandidatesAnswer, LiveAnswer,
)
FixedFrame = Annotated[
    Ack | Error | State | Hidden | RoomsAnswer | ProposalAnswer | ProposalsAnswer
    | GamesAnswer | RecordAnswer | LeaderboardAnswer | CandidatesAnswer | LiveAnswer
    | RematchOffered | RematchDeclined | RematchAccepted | Presence,
    Field(discriminator="type"),
]
FIXED_TYPES = frozenset(
    {"ack", "error", "state", "hidden", "rooms", "proposal", "proposals", "games", "record",
     "leaderboard", "candidates", "live", "rematch_offered", "rematch_declined",
     "rematch_accepted", "presence"}
)
@cache
def _fixed() -> TypeAdapter[FixedFrame]:
    # Only tests validate whole frames: no function pays for this union at start.
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


def frame(model: BaseModel) -> dict[str, Any]:
    data = model.model_dump(mode="json")
    # Pushed frames carry no request id (PROTOCOL.md); errors always carry the field.
    if "id" in data and data["id"] is None and data["type"] != "error":
        del data["id"]
    if data.get("retry_after_ms", 0) is None:  # only rate_limited says when to retry
        del data["retry_after_ms"]
    return data


def error_frame(request_id: str | None, code: ErrorCode, message: str,
                retry_after_ms: int | None = None) -> dict[str, Any]:
    return frame(Error(id=request_id, code=code, message=message,
                       retry_after_ms=retry_after_ms))


def ack_frame(request_id: str) -> dict[str, Any]:
    return frame(Ack(id=request_id))
