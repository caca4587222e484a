"""Turn actions (RULES.md §4, §5, §6, §10): place, take, exchange, swap, and the move timeout.

Each checks its legality first (raising before any change that matters),
then changes the draft, records the turn and ends it through :mod:`.flow`.
"""

from __future__ import annotations

import random

from numbridge.rules.seats import EMPTY, NOBODY

from . import tiles
from .actions import Exchange, Place, Swap, Take, cell_index, describe, on_turn
from .draft import Draft
from .errors import IllegalAction
from .events import Exchanged, Mistake, Placed, Swapped, Taken, Timeout
from .flow import end_turn, finish
from .geometry import cell_of, index_of
from .pie import pie_cell, why_no_swap
from .seats import MARK, Seat, other
from .state import LastMistake, RecordEntry, Result


def _tile_in_hand(d: Draft, seat: Seat, digit: int, action: Place | Take) -> None:
    n = d.size
    if not 1 <= digit <= n:
        raise IllegalAction(
            f"{describe(action)}: {digit} is not a digit of a {n}x{n} board (1…{n})"
        )
    if digit not in d.hands[seat]:
        raise IllegalAction(f"{describe(action)}: you hold no {digit}")


@on_turn(Place)
def place(d: Draft, seat: Seat, action: Place, now_ms: int, rng: random.Random) -> None:
    i = cell_index(action, d.size)
    r, c = action.cell
    if d.board.givens[i] != EMPTY:
        raise IllegalAction(f"{describe(action)}: cell [{r}, {c}] is a clue")
    if d.digits[i] != EMPTY:
        raise IllegalAction(f"{describe(action)}: cell [{r}, {c}] is already filled")
    digit = action.digit
    _tile_in_hand(d, seat, digit, action)

    used = d.charge(now_ms)
    before = list(d.hands[seat])
    tiles.take_out(d.hands[seat], [digit])
    correct = d.board.solution[i] == str(digit)
    cell = cell_of(i, d.size)
    if correct:
        d.digits[i] = str(digit)
        d.owners[i] = MARK[seat]
        d.emit(Placed(seat, cell, digit))
    else:
        tiles.to_bag(d.bag, [digit])
        d.mistakes[seat] += 1
        v = d.emit(Mistake(seat, cell, digit))
        d.last_mistake = LastMistake(seat, (r, c), digit, v)
    d.note(
        RecordEntry(
            seat=seat,
            action="place",
            cell=(r, c),
            digit=digit,
            mistake=not correct,
            time_ms=used,
            at_ms=now_ms,
            hand=tuple(before),
        )
    )
    end_turn(d, seat, now_ms, rng, before)


@on_turn(Take)
def take(d: Draft, seat: Seat, action: Take, now_ms: int, rng: random.Random) -> None:
    i = cell_index(action, d.size)
    r, c = action.cell
    if d.board.givens[i] == EMPTY:
        raise IllegalAction(f"{describe(action)}: cell [{r}, {c}] is not a clue")
    if d.owners[i] != NOBODY:
        raise IllegalAction(f"{describe(action)}: the clue at [{r}, {c}] is already taken")
    hand = d.hands[seat]
    price = d.options.take_price
    if not hand:
        if action.digit is not None:
            raise IllegalAction(
                f"{describe(action)}: you hold no tiles, so the take is free: send no digit"
            )
        paid: list[int] = []
    else:
        if action.digit is None:
            raise IllegalAction(
                f"{describe(action)}: name the tile you pay with (the price is {price})"
            )
        _tile_in_hand(d, seat, action.digit, action)
        if len(hand) < price:
            raise IllegalAction(
                f"{describe(action)}: the price is {price} tiles and you hold {len(hand)}"
            )
        paid = tiles.pick_payment(hand, action.digit, price, rng)

    used = d.charge(now_ms)
    before = list(hand)
    tiles.take_out(hand, paid)
    tiles.to_bag(d.bag, paid)
    d.owners[i] = MARK[seat]
    d.emit(Taken(seat, cell_of(i, d.size), len(paid)))
    d.note(
        RecordEntry(
            seat=seat,
            action="take",
            cell=(r, c),
            digit=action.digit,
            discarded=tuple(paid),
            time_ms=used,
            at_ms=now_ms,
            hand=tuple(before),
        )
    )
    # RULES.md §4: after a take that cost 2 there is no refill until the end
    # of the taker's next turn.
    end_turn(d, seat, now_ms, rng, before, refill=len(paid) < 2)


@on_turn(Exchange)
def exchange(d: Draft, seat: Seat, action: Exchange, now_ms: int, rng: random.Random) -> None:
    if not d.bag:
        raise IllegalAction(f"{describe(action)}: the bag is empty")
    used = d.charge(now_ms)
    before = list(d.hands[seat])
    returned = tiles.exchange(d.hands[seat], d.bag, rng)
    d.emit(Exchanged(seat, len(returned)))
    d.note(
        RecordEntry(
            seat=seat, action="exchange", discarded=tuple(returned), time_ms=used,
            at_ms=now_ms, hand=tuple(before),
        )
    )
    end_turn(d, seat, now_ms, rng, before)


@on_turn(Swap)
def swap(d: Draft, seat: Seat, action: Swap, now_ms: int, rng: random.Random) -> None:
    variant = d.options.variant
    cell = pie_cell(variant, d.status, d.to_move, d.turns_played, d.record)
    if cell is None or seat != "red":
        raise IllegalAction(f"{describe(action)}: {why_no_swap(variant, d.turns_played)}")
    r, c = cell
    i = index_of(r, c, d.size)
    used = d.charge(now_ms)
    d.owners[i] = MARK[seat]
    d.emit(Swapped(seat, cell))
    d.note(RecordEntry(seat=seat, action="swap", cell=cell, time_ms=used, at_ms=now_ms))
    end_turn(d, seat, now_ms, rng, list(d.hands[seat]))


def time_out(d: Draft, rng: random.Random) -> None:
    """The mover's deadline has passed: lose the move (the pair in Domains) or the game."""
    seat = d.to_move
    due = d.deadline()
    if due.on_time:
        used = due.at_ms - d.turn_started
        d.clocks[seat] = 0
        d.turn_started = due.at_ms
        d.note(RecordEntry(seat=seat, action="time", time_ms=used, at_ms=due.at_ms))
        finish(d, Result(winner=other(seat), by="time"))
        return
    move_ms = d.options.move_ms
    clock = d.clocks[seat]
    d.clocks[seat] = None if clock is None else clock - move_ms
    d.emit(Timeout(seat))
    d.note(RecordEntry(seat=seat, action="timeout", time_ms=move_ms, at_ms=due.at_ms))
    end_turn(d, seat, due.at_ms, rng, list(d.hands[seat]), lost_pair=True, by_move=False)
