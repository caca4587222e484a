"""The game state: one frozen value, and its lossless plain-JSON form (``"schema": 1``).

The state holds everything, the solution and the bag included; only the
service ever sees it. What a player may see is made by :mod:`.views`.

Clock bookkeeping: ``turn_started_ms`` is when the current move began (for the
mover's time used and the move limit); each side's ``clock_ms`` is its
remaining game time as of the start of the current move (None: no game clock).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeGuard

from numbridge.values import frozen

from .counts import BlockCounts
from .options import Board, GameOptions
from .plain import plain
from .seats import Seat, Status, Variant, is_status, seat_of, seat_or_none

SCHEMA = 1

By = Literal["goal", "resign", "agreement", "time", "aborted"]
BY_VALUES: tuple[By, ...] = ("goal", "resign", "agreement", "time", "aborted")

# The record's kinds of entry; the first six end a turn.
TURN_ACTIONS = frozenset({"place", "take", "exchange", "swap", "timeout", "pass"})
# "auto_adjourn": RULES.md §7 [decided], four turns in a row lost to the clock.
# "abort": RULES.md §7 [decided], by a player or when a first move is lost to the clock.
RECORD_ACTIONS = TURN_ACTIONS | {
    "resign", "draw", "time", "adjourn", "auto_adjourn", "resume", "abort",
}


def _is_by(value: object) -> TypeGuard[By]:
    return value in BY_VALUES


def _cell(value: Any) -> tuple[int, int]:
    r, c = value
    return int(r), int(c)


def _cell_or_none(value: Any) -> tuple[int, int] | None:
    return None if value is None else _cell(value)


@frozen
class Side:
    """One player's private and public data."""

    name: str
    hand: tuple[int, ...]
    mistakes: int
    clock_ms: int | None
    resume: bool = False  # asked to resume an adjourned game

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "hand": list(self.hand),
            "mistakes": self.mistakes,
            "clock_ms": self.clock_ms,
            "resume": self.resume,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Side:
        return cls(
            name=str(data["name"]),
            hand=tuple(int(t) for t in data["hand"]),
            mistakes=int(data["mistakes"]),
            clock_ms=None if data["clock_ms"] is None else int(data["clock_ms"]),
            resume=bool(data["resume"]),
        )


@frozen
class RecordEntry:
    """One line of the game record: a turn, or a club action (resign, draw, adjourn...)."""

    seat: Seat
    action: str
    cell: tuple[int, int] | None = None
    digit: int | None = None
    mistake: bool = False
    discarded: tuple[int, ...] = ()
    time_ms: int = 0
    at_ms: int = 0
    # The mover's tiles before a place, take or exchange: what the game's review
    # weighs the turn against. None on other entries and in records kept before.
    hand: tuple[int, ...] | None = None

    @property
    def is_turn(self) -> bool:
        return self.action in TURN_ACTIONS

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "action": self.action,
            "cell": None if self.cell is None else list(self.cell),
            "digit": self.digit,
            "mistake": self.mistake,
            "discarded": list(self.discarded),
            "time_ms": self.time_ms,
            "at_ms": self.at_ms,
            "hand": None if self.hand is None else list(self.hand),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecordEntry:
        action = str(data["action"])
        if action not in RECORD_ACTIONS:
            raise ValueError(f"unknown record action {action!r}")
        return cls(
            seat=seat_of(data["seat"], "record seat"),
            action=action,
            cell=_cell_or_none(data["cell"]),
            digit=None if data["digit"] is None else int(data["digit"]),
            mistake=bool(data["mistake"]),
            discarded=tuple(int(t) for t in data["discarded"]),
            time_ms=int(data["time_ms"]),
            at_ms=int(data["at_ms"]),
            hand=None if data.get("hand") is None else tuple(int(t) for t in data["hand"]),
        )


@frozen
class LastMistake:
    """The most recent mistake, public (RULES.md §5: shown briefly to both players)."""

    seat: Seat
    cell: tuple[int, int]
    digit: int
    v: int
    """the version of its ``mistake`` event"""

    def to_dict(self) -> dict[str, Any]:
        mistake: dict[str, Any] = plain(self)
        return mistake

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LastMistake:
        return cls(
            seat_of(data["seat"], "last_mistake seat"),
            _cell(data["cell"]),
            int(data["digit"]),
            int(data["v"]),
        )


