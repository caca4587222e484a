"""Every frame the server sends that is not a game event, defined once.

Each is a frozen dataclass: its ``type``, its fields (the docstring under a field
is its description), its docstring. A use case builds one and sends
``answer.frame()``; :mod:`.models` derives from the same classes the pydantic
models that check every posted frame in the tests and write the AsyncAPI
document. Game events are the rules' own dataclasses (:mod:`.render`).

Plain Python (no pydantic): rendering costs a function nothing at a cold start.
A field whose default is ``None`` is left out of the frame while it is ``None``
(``retry_after_ms`` outside ``rate_limited``, a ``state``'s ``id`` when it
answers nothing); a field without a default is always there, ``null`` included.
The rooms are the club's own values (:class:`~numbridge.club.rooms.Room`): their
wire form is derived from their fields (:func:`room_json`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from numbridge.values import frozen

if TYPE_CHECKING:
    from numbridge.club.proposals import ProposalDoc
    from numbridge.club.rooms import ClueRange, Room, VariantSettings
    from numbridge.protocol.errors import ErrorCode
    from numbridge.rules.seats import Grade, Seat, Status, Variant
    from numbridge.rules.state import Result
    from numbridge.rules.view_types import View

CellOut = tuple[int, int]


class Answer:
    """A frame the server sends: ``{"type": TYPE, ...fields}``."""

    type: ClassVar[str]

    def frame(self) -> dict[str, Any]:
        return {"type": self.type, **_fields_json(self)}


def to_json_fields(value: Any) -> dict[str, Any]:
    """A part of an answer as JSON (a ``None`` left at its default ``None`` absent)."""
    return _fields_json(value)


def _fields_json(value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for field in fields(value):
        item = getattr(value, field.name)
        if item is None and field.default is None:
            continue
        out[field.name] = to_json(item)
    return out


def to_json(value: Any) -> Any:
    """An answer's field as JSON data: parts are objects of their fields, tuples lists."""
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {k: to_json(v) for k, v in value.items()}
    kind = type(value).__name__
    if kind == "Room":
        return room_json(value)
    if kind in PUBLIC_NAMES:
        return _all_fields_json(value)
    if is_dataclass(value) and not isinstance(value, type):
        from numbridge.rules.plain import plain

        return plain(value)  # the rules' values (a result) as they always go out
    raise TypeError(f"no wire form for {type(value).__name__}")


# --- the rooms: the club's values, as the ``rooms`` frame lists them ----------------


@frozen
class RoomVariants:
    """A room; ``variant``, ``size``, ``clues`` and ``take_price`` are null in a room
    that offers several variants (``by_variant`` has them for each)."""

    variant: Variant | None
    variants: list[Variant]
    size: int | None
    clues: ClueRange | None
    take_price: int | None


@frozen
class RoomBoards:
    """What a listed room carries after its own fields: each variant's board."""

    by_variant: Mapping[Variant, VariantSettings]


PUBLIC_NAMES = {"Room": "RoomOut", "ClueRange": "ClueRangeOut", "VariantSettings": "VariantOut"}
"""The club's values that answers carry, and the names of their wire forms."""
UNLISTED = {"VariantSettings": ("variant",)}
"""Fields of a club value that its wire form leaves out (``variant``: the key it is under)."""


def room_variants(room: Room) -> RoomVariants:
    only = room.variant
    single = room.variants[only] if only is not None else None
    return RoomVariants(
        variant=only, variants=list(room.variants),
        size=single.size if single else None,
        clues=single.clues if single else None,
        take_price=single.take_price if single else None,
    )


def room_json(room: Room) -> dict[str, Any]:
    """A room as listed: the room's own fields, its ``variants`` mapping replaced by
    :class:`RoomVariants`'s fields, then :class:`RoomBoards`'s."""
    out: dict[str, Any] = {}
    for field in fields(room):
        if field.name == "variants":
            out.update(_all_fields_json(room_variants(room)))
        else:
            out[field.name] = to_json(getattr(room, field.name))
    out.update(_all_fields_json(RoomBoards(by_variant=room.variants)))
    return out


def _all_fields_json(value: Any) -> dict[str, Any]:
    left_out = UNLISTED.get(type(value).__name__, ())
    return {f.name: to_json(getattr(value, f.name)) for f in fields(value)
            if f.name not in left_out}


# --- answers to a request (each carries the request's id) ---------------------------


@frozen(kw_only=True)
class Ack(Answer):
    type: ClassVar[str] = "ack"
    id: str


