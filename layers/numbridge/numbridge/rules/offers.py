"""Resigning, offers and adjournment (RULES.md §7): resign, draw offers, adjournment and resuming.

[decided] An offer lapses when its receiver makes a move (see :mod:`.flow`);
offering while the opponent's same offer is pending is an acceptance; draws
may be offered and agreed while the game is adjourned, adjournment only while
it is being played. Adjourning charges the mover's time so far to their game
clock and stops both clocks; resuming (both players ask) gives the player to
move a fresh move limit, game clocks as they were.

[decided] A game without a game clock in which four turns in a row are lost to
the clock is adjourned automatically (:func:`adjourn` with ``auto``, called by
:mod:`.catchup`); it resumes like any adjourned game.
"""

from __future__ import annotations

from collections.abc import Callable

from .actions import (
    AcceptAdjourn,
    AcceptDraw,
    DeclineDraw,
    OfferAdjourn,
    OfferDraw,
    Resign,
    Resume,
    any_time,
    describe,
)
from .counts import SeatClocks
from .draft import Draft
from .errors import IllegalAction
from .events import (
    Adjourned,
    AdjournOffered,
    DrawDeclined,
    DrawOffered,
    EventBody,
    Resumed,
    ResumeRequested,
)
from .flow import finish
from .seats import Seat, other
from .state import RecordEntry, Result
from .views import turn_summary


def _settle(d: Draft, now_ms: int) -> None:
    """Charge the mover's running time before the clocks stop."""
    if d.status == "playing":
        d.charge(now_ms)


@any_time(Resign)
def resign(d: Draft, seat: Seat, action: Resign, now_ms: int) -> None:
    _settle(d, now_ms)
    d.note(RecordEntry(seat=seat, action="resign", at_ms=now_ms))
    finish(d, Result(winner=other(seat), by="resign"))


_OFFER_NOUN = {"draw": "a draw", "adjourn": "an adjournment"}
_OFFERED: dict[str, Callable[[Seat], EventBody]] = {
    "draw": DrawOffered, "adjourn": AdjournOffered,
}


def _offer(d: Draft, seat: Seat, kind: str, what: str, accept: Callable[[], None]) -> None:
    """Make an offer; offering what the opponent has already offered accepts it."""
    offerer = d.offers[kind]
    if offerer == seat:
        raise IllegalAction(f"{what}: you have already offered {_OFFER_NOUN[kind]}")
    if offerer == other(seat):
        accept()
        return
    d.offers[kind] = seat
    d.emit(_OFFERED[kind](seat))


@any_time(OfferDraw)
def offer_draw(d: Draft, seat: Seat, action: OfferDraw, now_ms: int) -> None:
    _offer(d, seat, "draw", describe(action),
           lambda: accept_draw(d, seat, AcceptDraw(), now_ms))


def _check_offer(d: Draft, seat: Seat, kind: str, what: str) -> None:
    if d.offers[kind] != other(seat):
        raise IllegalAction(f"{what}: {other(seat)} has not offered {_OFFER_NOUN[kind]}")


@any_time(AcceptDraw)
def accept_draw(d: Draft, seat: Seat, action: AcceptDraw, now_ms: int) -> None:
    _check_offer(d, seat, "draw", describe(action))
    _settle(d, now_ms)
    d.note(RecordEntry(seat=seat, action="draw", at_ms=now_ms))
    finish(d, Result(winner=None, by="agreement"))


@any_time(DeclineDraw)
def decline_draw(d: Draft, seat: Seat, action: DeclineDraw, now_ms: int) -> None:
    _check_offer(d, seat, "draw", describe(action))
    d.offers["draw"] = None
    d.emit(DrawDeclined(seat))


@any_time(OfferAdjourn)
def offer_adjourn(d: Draft, seat: Seat, action: OfferAdjourn, now_ms: int) -> None:
    what = describe(action)
    if d.status != "playing":
        raise IllegalAction(f"{what}: the game is already adjourned")
    _offer(d, seat, "adjourn", what, lambda: accept_adjourn(d, seat, AcceptAdjourn(), now_ms))


@any_time(AcceptAdjourn)
def accept_adjourn(d: Draft, seat: Seat, action: AcceptAdjourn, now_ms: int) -> None:
    what = describe(action)
    if d.status != "playing":
        raise IllegalAction(f"{what}: the game is already adjourned")
    _check_offer(d, seat, "adjourn", what)
    _settle(d, now_ms)
    adjourn(d, seat, now_ms)


def adjourn(d: Draft, seat: Seat, at_ms: int, *, auto: bool = False) -> None:
    """Stop both clocks. ``seat`` accepted the offer, or (``auto``) lost the fourth
    turn in a row to the clock in a game without a game clock (see :mod:`.catchup`)."""
    d.status = "adjourned"
    d.offers["adjourn"] = None
    d.resume = {"blue": False, "red": False}
    d.note(RecordEntry(seat=seat, action="auto_adjourn" if auto else "adjourn", at_ms=at_ms))
    d.emit(Adjourned(seat, SeatClocks.of(lambda s: d.clocks[s]), auto=auto))


@any_time(Resume)
def resume(d: Draft, seat: Seat, action: Resume, now_ms: int) -> None:
    what = describe(action)
    if d.status != "adjourned":
        raise IllegalAction(f"{what}: the game is not adjourned")
    if d.resume[seat]:
        raise IllegalAction(f"{what}: you have already asked to resume")
    if not d.resume[other(seat)]:
        d.resume[seat] = True
        d.emit(ResumeRequested(seat))
        return
    d.resume = {"blue": False, "red": False}
    d.status = "playing"
    d.turn_started = now_ms
    d.note(RecordEntry(seat=seat, action="resume", at_ms=now_ms))
    d.emit(Resumed(seat))
    d.emit(turn_summary(d.freeze(), now_ms))
