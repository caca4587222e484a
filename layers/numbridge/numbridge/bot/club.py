"""The club buttons: answering draw and adjournment offers, resuming adjourned games.

The bot never offers a draw or an adjournment itself. It accepts a draw when
it is behind — on blocks (Domains), on the race of connections (Bridge and
Blitz), or on time — and declines otherwise; it agrees to adjourn (a person
may have to go) and always asks to resume, so that play goes on as soon as
the person asks too.
"""

from __future__ import annotations

from typing import Literal

from .blocks import counts
from .hex_distance import shortest
from .position import Position

Reply = Literal["accept_draw", "decline_draw", "accept_adjourn", "resume"]

# Behind on time: less than this share of the opponent's remaining game time,
# and less than this many move limits left.
TIME_SHARE = 0.5
MOVES_LEFT = 3


def behind(position: Position) -> bool:
    mine, theirs = position.my_clock_ms, position.their_clock_ms
    if (
        mine is not None
        and theirs is not None
        and mine < TIME_SHARE * theirs
        and mine < MOVES_LEFT * position.move_ms
    ):
        return True
    if position.variant == "domains":
        majority = position.size // 2 + 1
        table = counts(position.owners, tuple(int(b) for b in position.blocks),
                       position.size, position.me)
        won = sum(1 for b in table if b.mine >= majority)
        lost = sum(1 for b in table if b.theirs >= majority)
        return won < lost
    to_go = shortest(position.owners, position.size, position.me).distance
    their_to_go = shortest(position.owners, position.size, position.them).distance
    # the side to move is half a move ahead
    lead = 1 if position.turn == position.me else 0
    return to_go > their_to_go + lead


def club_reply(position: Position) -> Reply | None:
    """The answer due to an offer or an adjournment, or None."""
    if position.status == "finished":
        return None
    if position.draw_offer == position.them:
        return "accept_draw" if behind(position) else "decline_draw"
    if position.status == "adjourned":
        return None if position.me in position.resume_requested else "resume"
    if position.adjourn_offer == position.them:
        return "accept_adjourn"
    return None
