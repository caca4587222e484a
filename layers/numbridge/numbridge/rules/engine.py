"""The engine's entry points: apply an action, apply what is due, ask whether an
action is legal (a new game is dealt by :mod:`.setup`).

``apply`` first applies whatever is due at ``now_ms`` (as ``advance`` does),
then the action, as one transition. A refused action raises, and the error
carries what was due (``RulesError.due``): the caller commits that alone.
"""

from __future__ import annotations

import random

# The modules that register the actions' rules (actions.on_turn / any_time).
from . import abort, moves, offers  # noqa: F401
from .actions import (
    ANY_TIME_HANDLERS,
    TURN_HANDLERS,
    Action,
    check_structure,
    describe,
)
from .catchup import catch_up
from .draft import Draft
from .errors import GameOver, IllegalAction, MalformedAction, NotYourTurn, RulesError
from .events import Transition
from .seats import Seat, is_seat
from .state import GameState
from .views import next_deadline


def advance(state: GameState, now_ms: int, rng: random.Random) -> Transition:
    """Apply the timeouts and losses on time due at ``now_ms``, in order."""
    due = next_deadline(state)
    if due is None or due > now_ms:
        return Transition(state, ())
    d = Draft(state)
    catch_up(d, now_ms, rng)
    return Transition(d.freeze(), tuple(d.events))


def apply(
    state: GameState, seat: Seat, action: Action, now_ms: int, rng: random.Random
) -> Transition:
    """What is due at ``now_ms`` (as :func:`advance`), then ``seat``'s action, as one
    transition. A refused action raises its :class:`RulesError` carrying in ``due``
    what was due: that stands whatever became of the action."""
    d = Draft(state)
    catch_up(d, now_ms, rng)
    due = Transition(d.freeze(), tuple(d.events)) if d.events else None
    try:
        check_structure(action)
        check_seat(seat, describe(action))
        if state.status == "finished":
            raise GameOver(f"{describe(action)}: the game is over")
        _apply(d, seat, action, now_ms, rng)
    except RulesError as refused:
        refused.due = due
        raise
    return Transition(d.freeze(), tuple(d.events))


def legal(state: GameState, seat: Seat, action: Action, now_ms: int) -> RulesError | None:
    """Why ``seat``'s action would be refused at ``now_ms``, or None: a query, nothing
    changes (legality never depends on the tiles a draw would bring)."""
    try:
        apply(state, seat, action, now_ms, random.Random(0))
    except RulesError as refused:
        return refused
    return None


def _apply(d: Draft, seat: Seat, action: Action, now_ms: int, rng: random.Random) -> None:
    if d.status == "finished":
        raise GameOver(f"{describe(action)}: the game is over (time ran out)")
    on_turn = TURN_HANDLERS.get(type(action))
    if on_turn is None:
        ANY_TIME_HANDLERS[type(action)](d, seat, action, now_ms)
        return
    if d.status != "playing":
        raise IllegalAction(f"{describe(action)}: the game is adjourned")
    if seat != d.to_move:
        raise NotYourTurn(f"{describe(action)}: it is {d.to_move}'s turn")
    on_turn(d, seat, action, now_ms, rng)


def check_seat(seat: object, what: str) -> Seat:
    if not is_seat(seat):
        raise MalformedAction(f"{what}: the seat must be 'blue' or 'red', not {seat!r}")
    return seat
