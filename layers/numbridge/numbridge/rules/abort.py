"""Aborting a game that has not really begun (RULES.md §7 [decided]).

Until each player has made a first move (a placement, a take, an exchange or a
swap; a mistake counts), either player may abort: the game ends with no
winner, unrated. A first move lost to the clock aborts the game by itself:
whoever did not move was most likely never there, and a game won that way
would say nothing about either player.
"""

from __future__ import annotations

from . import clocks
from .actions import Abort, any_time, describe
from .draft import Draft
from .errors import IllegalAction
from .events import Timeout
from .first_moves import abortable, has_moved
from .flow import finish
from .seats import Seat
from .state import RecordEntry, Result


@any_time(Abort)
def abort(d: Draft, seat: Seat, action: Abort, now_ms: int) -> None:
    if not abortable(d.status, d.record):
        raise IllegalAction(f"{describe(action)}: both players have moved; resign instead")
    if d.status == "playing":
        d.charge(now_ms)
    _end(d, seat, now_ms)


def first_move_lost(d: Draft) -> bool:
    """The mover's deadline is their first move's: losing it aborts the game."""
    return not has_moved(d.record, d.to_move)


def abort_on_clock(d: Draft) -> None:
    """The mover lost their first move to the clock: a ``timeout``, then the end."""
    seat, due = d.to_move, d.deadline()
    used = due.at_ms - d.turn_started
    d.clocks[seat] = clocks.remaining(d.clocks[seat], used)
    d.turn_started = due.at_ms
    d.emit(Timeout(seat))
    d.note(RecordEntry(seat=seat, action="timeout", time_ms=used, at_ms=due.at_ms))
    d.turns_played += 1  # the turn was lost, as every turn the record holds
    _end(d, seat, due.at_ms)


def _end(d: Draft, seat: Seat, at_ms: int) -> None:
    d.note(RecordEntry(seat=seat, action="abort", at_ms=at_ms))
    finish(d, Result(winner=None, by="aborted"))