@frozen(kw_only=True)
class Error(Answer):
    type: ClassVar[str] = "error"
    id: str | None
    """the request's id; null if the frame had none"""
    code: ErrorCode
    message: str
    retry_after_ms: int | None = None
    """with rate_limited: when a retry may succeed"""


@frozen(kw_only=True)
class State(Answer):
    type: ClassVar[str] = "state"
    game: str
    v: int
    view: Annotated[dict[str, Any], View]  # the view as JSON; its model is the View
    id: str | None = None
    """present when answering a sync or a watch"""


@frozen(kw_only=True)
class RoomsAnswer(Answer):
    type: ClassVar[str] = "rooms"
    id: str
    rooms: tuple[Room, ...]


@frozen(kw_only=True)
class ProposalAnswer(Answer):
    type: ClassVar[str] = "proposal"
    id: str
    proposal: ProposalDoc


@frozen(kw_only=True)
class ProposalsAnswer(Answer):
    type: ClassVar[str] = "proposals"
    id: str
    proposals: list[ProposalDoc]
    next: str | None
    """cursor of the next page (`after`); null on the last"""


@frozen(kw_only=True)
class RatingChange:
    before: float
    after: float
    rd: float
    provisional: bool


@frozen(kw_only=True)
class GameSummary:
    game: str
    status: Status
    result: Result | None
    variant: Variant
    room: str
    you: Seat
    opponent: str
    rated: bool
    updated_ms: int
    rating: RatingChange | None = None
    """a rated game, once finished"""
    turn: Seat | None = None
    """a game being played: the seat to move now"""
    deadline_ms: int | None = None
    """a game being played: when the player to move loses the move (null: no clock)"""


@frozen(kw_only=True)
class GamesAnswer(Answer):
    type: ClassVar[str] = "games"
    id: str
    games: list[Annotated[dict[str, Any], GameSummary]]  # as stored: each its JSON
    next: str | None
    """cursor of the next page (`after`); null on the last"""


@frozen(kw_only=True)
class RecordAnswer(Answer):
    type: ClassVar[str] = "record"
    id: str
    game: str
    record: dict[str, Any]


@frozen(kw_only=True)
class LeaderboardEntry:
    name: str
    rating: float
    rd: float
    volatility: float
    games: int
    provisional: bool


@frozen(kw_only=True)
class LeaderboardAnswer(Answer):
    type: ClassVar[str] = "leaderboard"
    id: str
    variant: str
    players: list[LeaderboardEntry]
    next: str | None
    """cursor of the next page (`after`); null on the last"""


@frozen(kw_only=True)
class CandidatesAnswer(Answer):
    type: ClassVar[str] = "candidates"
    id: str
    game: str
    digit: int
    cells: list[CellOut]


@frozen(kw_only=True)
class LiveGame:
    game: str
    room: str
    variant: Variant
    players: dict[Seat, str]
    v: int
    """the game's version when listed"""
    watchers: int
    """connections watching it"""
    grade: Grade | None = None
    """the board's grade (docs/coach.md); absent for a game listed before grades were"""


@frozen(kw_only=True)
class LiveAnswer(Answer):
    type: ClassVar[str] = "live"
    id: str
    games: list[LiveGame]
    next: str | None
    """cursor of the next page (`after`); null on the last"""


# --- pushed frames (no ``id``) -------------------------------------------------------


@frozen(kw_only=True)
class Hidden(Answer):
    # What a viewer gets for an event that is not theirs to see: it still advances v.
    type: ClassVar[str] = "hidden"
    game: str
    v: int


@frozen(kw_only=True)
class RematchOffered(Answer):
    """To both players of a finished game: `seat` offers a rematch."""

    type: ClassVar[str] = "rematch_offered"
    game: str
    seat: Seat


@frozen(kw_only=True)
class RematchDeclined(Answer):
    """To both players: `seat` declined the rematch offer."""

    type: ClassVar[str] = "rematch_declined"
    game: str
    seat: Seat


@frozen(kw_only=True)
class RematchAccepted(Answer):
    """To both players, just before the new game's `state`: `seat` accepted; `rematch`
    is the new game (colours swapped)."""

    type: ClassVar[str] = "rematch_accepted"
    game: str
    seat: Seat
    rematch: str


@frozen(kw_only=True)
class Presence(Answer):
    """To the opponent (and the watchers) when a player's first connection opens or
    last one closes, for each of that player's games in progress."""

    type: ClassVar[str] = "presence"
    game: str
    seat: Seat
    online: bool


