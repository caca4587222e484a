"""Client → server frames: one pydantic model per action.

``read_request`` turns a raw frame into a typed request, reading it once, or
raises a :class:`~numbridge.protocol.wire.FrameRefused` (``malformed`` or
``unknown_action``) that keeps the request id when it could be read.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
)

from numbridge.protocol.wire import FrameRefused, load_object
from numbridge.rules.seats import BlockKind, Variant

RequestId = Annotated[StrictStr, Field(min_length=1, max_length=64)]
Cursor = Annotated[StrictStr, Field(min_length=1, max_length=1024,
                                    description="the `next` of the previous page")]
Name = Annotated[StrictStr, Field(min_length=1, max_length=64)]
Cell = tuple[StrictInt, StrictInt]
VariantName = Variant


class Request(BaseModel):
    """Fields every client frame carries."""

    # Unknown fields are refused: a misspelt optional field must not pass unseen.
    # Built on first use: a function validates the few actions it serves, and a
    # cold start should not build all of them (docs/aws.md).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)
    id: RequestId


class GameRequest(Request):
    game: Name


# --- lobby and archive -------------------------------------------------------


class Rooms(Request):
    action: Literal["rooms"]


class Propose(Request):
    action: Literal["propose"]
    room: Name
    blocks: BlockKind = "regular"
    clues: StrictInt | None = Field(None, description="default: the room's default")
    highlighting: StrictBool | None = Field(None, description="default: what the room allows")
    rated: StrictBool = True
    colour: Literal["blue", "red", "random"] = "random"
    variant: VariantName | None = Field(None, description="only where the room offers several")
    bot: Literal["easy", "normal", "strong"] | None = Field(
        None, description="deal at once against the bot `bot-LEVEL` (always unrated: "
                          "`rated` may be omitted or false); no open proposal")


class Proposals(Request):
    action: Literal["proposals"]
    room: Name | None = None
    after: Cursor | None = None


class Withdraw(Request):
    action: Literal["withdraw"]
    proposal: Name


class Accept(Request):
    action: Literal["accept"]
    proposal: Name


class Games(Request):
    action: Literal["games"]
    after: Cursor | None = None


class Record(GameRequest):
    action: Literal["record"]


class Leaderboard(Request):
    action: Literal["leaderboard"]
    variant: VariantName
    after: Cursor | None = None


# --- in game -----------------------------------------------------------------


class Place(GameRequest):
    action: Literal["place"]
    cell: Cell
    digit: StrictInt


class Take(GameRequest):
    action: Literal["take"]
    cell: Cell
    digit: StrictInt | None = Field(None, description="the tile paid; omitted with an empty hand")


class Exchange(GameRequest):
    action: Literal["exchange"]


class Swap(GameRequest):
    action: Literal["swap"]


class Resign(GameRequest):
    action: Literal["resign"]


class OfferDraw(GameRequest):
    action: Literal["offer_draw"]


class AcceptDraw(GameRequest):
    action: Literal["accept_draw"]


class DeclineDraw(GameRequest):
    action: Literal["decline_draw"]


class OfferAdjourn(GameRequest):
    action: Literal["offer_adjourn"]


class AcceptAdjourn(GameRequest):
    action: Literal["accept_adjourn"]


class Resume(GameRequest):
    action: Literal["resume"]


class Abort(GameRequest):
    """End a game before each player has made a first move: no winner, unrated."""

    action: Literal["abort"]


class Sync(GameRequest):
    action: Literal["sync"]
    v: Annotated[StrictInt, Field(ge=0)] | None = None


class Candidates(GameRequest):
    action: Literal["candidates"]
    digit: StrictInt


# --- after a game: rematch --------------------------------------------------------


class OfferRematch(GameRequest):
    """Offer a rematch of a finished game (offering back accepts the opponent's offer)."""

    action: Literal["offer_rematch"]


class AcceptRematch(GameRequest):
    """Accept the opponent's rematch offer: a new game, same room and options,
    colours swapped; both players get its `state`."""

    action: Literal["accept_rematch"]


class DeclineRematch(GameRequest):
    """Decline the opponent's rematch offer (the offerer is told)."""

    action: Literal["decline_rematch"]


# --- spectators -----------------------------------------------------------------------


class Watch(GameRequest):
    """Watch a game in progress: a spectator `state` (no `you`, no `hand`), then the
    game's events on this connection, the hidden ones as `hidden`."""

    action: Literal["watch"]


class Unwatch(GameRequest):
    """Stop watching a game on this connection."""

    action: Literal["unwatch"]


class Live(Request):
    """The games being played that may be watched: room by room in the lobby's order
    (or one `room`), newest first."""

    action: Literal["live"]
    room: Name | None = None
    after: Cursor | None = None


LOBBY_ACTIONS = (Rooms, Propose, Proposals, Withdraw, Accept, Games, Record, Leaderboard)
MOVE_ACTIONS = (
    Place, Take, Exchange, Swap, Resign, OfferDraw, AcceptDraw, DeclineDraw,
    OfferAdjourn, AcceptAdjourn, Resume, Abort,
)
QUERY_ACTIONS = (Sync, Candidates)
REMATCH_ACTIONS = (OfferRematch, AcceptRematch, DeclineRematch)
WATCH_ACTIONS = (Watch, Unwatch, Live)
ALL_ACTIONS: tuple[type[Request], ...] = (
    LOBBY_ACTIONS + MOVE_ACTIONS + QUERY_ACTIONS + REMATCH_ACTIONS + WATCH_ACTIONS
)

ClientAction = Annotated[
    Rooms | Propose | Proposals | Withdraw | Accept | Games | Record | Leaderboard
    | Place | Take | Exchange | Swap | Resign | OfferDraw | AcceptDraw | DeclineDraw
    | OfferAdjourn | AcceptAdjourn | Resume | Abort | Sync | Candidates
    | OfferRematch | AcceptRematch | DeclineRematch | Watch | Unwatch | Live,
    Field(discriminator="action"),
]
MODELS: dict[str, type[Request]] = {
    get_args(m.model_fields["action"].annotation)[0]: m for m in ALL_ACTIONS
}
ACTION_NAMES: frozenset[str] = frozenset(MODELS)


def read_request(body: object) -> ClientAction:
    """The request in one frame, read once (see :mod:`.wire` for the limits).

    Raises :class:`FrameRefused` (``malformed`` or ``unknown_action``) carrying
    the frame's id whenever it could be read.
    """
    frame, rid = load_object(body)
    action = frame.get("action")
    if not isinstance(action, str):
        raise FrameRefused("malformed", "the frame has no string 'action'", rid)
    if action not in ACTION_NAMES:
        raise FrameRefused("unknown_action", f"unknown action {action[:64]!r}", rid)
    try:
        # Lax mode only so that a JSON array fills a tuple field: every scalar
        # field is a Strict type, so nothing else is coerced.
        request = MODELS[action].model_validate(frame)
    except ValidationError as exc:
        raise FrameRefused("malformed", f"{action}: {_problems(exc)}", rid) from None
    return request  # type: ignore[return-value]


def _problems(exc: ValidationError) -> str:
    said = []
    for err in exc.errors(include_url=False, include_input=False)[:5]:
        where = ".".join(str(p) for p in err["loc"]) or "frame"
        if err["type"] == "extra_forbidden":
            said.append(f"unknown field {where[:64]!r}")
        else:
            said.append(f"{where[:64]}: {err['msg']}")
    return "; ".join(said)


def parse_action(raw: str | None) -> ClientAction:
    """As :func:`read_request`."""
    return read_request(raw)


def peek(raw: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """The frame as an object and its request id, if it is one (for error answers)."""
    try:
        return load_object(raw)
    except FrameRefused as refused:
        return None, refused.request_id
