"""Client → server frames: the club's requests declared here, the game's actions in
``numbridge.rules.actions`` — each once; the wire form of both follows from them.

A request is a frozen dataclass: its fields are the frame's fields (checked by
:mod:`.shapes`), ``name`` its ``action``, ``function`` the Lambda function
that serves it (the template's routes are generated from it:
``tools/routes.py``), ``once`` whether it changes something and so is applied
at most once per (player, id). A game action arrives as a :class:`GameAction`
that carries the rules' own action value, so nothing translates it again.

``read_request`` turns a raw frame into a typed request, reading it once, or
raises a :class:`~numbridge.protocol.wire.FrameRefused` (``malformed`` or
``unknown_action``) that keeps the request id when it could be read.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from numbridge.club.proposals import ProposalChoices
from numbridge.protocol.shapes import AtLeast, Doc, ShapeError, Text, field_names, read_fields
from numbridge.protocol.wire import FrameRefused, load_object
from numbridge.rules import actions as game
from numbridge.rules.seats import Variant
from numbridge.values import frozen

RequestId = Annotated[str, Text(1, 64)]
Name = Annotated[str, Text(1, 64)]
Cursor = Annotated[str, Text(1, 1024), Doc("the `next` of the previous page")]
Function = Literal["lobby", "deal", "move"]
# Every request declared below, by name (filled as each class is defined).
CLUB_REQUESTS: dict[str, type[Request]] = {}


@frozen(kw_only=True)
class Request:
    """Fields every client frame carries."""

    name: ClassVar[str]
    function: ClassVar[Function] = "lobby"
    once: ClassVar[bool] = False
    # It belongs to the connection it came on (its use case is told which one).
    connection: ClassVar[bool] = False
    id: RequestId
    # The fields the frame held (an omitted field and its default can mean different
    # things); not a field of the frame itself.
    sent: frozenset[str] = dataclasses.field(
        default=frozenset(), compare=False, repr=False, metadata={"wire": False})

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Declaring a request with a name is all it takes to make it one.
        super().__init_subclass__(**kwargs)
        if isinstance(cls.__dict__.get("name"), str):
            CLUB_REQUESTS[cls.__dict__["name"]] = cls


@frozen(kw_only=True)
class GameRequest(Request):
    game: Name


# --- lobby and archive -------------------------------------------------------


@frozen(kw_only=True)
class Rooms(Request):
    """The rooms and their settings."""

    name = "rooms"


@frozen(kw_only=True)
class Propose(Request, ProposalChoices):
    """Open a proposal in a room (or, with `bot`, deal at once against the bot)."""

    name = "propose"
    once = True
    room: Name
    bot: Annotated[Literal["easy", "normal", "strong"] | None, Doc(
        "deal at once against the bot `bot-LEVEL` (always unrated: `rated` may be "
        "omitted or false); no open proposal")] = None
    to: Annotated[Name | None, Doc(
        "a challenge: a private proposal only this player sees (pushed to them as "
        "`challenge`) and may accept or `decline`; never in the lobby")] = None

    @property
    def choices(self) -> ProposalChoices:
        return ProposalChoices(**{f.name: getattr(self, f.name)
                                  for f in dataclasses.fields(ProposalChoices)})


@frozen(kw_only=True)
class Proposals(Request):
    """The open proposals, newest first (of one room, or all)."""

    name = "proposals"
    room: Name | None = None
    after: Cursor | None = None


@frozen(kw_only=True)
class Withdraw(Request):
    """Withdraw your open proposal."""

    name = "withdraw"
    once = True
    proposal: Name


@frozen(kw_only=True)
class Accept(Request):
    """Accept an open proposal: the game is dealt and both players get its `state`."""

    name = "accept"
    function = "deal"
    once = True
    proposal: Name


@frozen(kw_only=True)
class Games(Request):
    """Your games, newest first."""

    name = "games"
    after: Cursor | None = None


@frozen(kw_only=True)
class Record(GameRequest):
    """A finished game's record from the archive (solution included)."""

    name = "record"


