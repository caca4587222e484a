"""Events: what one call of the engine tells the players, one frozen dataclass per kind.

Every :class:`Event` carries the game version ``v`` it brings the game to (+1
per event) and ``to``: None for every viewer, or the one seat that may see it
(the service sends others a ``hidden`` placeholder). Its ``body`` is one of the
kinds below; ``kind`` is its ``type`` on the wire, and the frame is
``{"type": kind, "game": GID, "v": v, **plain(body)}`` (:mod:`.plain`: cells
as ``[r, c]``, a field left at its default not sent). A new game has ``v == 0``
and no events (the service pushes full views).

Order within one turn: the action's event (placed / mistake / taken /
exchanged / swapped / timeout), any ``*_lapsed``, ``hand`` (to the mover, if it
changed), then ``finished``, or any ``passed`` and one ``turn``. A loss on time
is a bare ``finished`` with ``by: "time"``; an abort a bare ``finished`` with
``by: "aborted"``; a first move lost to the clock is a ``timeout`` then that
``finished`` (RULES.md §7 [decided]). A long catch-up folds its timeouts into
one ``timeouts`` (see :mod:`.catchup`).
"""

from __future__ import annotations

from dataclasses import field
from typing import TYPE_CHECKING, ClassVar

from numbridge.values import frozen

from .counts import BlockCounts, SeatClocks, SeatCounts
from .seats import Seat
from .state import Result

if TYPE_CHECKING:
    from .state import GameState


class EventBody:
    """What one event says; each kind is a frozen dataclass below."""

    kind: ClassVar[str]


@frozen
class Placed(EventBody):
    """A correct placement: the cell is now the seat's."""

    kind: ClassVar[str] = "placed"
    seat: Seat
    cell: tuple[int, int]
    digit: int


@frozen
class Mistake(EventBody):
    """A wrong digit, public (RULES.md §5): the cell stays empty, the tile went back to the bag."""

    kind: ClassVar[str] = "mistake"
    seat: Seat
    cell: tuple[int, int]
    digit: int


@frozen
class Taken(EventBody):
    """A clue taken: the cell is now the seat's."""

    kind: ClassVar[str] = "taken"
    seat: Seat
    cell: tuple[int, int]
    paid: int
    """tiles (0, 1 or 2) that went to the bag; which ones is not public"""


@frozen
class Exchanged(EventBody):
    """The seat's hand went into the bag and a new hand was drawn."""

    kind: ClassVar[str] = "exchanged"
    seat: Seat
    count: int
    """the tiles that went into the bag"""


@frozen
class Swapped(EventBody):
    """Pie rule: red took over blue's first cell."""

    kind: ClassVar[str] = "swapped"
    seat: Seat
    cell: tuple[int, int]


@frozen
class Timeout(EventBody):
    """The move limit passed: the move (Domains: the rest of the pair) is lost, the hand refills."""

    kind: ClassVar[str] = "timeout"
    seat: Seat


@frozen
class Passed(EventBody):
    """Automatic pass: empty hand, empty bag, no free clue (Domains: the rest of the pair)."""

    kind: ClassVar[str] = "passed"
    seat: Seat


@frozen
class Timeouts(EventBody):
    """A long catch-up folded: moves lost to the clock beyond those sent one by one."""

    kind: ClassVar[str] = "timeouts"
    count: int
    """moves lost to the clock; each of the ``count + passes`` folded turns counts as played"""
    seats: SeatCounts
    """``count`` per seat"""
    passes: int
    """automatic passes folded in among those moves; ``hand`` and the closing ``turn`` follow"""


@frozen
class Hand(EventBody):
    """The receiver's own tiles, after every change (only ever sent to that seat)."""

    kind: ClassVar[str] = "hand"
    hand: tuple[int, ...]


@frozen
class Turn(EventBody):
    """The public summary closing every turn and a resume."""

    kind: ClassVar[str] = "turn"
    turn: Seat | None
    """the seat to move"""
    deadline_ms: int | None
    """when the player to move loses the move (the earlier of the move limit and their clock)"""
    now_ms: int
    bag: int
    """tiles in the bag"""
    hand_sizes: SeatCounts
    clock_ms: SeatClocks
    mistakes: SeatCounts
    moves_left_in_pair: int | None = None
    """Domains: 2 on the first move of a pair, 1 on the last (and on the opening move)"""
    block_table: BlockCounts | None = None
    """Domains"""
    swap_available: bool | None = field(default=None, metadata={"deprecated": True})
    """Bridge/Blitz: the same as ``swap_open``, kept for the clients that read it (a view's
    ``swap_available`` says whether the viewer may swap)"""
    swap_open: bool | None = None
    """Bridge/Blitz: the player to move may swap now (pie rule)"""


@frozen
class DrawOffered(EventBody):
    """The seat offers a draw."""

    kind: ClassVar[str] = "draw_offered"
    seat: Seat


@frozen
class DrawDeclined(EventBody):
    """The seat declined the opponent's draw offer."""

    kind: ClassVar[str] = "draw_declined"
    seat: Seat


@frozen
class DrawLapsed(EventBody):
    """The seat's draw offer lapsed: its receiver made a move."""

    kind: ClassVar[str] = "draw_lapsed"
    seat: Seat


@frozen
class AdjournOffered(EventBody):
    """The seat offers to adjourn."""

    kind: ClassVar[str] = "adjourn_offered"
    seat: Seat


@frozen
class AdjournLapsed(EventBody):
    """The seat's adjournment offer lapsed: its receiver made a move."""

    kind: ClassVar[str] = "adjourn_lapsed"
    seat: Seat


@frozen
class Adjourned(EventBody):
    """The game is adjourned: the seat accepted (or, with ``auto``, lost the fourth turn)."""

    kind: ClassVar[str] = "adjourned"
    seat: Seat
    clock_ms: SeatClocks
    """the clocks, stopped"""
    auto: bool = False
    """adjourned by the rules (RULES.md §7 [decided]: no game clock and four turns in a row
    lost to the clock); it resumes like any adjourned game"""


@frozen
class ResumeRequested(EventBody):
    """The seat asks to resume the adjourned game."""

    kind: ClassVar[str] = "resume_requested"
    seat: Seat


@frozen
class Resumed(EventBody):
    """The second request: play goes on (a ``turn`` follows)."""

    kind: ClassVar[str] = "resumed"
    seat: Seat


@frozen
class Finished(EventBody):
    """The game is over."""

    kind: ClassVar[str] = "finished"
    result: Result


EVENT_KINDS: tuple[type[EventBody], ...] = (
    Placed, Mistake, Taken, Exchanged, Swapped, Timeout, Timeouts, Passed, Hand, Turn,
    DrawOffered, DrawDeclined, DrawLapsed, AdjournOffered, AdjournLapsed, Adjourned,
    ResumeRequested, Resumed, Finished,
)


@frozen
class Event:
    """One event at version ``v``, for every viewer (``to=None``) or for one seat only."""

    v: int
    body: EventBody
    to: Seat | None = None

    @property
    def kind(self) -> str:
        return self.body.kind


@frozen
class Transition:
    """The new state and the events that led to it (in order)."""

    state: GameState
    events: tuple[Event, ...] = ()