# --- subscriptions and quick pairing ----------------------------------------------


@frozen(kw_only=True)
class LobbyAnswer(Answer):
    """The answer to `subscribe` with topic `lobby`: the lobby as it is now (each list
    its first page); its changes are pushed in `changes` frames from then on."""

    type: ClassVar[str] = "lobby"
    id: str
    proposals: list[ProposalDoc]
    """the open proposals, newest first (challenges never)"""
    seeks: dict[str, int]
    """room → seekers waiting in it"""
    live: list[LiveGame]
    """the games being played"""
    online: int
    """players with a connection open"""
    challenges: list[ProposalDoc] | None = None
    """the open challenges addressed to the subscriber (those made while they were away
    included), newest first, at most 20; a later addition: older servers leave it out"""
    challenged: list[ProposalDoc] | None = None
    """the open challenges the subscriber made (at most 5); a later addition: older
    servers leave it out"""


@frozen(kw_only=True)
class SeekShown:
    id: str
    room: str
    rated: bool
    created_ms: int
    variant: Variant | None = None
    """as asked, where the room offers several"""


@frozen(kw_only=True)
class SeekAnswer(Answer):
    """Nobody fitting was waiting: the seek waits, and the new game's `state` comes
    when someone fits (until `cancel_seek` or the connection closes)."""

    type: ClassVar[str] = "seek"
    id: str
    seek: SeekShown


# --- tournaments ---------------------------------------------------------------------


@frozen(kw_only=True)
class TournamentShown:
    id: str
    name: str
    kind: Literal["arena", "swiss", "round_robin"]
    room: str
    rated: bool
    status: Literal["upcoming", "running", "finished"]
    starts_ms: int
    players: int
    """players taking part (joined, not left)"""
    ends_ms: int | None = None
    """an arena: when it ends (no pairing after)"""
    rounds: int | None = None
    """a Swiss or round robin: its rounds"""
    round: int | None = None
    """a Swiss or round robin: the round being played (0 before the first)"""
    cancelled: Literal["by_host", "too_few_players"] | None = None
    """finished without being played through: the host cancelled it, or a Swiss or round
    robin had fewer than two players at its start (absent when it was played)"""


@frozen(kw_only=True)
class StandingShown:
    rank: int
    player: str
    score: float
    """points: a win 1, a draw ½ (a Swiss, a round robin); an arena's: a win 2, a draw 1,
    doubled on a streak"""
    games: int
    tiebreaks: list[float] | None = None
    """a Swiss or round robin's final table: Buchholz cut-1, Sonneborn-Berger; an
    arena's: performance"""
    withdrawn: bool | None = None
    """true: the player left, or was withdrawn (absent at a round's pairing); still
    ranked with the games they played (absent otherwise)"""


@frozen(kw_only=True)
class TournamentYou:
    joined: bool
    """the asking player joined it (whether or not they left since)"""
    left: bool
    """they left it, or were withdrawn: not paired any more (until they join again, in an
    arena)"""


@frozen(kw_only=True)
class PairingShown:
    game: str | None = None
    blue: str | None = None
    red: str | None = None
    round: int | None = None
    """a Swiss or round robin's round"""
    winner: Seat | None = None
    """once the game is over: the winning seat, null a draw (absent while it is played)"""
    bye: str | None = None
    """a bye: the player who has it (worth a win), with `round`"""


@frozen(kw_only=True)
class TournamentsAnswer(Answer):
    type: ClassVar[str] = "tournaments"
    id: str
    tournaments: list[TournamentShown]
    next: str | None
    """cursor of the next page (`after`); null on the last"""


@frozen(kw_only=True)
class TournamentAnswer(Answer):
    """A tournament as it is now (also the answer to `subscribe` with topic
    `tournament:TID`): its standings, a page of them best first, and its pairings (a
    Swiss or round robin's current round; an arena's latest games)."""

    type: ClassVar[str] = "tournament"
    id: str
    tournament: TournamentShown
    standings: list[StandingShown]
    pairings: list[Annotated[dict[str, Any], PairingShown]]  # each as listed: its JSON
    next: str | None
    """cursor of the next page of standings (`after`); null on the last"""
    you: TournamentYou | None = None
    """the asking player's part in it"""