@frozen(kw_only=True)
class Leaderboard(Request):
    """The ratings of a variant, best first."""

    name = "leaderboard"
    variant: Variant
    after: Cursor | None = None


@frozen(kw_only=True)
class Decline(Request):
    """Decline a challenge made to you (the challenger is told: `declined`)."""

    name = "decline"
    once = True
    proposal: Name


# --- subscriptions and quick pairing --------------------------------------------
# Subscriptions and seeks belong to the connection they are made on: they end with it.


@frozen(kw_only=True)
class Subscribe(Request):
    """Be pushed a topic's changes on this connection (`lobby`, or `tournament:TID`): the
    answer is the topic's first page as it is now, then `changes` frames."""

    name = "subscribe"
    connection = True
    topic: Name


@frozen(kw_only=True)
class Unsubscribe(Request):
    """No more `changes` of that topic on this connection."""

    name = "unsubscribe"
    connection = True
    topic: Name


@frozen(kw_only=True)
class Seek(Request):
    """Ask for a game in a room now, against whoever else seeks in it with a close
    rating (the range widening while nobody fits); the room's default options, colour
    random. One seek per player: a second replaces the first."""

    name = "seek"
    function = "deal"
    once = True
    connection = True
    room: Name
    rated: bool = True
    variant: Annotated[Variant | None, Doc("only where the room offers several")] = None


@frozen(kw_only=True)
class CancelSeek(Request):
    """Stop seeking (`not_found` if already paired or gone)."""

    name = "cancel_seek"
    once = True
    seek: Name


# --- tournaments ------------------------------------------------------------------


@frozen(kw_only=True)
class Tournaments(Request):
    """The club's tournaments (or those of one `status`): upcoming, then running, each
    in the order they start, then finished, the latest first."""

    name = "tournaments"
    status: Literal["upcoming", "running", "finished"] | None = None
    after: Cursor | None = None


@frozen(kw_only=True)
class Tournament(Request):
    """One tournament: its standings (a page, best first), its current pairings."""

    name = "tournament"
    tournament: Name
    after: Cursor | None = None


@frozen(kw_only=True)
class JoinTournament(Request):
    """Take part in a tournament (`illegal` once it has finished, or a Swiss or round
    robin has started; a bot only in an unrated one)."""

    name = "join_tournament"
    once = True
    tournament: Name


@frozen(kw_only=True)
class LeaveTournament(Request):
    """Stop taking part: an arena pairs you no more until you join again; a Swiss or
    round robin pairs you in no later round."""

    name = "leave_tournament"
    once = True
    tournament: Name


# --- in game -----------------------------------------------------------------


@frozen(kw_only=True)
class GameAction(GameRequest):
    """One of the game's actions (``numbridge.rules.actions``) on a game."""

    function = "move"
    once = True
    action: game.Action

    @property
    def name(self) -> str:  # type: ignore[override]  # the action's own name
        return self.action.name


@frozen(kw_only=True)
class Sync(GameRequest):
    """The events after `v` (or the whole view): how a client catches up."""

    name = "sync"
    function = "move"
    v: Annotated[int, AtLeast(0)] | None = None


@frozen(kw_only=True)
class Candidates(GameRequest):
    """The empty cells where a digit may still go (where the room allows highlighting)."""

    name = "candidates"
    function = "move"
    digit: int


# --- after a game: rematch ------------------------------------------------------


@frozen(kw_only=True)
class OfferRematch(GameRequest):
    """Offer a rematch of a finished game (offering back accepts the opponent's offer)."""

    name = "offer_rematch"
    function = "deal"
    once = True


@frozen(kw_only=True)
class AcceptRematch(GameRequest):
    """Accept the opponent's rematch offer: a new game, same room and options,
    colours swapped; both players get its `state`."""

    name = "accept_rematch"
    function = "deal"
    once = True


