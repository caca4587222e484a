"""Server → client frames, as pydantic models.

They document every answer (``numbridge.protocol.asyncapi``), build the
``ack``/``error`` frames, and ``validate_frame`` checks, in the tests, every
frame the handlers post.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from numbridge.protocol.errors import ErrorCode
from numbridge.rules.seats import BlockKind, Seat, Status, Variant

CellOut = tuple[int, int]


class Frame(BaseModel):
    model_config = ConfigDict(extra="forbid")


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


class PlayerInfo(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    hand_size: int
    mistakes: int
    clock_ms: int | None
    online: bool | None = Field(None, description="whether the player has a connection open")


class GameOptionsOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    blocks: BlockKind
    clues: int
    take_price: int
    move_ms: int
    game_ms: int | None
    highlighting: bool
    rated: bool


class View(BaseModel):
    """What one player (or a spectator, without ``you``/``hand``) may know."""

    model_config = ConfigDict(extra="allow")
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
    result: dict[str, Any] | None
    block_table: dict[str, int] | None = None
    swap_available: bool | None = None
    offers: dict[str, Seat | None]
    options: GameOptionsOut


class State(Frame):
    type: Literal["state"] = "state"
    id: str | None = Field(None, description="present when answering a sync")
    game: str
    v: int
    view: View


class Hidden(Frame):
    type: Literal["hidden"] = "hidden"
    game: str
    v: int


class RoomOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    variant: str | None


class RoomsAnswer(Frame):
    type: Literal["rooms"] = "rooms"
    id: str
    rooms: list[RoomOut]


class ProposalOut(BaseModel):
    model_config = ConfigDict(extra="allow")
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


class GameSummary(BaseModel):
    model_config = ConfigDict(extra="allow")
    game: str
    status: Status
    result: dict[str, Any] | None
    variant: str
    room: str
    you: Seat
    opponent: str


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


class LeaderboardEntry(BaseModel):
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
    RecordAnswer, LeaderboardAnswer, CandidatesAnswer,
)
FixedFrame = Annotated[
    Ack | Error | State | Hidden | RoomsAnswer | ProposalAnswer | ProposalsAnswer
    | GamesAnswer | RecordAnswer | LeaderboardAnswer | CandidatesAnswer
    | RematchOffered | RematchDeclined | RematchAccepted | Presence,
    Field(discriminator="type"),
]
FIXED_TYPES = frozenset(
    {"ack", "error", "state", "hidden", "rooms", "proposal", "proposals", "games", "record",
     "leaderboard", "candidates", "rematch_offered", "rematch_declined", "rematch_accepted",
     "presence"}
)
_FIXED: TypeAdapter[FixedFrame] = TypeAdapter(FixedFrame)


def validate_frame(data: dict[str, Any]) -> BaseModel:
    """Validate a frame about to be posted (or received, in tests): an answer,
    a state, a placeholder, or one of the documented game events."""
    from numbridge.protocol.events import EVENT_TYPES

    kind = data.get("type")
    if kind in FIXED_TYPES:
        return _FIXED.validate_python(data)
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
