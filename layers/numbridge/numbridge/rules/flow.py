"""The shared steps of every turn: ending a turn, starting the next, auto passes, the end.

Order of events for one turn: the action's own event (``placed``, ``mistake``,
``taken``, ``exchanged``, ``swapped``, ``timeout``), then ``draw_lapsed`` /
``adjourn_lapsed`` if the mover received an offer, then ``hand`` (to the mover,
if their hand changed), then either ``finished`` or any ``passed`` and a
closing ``turn`` summary.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from . import tiles, turns
from .draft import Draft
from .events import AdjournLapsed, DrawLapsed, EventBody, Finished, Hand, Passed
from .goals import goal_reached
from .seats import Seat, other
from .state import RecordEntry, Result
from .views import turn_summary


def emit_hand(d: Draft, seat: Seat, before: Sequence[int]) -> None:
    if list(before) != d.hands[seat]:
        d.emit(Hand(tuple(d.hands[seat])), to=seat)


_LAPSED: dict[str, Callable[[Seat], EventBody]] = {
    "draw": DrawLapsed, "adjourn": AdjournLapsed,
}


def lapse_offers(d: Draft, mover: Seat) -> None:
    """RULES.md §7 [decided]: an offer lapses when its receiver makes a move."""
    for kind, lapsed in _LAPSED.items():
        offerer = d.offers[kind]
        if offerer is not None and offerer == other(mover):
            d.offers[kind] = None
            d.emit(lapsed(offerer))


def finish(d: Draft, result: Result) -> None:
    d.status = "finished"
    d.result = result
    d.offers = {"draw": None, "adjourn": None}
    d.resume = {"blue": False, "red": False}
    d.emit(Finished(result))


def goal_result(d: Draft, mover: Seat) -> Result | None:
    """The result if the variant's goal is reached, else None."""
    reached = goal_reached(d.options.variant, d.owners, d.board.layout, mover)
    if reached is None:
        return None
    table = reached.table
    return Result(
        winner=reached.winner,
        by="goal",
        path=reached.path,
        blocks=reached.blocks,
        block_table=None if table is None else table.counts(),
    )


def end_turn(
    d: Draft,
    seat: Seat,
    at_ms: int,
    rng: random.Random,
    hand_before: Sequence[int],
    *,
    refill: bool = True,
    lost_pair: bool = False,
    by_move: bool = True,
) -> None:
    """Close the mover's turn: offers, goal, refill, then hand the move on.

    ``refill=False`` after a take that cost 2 (no refill until the end of the
    taker's next turn); ``lost_pair`` after a timeout (Domains: the pair is
    lost); ``by_move`` when the player acted (offers to them lapse).
    """
    d.turns_played += 1
    if by_move:
        lapse_offers(d, seat)
    result = goal_result(d, seat)
    if result is not None:
        emit_hand(d, seat, hand_before)
        finish(d, result)
        return
    if refill:
        tiles.refill(d.hands[seat], d.bag, rng)
    emit_hand(d, seat, hand_before)
    variant = d.options.variant
    if lost_pair:
        nxt, moves = turns.after_lost_pair(variant, seat)
    else:
        nxt, moves = turns.after_move(variant, seat, d.moves_left)
    start_turn(d, nxt, moves, at_ms)
    d.emit(turn_summary(d.freeze(), at_ms))


def start_turn(d: Draft, seat: Seat, moves_left: int, at_ms: int) -> None:
    """Give the move to ``seat``, passing automatically while it has nothing to play."""
    d.to_move, d.moves_left, d.turn_started = seat, moves_left, at_ms
    passes = 0
    while d.must_pass(d.to_move):
        passes += 1
        if passes > 2:  # both must pass: every cell is owned, so a goal was reached
            raise RuntimeError("both players have nothing to play but the game goes on")
        mover = d.to_move
        d.turns_played += 1
        d.note(RecordEntry(seat=mover, action="pass", at_ms=at_ms))
        d.emit(Passed(mover))
        d.to_move, d.moves_left = turns.after_lost_pair(d.options.variant, mover)
