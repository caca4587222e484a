"""Applying the deadlines that passed while nobody acted (RULES.md §6, §7).

A game whose timers were not delivered (a stopped server, a long outage) may
owe many timeouts at once. Whatever their number, one catch-up produces a
bounded number of events, because the service commits them together with the
state in one transaction:

- RULES.md §7 [decided]: in a room without a game clock, four turns in a row
  lost to the clock adjourn the game (an ``adjourned`` event with
  ``auto: true``; clocks frozen; it resumes like any adjourned game).
  Automatic passes between those turns neither count nor break the run: a
  pass is not a player's act, so it says nothing about who is still there.
- RULES.md §7 [decided]: a player's first move lost to the clock aborts the
  game (a ``timeout``, then ``finished`` with ``by: "aborted"``), so a
  catch-up that reaches one stops there.
- In a room with a game clock the run ends in a loss on time. Past the first
  :data:`SHOWN_EVENTS` events the rest is folded: one ``timeouts`` event
  counts the moves lost per seat (and the automatic passes among them), then
  a ``hand`` to each seat whose hand changed, then the closing events of the
  last step (``passed``, ``turn``, ``finished`` or ``adjourned``). The state
  is exactly what the unfolded catch-up makes (the record keeps every
  timeout); only the events are summarised, and ``v`` still rises by one per
  event.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import abort, moves, offers
from .counts import SeatCounts
from .draft import Draft
from .events import Event, Hand, Passed, Timeout, Timeouts
from .seats import SEATS
from .state import RecordEntry
from .views import turn_summary

# RULES.md §7 [decided]: this many turns in a row lost to the clock adjourn a game
# without a game clock.
ABANDON_AFTER = 4
# Events shown one by one before the rest of a catch-up is folded. One step
# makes at most six (timeout, hand, two passes, turn, adjourned) and the fold
# closes with at most seven, so a catch-up stays under 30 events; with the
# action that may follow it, a commit stays far below DynamoDB's 100 items.
SHOWN_EVENTS = 16
# A safety net for rooms whose game clock allows very many timeouts: past this
# many steps the player to move gets a fresh move limit from now (the record,
# kept in the state item, must stay small).
MAX_STEPS = 200


def lost_in_a_row(record: Sequence[RecordEntry]) -> int:
    """Turns lost to the clock at the end of the record, automatic passes skipped."""
    run = 0
    for entry in reversed(record):
        if entry.action == "timeout":
            run += 1
        elif entry.action != "pass":
            break
    return run


def abandoned(d: Draft) -> bool:
    """RULES.md §7 [decided]: no game clock and four turns in a row lost to the clock."""
    return d.options.game_ms is None and lost_in_a_row(d.record) >= ABANDON_AFTER


class _Fold:
    """Remembers where folding began; ``close`` replaces what followed by a summary."""

    def __init__(self, d: Draft) -> None:
        self.mark = len(d.events)
        self.v = d.v
        self.hands = {seat: list(d.hands[seat]) for seat in SEATS}

    def close(self, d: Draft) -> None:
        muted = d.events[self.mark:]
        lost = [i for i, e in enumerate(muted) if isinstance(e.body, Timeout)]
        if not lost:  # only a loss on time followed: nothing to fold
            return
        del d.events[self.mark:]
        d.v = self.v
        losers = [e.body.seat for e in muted if isinstance(e.body, Timeout)]
        passes = sum(1 for e in muted[:lost[-1]] if isinstance(e.body, Passed))
        d.emit(Timeouts(len(lost), SeatCounts.of(losers.count), passes))
        for seat in SEATS:
            if d.hands[seat] != self.hands[seat]:
                d.emit(Hand(tuple(d.hands[seat])), to=seat)
        for e in _closing(muted[lost[-1] + 1:]):
            d.emit(e.body, e.to)


def _closing(tail: Sequence[Event]) -> list[Event]:
    """The events after the last folded timeout, less the hands (sent from the fold)."""
    return [e for e in tail if not isinstance(e.body, Hand)]


def catch_up(d: Draft, now_ms: int, rng: random.Random) -> None:
    """Apply every deadline due at ``now_ms``, in order, within the event bound."""
    start = len(d.events)
    fold: _Fold | None = None
    steps = 0
    while d.status == "playing" and d.deadline().at_ms <= now_ms:
        if steps >= MAX_STEPS:
            d.turn_started = now_ms
            d.emit(turn_summary(d.freeze(), now_ms))
            break
        if fold is None and len(d.events) - start >= SHOWN_EVENTS:
            fold = _Fold(d)
        seat, at_ms = d.to_move, d.deadline().at_ms
        if abort.first_move_lost(d):  # RULES.md §7 [decided]: the game is aborted
            abort.abort_on_clock(d)
            break
        moves.time_out(d, rng)
        steps += 1
        if d.status == "playing" and abandoned(d):
            offers.adjourn(d, seat, at_ms, auto=True)
    if fold is not None:
        fold.close(d)