ANSWERS: tuple[type[Answer], ...] = (
    Ack, Error, State, RoomsAnswer, ProposalAnswer, ProposalsAnswer, GamesAnswer,
    RecordAnswer, LeaderboardAnswer, CandidatesAnswer, LiveAnswer, LobbyAnswer, SeekAnswer,
    TournamentsAnswer, TournamentAnswer,
)
"""The answers to a request, in the order the AsyncAPI document lists them."""
@frozen(kw_only=True)
class Events(Answer):
    """To a connection opened with `batch=1`: the events one request (or timer, or bot
    move) produced in one game, in `v` order, each exactly the frame it would have been
    alone; and a `sync` with `v` answered in such frames (each at most 32 KB) before its
    `ack`."""

    type: ClassVar[str] = "events"
    game: str
    events: Annotated[list[dict[str, Any]], "GameEvents"]  # each a game event's own frame


# A lobby change: each kind one class, ``kind`` its name.


@frozen(kw_only=True)
class ProposalAdded:
    kind: Literal["proposal_added"] = "proposal_added"
    proposal: ProposalDoc


@frozen(kw_only=True)
class ProposalRemoved:
    kind: Literal["proposal_removed"] = "proposal_removed"
    proposal: str
    why: Literal["withdrawn", "accepted", "lapsed", "paged"]
    """``paged``: still open, but off this subscriber's page now (another took its place)"""


@frozen(kw_only=True)
class LiveAdded:
    kind: Literal["live_added"] = "live_added"
    game: LiveGame


@frozen(kw_only=True)
class LiveRemoved:
    kind: Literal["live_removed"] = "live_removed"
    game: str


@frozen(kw_only=True)
class SeeksWaiting:
    kind: Literal["seeks"] = "seeks"
    room: str
    waiting: int


@frozen(kw_only=True)
class OnlineCount:
    kind: Literal["online"] = "online"
    players: int


# A tournament's change (topic ``tournament:TID``): each kind one class, ``kind`` its name.


@frozen(kw_only=True)
class TournamentStarted:
    kind: Literal["started"] = "started"


@frozen(kw_only=True)
class TournamentPaired:
    kind: Literal["paired"] = "paired"
    game: str
    blue: str
    red: str
    round: int | None = None
    """a Swiss or round robin's round"""


@frozen(kw_only=True)
class TournamentBye:
    kind: Literal["bye"] = "bye"
    round: int
    player: str
    """who has the bye (worth a win): the odd one out of a Swiss round, or a round robin's
    player whose opponent withdrew"""


@frozen(kw_only=True)
class TournamentPlayers:
    kind: Literal["players"] = "players"
    players: int
    """players taking part now (joined, not left); pushed with the standings after a
    join or a leave"""


@frozen(kw_only=True)
class TournamentResult:
    kind: Literal["result"] = "result"
    game: str
    winner: Seat | None
    """the winning seat; null a draw"""


@frozen(kw_only=True)
class TournamentStandings:
    kind: Literal["standings"] = "standings"
    standings: list[StandingShown]
    """the first page"""


@frozen(kw_only=True)
class TournamentFinished:
    kind: Literal["finished"] = "finished"
    cancelled: Literal["by_host", "too_few_players"] | None = None
    """why it finished unplayed (absent when it was played through)"""


TOURNAMENT_CHANGES: tuple[type, ...] = (
    TournamentStarted, TournamentPaired, TournamentBye, TournamentResult,
    TournamentStandings, TournamentPlayers, TournamentFinished)
LOBBY_CHANGES: tuple[type, ...] = (
    ProposalAdded, ProposalRemoved, LiveAdded, LiveRemoved, SeeksWaiting, OnlineCount,
    *TOURNAMENT_CHANGES)
"""Every change a `changes` frame may carry: the lobby's, then a tournament's."""


@frozen(kw_only=True)
class Changes(Answer):
    """To a connection subscribed to `topic`: its changes since the last frame (or the
    subscription's first page), in order; each within 2 s of happening."""

    type: ClassVar[str] = "changes"
    topic: str
    changes: Annotated[list[dict[str, Any]], "LobbyChanges"]  # each a change's JSON


@frozen(kw_only=True)
class Challenge(Answer):
    """To the challenged player's connections: a private proposal only they may accept
    (or `decline`)."""

    type: ClassVar[str] = "challenge"
    proposal: ProposalDoc


@frozen(kw_only=True)
class Declined(Answer):
    """To the challenger's connections: the challenged player declined."""

    type: ClassVar[str] = "declined"
    proposal: str


PUSHED: tuple[type[Answer], ...] = (
    RematchOffered, RematchDeclined, RematchAccepted, Presence, Events, Changes, Challenge,
    Declined)
"""Pushed frames that are not game events (no ``v``)."""
