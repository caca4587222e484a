"""Client → server frames: one pydantic model per action.

``parse_action`` turns raw frame text into a typed request or raises a
:class:`ProtocolError` (``malformed`` or ``unknown_action``).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from numbridge.protocol.errors import ProtocolError
from numbridge.rules.seats import BlockKind, Variant

RequestId = Annotated[StrictStr, Field(min_length=1, max_length=64)]
Name = Annotated[StrictStr, Field(min_length=1, max_length=64)]
Cell = tuple[StrictInt, StrictInt]
VariantName = Variant


class Request(BaseModel):
    """Fields every client frame carries."""

    model_config = ConfigDict(extra="ignore", frozen=True)
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


class Proposals(Request):
    action: Literal["proposals"]
    room: Name | None = None


class Withdraw(Request):
    action: Literal["withdraw"]
    proposal: Name


class Accept(Request):
    action: Literal["accept"]
    proposal: Name


class Games(Request):
    action: Literal["games"]


class Record(GameRequest):
    action: Literal["record"]


class Leaderboard(Request):
    action: Literal["leaderboard"]
    variant: VariantName


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


class Sync(GameRequest):
    action: Literal["sync"]
    v: Annotated[StrictInt, Field(ge=0)] | None = None


class Candidates(GameRequest):
    action: Literal["candidates"]
    digit: StrictInt


LOBBY_ACTIONS = (Rooms, Propose, Proposals, Withdraw, Accept, Games, Record, Leaderboard)
MOVE_ACTIONS = (
    Place, Take, Exchange, Swap, Resign, OfferDraw, AcceptDraw, DeclineDraw,
    OfferAdjourn, AcceptAdjourn, Resume,
)
QUERY_ACTIONS = (Sync, Candidates)
ALL_ACTIONS: tuple[type[Request], ...] = LOBBY_ACTIONS + MOVE_ACTIONS + QUERY_ACTIONS

ClientAction = Annotated[
    Rooms | Propose | Proposals | Withdraw | Accept | Games | Record | Leaderboard
    | Place | Take | Exchange | Swap | Resign | OfferDraw | AcceptDraw | DeclineDraw
    | OfferAdjourn | AcceptAdjourn | Resume | Sync | Candidates,
    Field(discriminator="action"),
]
_ADAPTER: TypeAdapter[ClientAction] = TypeAdapter(ClientAction)
ACTION_NAMES: frozenset[str] = frozenset(
    get_args(m.model_fields["action"].annotation)[0] for m in ALL_ACTIONS
)


def peek(raw: str | None) -> tuple[dict[str, Any] | None, str | None]:
    """The frame as an object and its request id, if it is one (for error answers)."""
    try:
        frame = json.loads(raw or "")
    except ValueError:
        return None, None
    if not isinstance(frame, dict):
        return None, None
    rid = frame.get("id")
    return frame, rid if isinstance(rid, str) and 0 < len(rid) <= 64 else None


def parse_action(raw: str | None) -> ClientAction:
    frame, _ = peek(raw)
    if frame is None:
        raise ProtocolError("malformed", "a frame must be one JSON object")
    action = frame.get("action")
    if not isinstance(action, str):
        raise ProtocolError("malformed", "the frame has no string 'action'")
    if action not in ACTION_NAMES:
        raise ProtocolError("unknown_action", f"unknown action {action[:64]!r}")
    try:
        return _ADAPTER.validate_json(raw or "", strict=True)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc'][1:]) or 'frame'}: {err['msg']}"
            for err in exc.errors()
        )
        raise ProtocolError("malformed", f"{action}: {problems}") from exc
