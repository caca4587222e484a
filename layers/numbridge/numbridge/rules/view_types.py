"""The VIEW, field by field: what one player (or a spectator) may know of a game.

:mod:`.views` makes it; it goes out as :func:`.plain.plain` makes it (the
fields left at their default absent). Beyond docs/contract.md's VIEW:
``last_mistake``, ``resume_requested``, ``block_owners``, ``moves``,
``abortable``, ``swap_open``, ``grade``, ``tournament``, and what the service adds:
``players.SEAT.online``, ``offers.rematch`` and ``rematch``.
"""

from __future__ import annotations

from collections.abc import Callable

from numbridge.values import frozen

from .counts import BlockCounts
from .seats import BlockKind, Grade, Seat, Status, Variant
from .state import LastMistake, Result


@frozen(kw_only=True)
class PlayerInfo:
    """One player's public side."""

    name: str
    hand_size: int
    mistakes: int
    clock_ms: int | None
    """remaining game time as of the view's ``now_ms`` (null: no game clock)"""
    online: bool | None = None
    """whether the player has a connection open (the service's knowledge, added by it)"""


@frozen
class Players:
    """Both players' public sides."""

    blue: PlayerInfo
    red: PlayerInfo

    @classmethod
    def of(cls, info: Callable[[Seat], PlayerInfo]) -> Players:
        return cls(blue=info("blue"), red=info("red"))


@frozen
class Offers:
    """Pending offers."""

    draw: Seat | None
    """the seat with a pending draw offer"""
    adjourn: Seat | None
    """the seat with a pending adjournment offer"""
    rematch: Seat | None = None
    """a finished game: the seat whose rematch offer stands (the service's knowledge,
    added by it)"""


@frozen(kw_only=True)
class ViewOptions:
    """The game's options, as its players see them."""

    blocks: BlockKind
    clues: int
    take_price: int
    move_ms: int
    game_ms: int | None
    highlighting: bool
    rated: bool


@frozen(kw_only=True)
class View:
    """What one player (or a spectator, without ``you`` and ``hand``) may know."""

    game: str
    v: int
    room: str
    variant: Variant
    size: int
    blocks: str
    digits: str
    owners: str
    clues: str
    you: Seat | None = None
    """the viewer's seat (absent for a spectator)"""
    players: Players
    hand: tuple[int, ...] | None = None
    """the viewer's own tiles (absent for a spectator)"""
    bag: int
    turn: Seat | None
    now_ms: int
    deadline_ms: int | None
    status: Status
    result: Result | None
    offers: Offers
    options: ViewOptions
    last_mistake: LastMistake | None
    """the most recent mistake, public (RULES.md §5)"""
    resume_requested: tuple[Seat, ...]
    """the seats that asked to resume an adjourned game"""
    moves: int
    """turns played so far"""
    abortable: bool
    """the game may still be aborted: a player has not made a first move"""
    moves_left_in_pair: int | None = None
    """Domains: 2 on the first move of a pair, 1 on the last (and on the opening move)"""
    block_table: BlockCounts | None = None
    """Domains"""
    block_owners: str | None = None
    """Domains: each block's owner, 'b', 'r' or '.' (undecided)"""
    swap_available: bool | None = None
    """Bridge/Blitz: the viewer may swap now (pie rule); a spectator's is ``swap_open``"""
    swap_open: bool | None = None
    """Bridge/Blitz: the player to move may swap now (pie rule), as in ``turn``"""
    rematch: str | None = None
    """a finished game's rematch, once dealt (the service's knowledge, added by it)"""
    grade: Grade | None = None
    """how hard the board is: the hardest reading its solution needs from the givens,
    the coach's ladder (docs/coach.md)"""
    tournament: str | None = None
    """the tournament the game is played in (absent: an ordinary game)"""
