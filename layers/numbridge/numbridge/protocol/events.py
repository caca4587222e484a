"""Game events as the server pushes them: ``{"type": KIND, "game": GID, "v": N, ...}``.

One model per kind the rules engine emits (see ``numbridge.rules`` docstring).
Unknown fields are refused, so a drift between the engine and the documented
protocol fails the tests that validate every posted frame.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from numbridge.rules.seats import Seat

CellOut = tuple[int, int]


class Event(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    game: str
    v: int


class BySeat(Event):
    seat: Seat


class SeatPair(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    blue: int | None
    red: int | None


class BlockTable(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    blue: int
    red: int
    undecided: int


class Result(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    winner: Seat | None
    by: Literal["goal", "resign", "agreement", "time", "aborted"]
    path: list[CellOut] | None = None
    blocks: list[int] | None = None
    block_table: BlockTable | None = None


class Placed(BySeat):
    """A correct placement: the cell is now the seat's."""

    type: Literal["placed"]
    cell: CellOut
    digit: int


class Mistake(BySeat):
    """A wrong digit: public; the cell stays empty, the tile went back to the bag."""

    type: Literal["mistake"]
    cell: CellOut
    digit: int


class Taken(BySeat):
    """A clue taken; ``paid`` tiles went into the bag (which ones is not public)."""

    type: Literal["taken"]
    cell: CellOut
    paid: int


class Exchanged(BySeat):
    type: Literal["exchanged"]
    count: int


class Swapped(BySeat):
    """Pie rule: red took over blue's first cell."""

    type: Literal["swapped"]
    cell: CellOut


class Timeout(BySeat):
    """The move limit passed: the move (in Domains the rest of the pair) is lost."""

    type: Literal["timeout"]


class SeatCounts(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)
    blue: int
    red: int


class Timeouts(Event):
    """A long catch-up folded: ``count`` moves lost to the clock (``seats``: per seat)
    beyond those sent one by one; ``hand`` frames and the closing ``turn`` follow.
    Each of the ``count + passes`` folded turns counts as one played."""

    type: Literal["timeouts"]
    count: int
    seats: SeatCounts
    passes: int = Field(description="automatic passes folded in among those moves")


class Passed(BySeat):
    """Automatic pass: empty hand, empty bag, no free clue."""

    type: Literal["passed"]


class Hand(Event):
    """The receiver's own tiles (only ever sent to that player)."""

    type: Literal["hand"]
    hand: list[int]


class Turn(Event):
    """The public summary closing every turn."""

    type: Literal["turn"]
    turn: Seat | None
    deadline_ms: int | None
    now_ms: int
    bag: int
    hand_sizes: SeatPair
    clock_ms: SeatPair
    mistakes: SeatPair
    moves_left_in_pair: int | None = None
    block_table: BlockTable | None = None
    swap_available: bool | None = None


class DrawOffered(BySeat):
    type: Literal["draw_offered"]


class DrawDeclined(BySeat):
    type: Literal["draw_declined"]


class DrawLapsed(BySeat):
    type: Literal["draw_lapsed"]


class AdjournOffered(BySeat):
    type: Literal["adjourn_offered"]


class AdjournLapsed(BySeat):
    type: Literal["adjourn_lapsed"]


class Adjourned(BySeat):
    """``seat`` accepted; with ``auto: true`` the rules adjourned the game (no game clock,
    four turns in a row lost to the clock, ``seat`` lost the fourth)."""

    type: Literal["adjourned"]
    clock_ms: SeatPair
    auto: Literal[True] | None = None


class ResumeRequested(BySeat):
    type: Literal["resume_requested"]


class Resumed(BySeat):
    type: Literal["resumed"]


class Finished(Event):
    type: Literal["finished"]
    result: Result


EVENTS: tuple[type[Event], ...] = (
    Placed, Mistake, Taken, Exchanged, Swapped, Timeout, Timeouts, Passed, Hand, Turn,
    DrawOffered, DrawDeclined, DrawLapsed, AdjournOffered, AdjournLapsed, Adjourned,
    ResumeRequested, Resumed, Finished,
)
EVENT_TYPES: dict[str, type[Event]] = {
    str(get_args(m.model_fields["type"].annotation)[0]): m for m in EVENTS
}