@frozen
class Result:
    """How a game ended. ``winner`` None only for a draw by agreement or an abort."""

    winner: Seat | None
    by: By
    path: tuple[tuple[int, int], ...] | None = None
    """Bridge/Blitz, won by the goal: the connecting chain"""
    blocks: tuple[int, ...] | None = None
    """Domains, won by the goal: the winner's blocks"""
    block_table: BlockCounts | None = None
    """Domains, won by the goal"""

    def to_dict(self) -> dict[str, Any]:
        result: dict[str, Any] = plain(self)
        return result

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Result:
        by = data["by"]
        if not _is_by(by):
            raise ValueError(f"unknown result kind {by!r}")
        path = data.get("path")
        blocks = data.get("blocks")
        table = data.get("block_table")
        return cls(
            winner=seat_or_none(data["winner"], "winner"),
            by=by,
            path=None if path is None else tuple(_cell(c) for c in path),
            blocks=None if blocks is None else tuple(int(b) for b in blocks),
            block_table=None
            if table is None
            else BlockCounts(int(table["blue"]), int(table["red"]), int(table["undecided"])),
        )


@frozen
class GameState:
    """Everything about one game. Frozen: the engine returns new states, never mutates."""

    game_id: str
    v: int
    options: GameOptions
    board: Board
    digits: str  # N*N: the digit on the board or '.'
    owners: str  # N*N: 'b', 'r' or '.'
    bag: tuple[int, ...]  # sorted
    blue: Side
    red: Side
    status: Status
    to_move: Seat  # also kept while adjourned or finished (then `turn` is None)
    moves_left_in_pair: int
    turn_started_ms: int
    turns_played: int
    result: Result | None = None
    draw_offer: Seat | None = None  # the seat that offered
    adjourn_offer: Seat | None = None
    last_mistake: LastMistake | None = None
    record: tuple[RecordEntry, ...] = ()

    # --- derived, read-only -------------------------------------------------

    @property
    def turn(self) -> Seat | None:
        """The seat to move, or None when the game is not being played."""
        return self.to_move if self.status == "playing" else None

    @property
    def players(self) -> dict[Seat, str]:
        return {"blue": self.blue.name, "red": self.red.name}

    @property
    def variant(self) -> Variant:
        return self.options.variant

    @property
    def size(self) -> int:
        return self.board.size

    def side(self, seat: Seat) -> Side:
        return self.blue if seat == "blue" else self.red

    def hand(self, seat: Seat) -> tuple[int, ...]:
        return self.side(seat).hand

    # --- serialisation ------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "game_id": self.game_id,
            "v": self.v,
            "options": self.options.to_dict(),
            "board": self.board.to_dict(),
            "digits": self.digits,
            "owners": self.owners,
            "bag": list(self.bag),
            "sides": {"blue": self.blue.to_dict(), "red": self.red.to_dict()},
            "status": self.status,
            "to_move": self.to_move,
            "moves_left_in_pair": self.moves_left_in_pair,
            "turn_started_ms": self.turn_started_ms,
            "turns_played": self.turns_played,
            "result": self.result and self.result.to_dict(),
            "offers": {"draw": self.draw_offer, "adjourn": self.adjourn_offer},
            "last_mistake": None if self.last_mistake is None else self.last_mistake.to_dict(),
            "record": [entry.to_dict() for entry in self.record],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"unknown game state schema {data.get('schema')!r}")
        status = data["status"]
        if not is_status(status):
            raise ValueError(f"unknown status {status!r}")
        board = Board.from_dict(data["board"])
        cells = board.size * board.size
        digits, owners = str(data["digits"]), str(data["owners"])
        if len(digits) != cells or len(owners) != cells:
            raise ValueError("digits and owners must have one character per cell")
        sides = data["sides"]
        result = data["result"]
        mistake = data["last_mistake"]
        return cls(
            game_id=str(data["game_id"]),
            v=int(data["v"]),
            options=GameOptions.from_dict(data["options"]),
            board=board,
            digits=digits,
            owners=owners,
            bag=tuple(int(t) for t in data["bag"]),
            blue=Side.from_dict(sides["blue"]),
            red=Side.from_dict(sides["red"]),
            status=status,
            to_move=seat_of(data["to_move"], "to_move"),
            moves_left_in_pair=int(data["moves_left_in_pair"]),
            turn_started_ms=int(data["turn_started_ms"]),
            turns_played=int(data["turns_played"]),
            result=None if result is None else Result.from_dict(result),
            draw_offer=seat_or_none(data["offers"]["draw"], "draw offer"),
            adjourn_offer=seat_or_none(data["offers"]["adjourn"], "adjourn offer"),
            last_mistake=None if mistake is None else LastMistake.from_dict(mistake),
            record=tuple(RecordEntry.from_dict(e) for e in data["record"]),
        )