@frozen(kw_only=True)
class DeclineRematch(GameRequest):
    """Decline the opponent's rematch offer (the offerer is told)."""

    name = "decline_rematch"
    function = "move"
    once = True


# --- spectators ----------------------------------------------------------------------
# Not applied once per id: watching again is harmless, and a remembered answer would
# not watch on the connection a retry comes from.


@frozen(kw_only=True)
class Watch(GameRequest):
    """Watch a game in progress: a spectator `state` (no `you`, no `hand`), then the
    game's events on this connection, the hidden ones as `hidden`."""

    name = "watch"
    function = "move"
    connection = True


@frozen(kw_only=True)
class Unwatch(GameRequest):
    """Stop watching a game on this connection."""

    name = "unwatch"
    function = "move"
    connection = True


@frozen(kw_only=True)
class Live(Request):
    """The games being played that may be watched: room by room in the lobby's order
    (or one `room`), newest first."""

    name = "live"
    room: Name | None = None
    after: Cursor | None = None


@frozen
class Kind:
    """How one ``action`` is read: the request it becomes, and for a game action
    the rules' class that holds its fields."""

    name: str
    request: type[Request]
    game_action: type[game.Action] | None = None

    @property
    def shapes(self) -> tuple[type, ...]:
        """The dataclasses whose fields the frame carries (besides ``action``)."""
        if self.game_action is None:
            return (self.request,)
        return (GameRequest, self.game_action)


REQUEST_KINDS: dict[str, Kind] = {
    **{name: Kind(name, r) for name, r in CLUB_REQUESTS.items()},
    **{a.name: Kind(a.name, GameAction, a) for a in game.ACTION_TYPES},
}


def read_request(body: object) -> Request:
    """The request in one frame, read once (see :mod:`.wire` for the limits).

    Raises :class:`FrameRefused` (``malformed`` or ``unknown_action``) carrying
    the frame's id whenever it could be read.
    """
    frame, rid = load_object(body)
    name = frame.get("action")
    if not isinstance(name, str):
        raise FrameRefused("malformed", "the frame has no string 'action'", rid)
    kind = REQUEST_KINDS.get(name)
    if kind is None:
        raise FrameRefused("unknown_action", f"unknown action {name[:64]!r}", rid)
    try:
        return _build(kind, frame)
    except ShapeError as exc:
        raise FrameRefused("malformed", f"{name}: {exc}", rid) from None


def _build(kind: Kind, frame: Mapping[str, object]) -> Request:
    sent = frozenset(frame)
    if kind.game_action is None:
        fields = read_fields(kind.request, frame, frozenset({"action"}))
        return kind.request(**fields, sent=sent)  # type: ignore[arg-type]
    envelope, body = (field_names(c) for c in kind.shapes)
    problems = [f"unknown field {k[:64]!r}" for k in frame
                if k not in envelope and k not in body and k != "action"]
    parts: list[dict[str, object]] = []
    for shape, own in ((GameRequest, envelope), (kind.game_action, body)):
        try:
            parts.append(read_fields(shape, frame, frozenset(frame) - own))
        except ShapeError as exc:
            problems.append(str(exc))
    if problems:
        raise ShapeError("; ".join(problems[:5]))
    head, fields = parts
    return GameAction(**head, action=kind.game_action(**fields),  # type: ignore[arg-type]
                      sent=sent)


def as_frame(request: Request) -> dict[str, Any]:
    """The request as the frame that would send it: ``game`` and ``action`` first, then
    its fields in their declared order, defaults written out (a stable form to hash)."""
    out: dict[str, Any] = {}
    if isinstance(request, GameRequest):
        out["game"] = request.game
    out["action"] = request.name
    source: object = request.action if isinstance(request, GameAction) else request
    for f in dataclasses.fields(source):  # type: ignore[arg-type]
        if f.name in ("id", "game") or not f.metadata.get("wire", True):
            continue
        value = getattr(source, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    out["id"] = request.id
    return out
