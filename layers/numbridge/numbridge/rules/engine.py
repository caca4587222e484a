"""The engine's entry points: deal a game, apply an action, apply what is due.

``apply`` first applies whatever is due at ``now_ms`` (as ``advance`` does),
then the action. If the action is refused, the error is raised and nothing is
returned: timeouts that were due stay due (the service's timer or sweep calls
``advance`` for them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from numbridge.rules.seats import NOBODY

from . import abort, club, moves, tiles, turns
from .actions import (
    Abort,
    AcceptAdjourn,
    AcceptDraw,
    Action,
    DeclineDraw,
    Exchange,
    OfferAdjourn,
    OfferDraw,
    Place,
    Resign,
    Resume,
    Swap,
    Take,
    check_structure,
    describe,
)
from .catchup import catch_up
from .draft import Draft
from .errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from .events import Transition
from .geometry import Layout
from .options import Board, GameOptions
from .seats import SEATS, Seat, is_seat
from .state import GameState, Side
from .views import next_deadline


def new_game(
    game_id: str,
    options: GameOptions,
    board: Board,
    players: Mapping[Seat, str],
    rng: random.Random,
    now_ms: int,
) -> GameState:
    """Deal: the bag holds the solution digits of the empty cells; each player draws 3."""
    if board.size != options.size:
        raise ValueError(f"a {board.size}x{board.size} board for a size-{options.size} game")
    if options.blocks == "regular" and board.layout != Layout.regular(board.size):
        raise ValueError("the options ask for regular blocks but the layout is irregular")
    if set(players) != set(SEATS) or not all(isinstance(players[s], str) for s in SEATS):
        raise ValueError("players must name exactly a blue and a red player")
    bag = tiles.tiles_for(board.solution, board.givens)
    hands = {seat: tiles.draw(bag, tiles.HAND_SIZE, rng) for seat in SEATS}
    owners = NOBODY * (board.size * board.size)
    seat, moves_left = turns.opening()
    sides = {
        s: Side(name=players[s], hand=tuple(hands[s]), mistakes=0, clock_ms=options.game_ms)
        for s in SEATS
    }
    return GameState(
        game_id=game_id,
        v=0,
        options=options,
        board=board,
        digits=board.givens,
        owners=owners,
        bag=tuple(bag),
        blue=sides["blue"],
        red=sides["red"],
        status="playing",
        to_move=seat,
        moves_left_in_pair=moves_left,
        turn_started_ms=now_ms,
        turns_played=0,
    )


def advance(state: GameState, now_ms: int, rng: random.Random) -> Transition:
    """Apply the timeouts and losses on time due at ``now_ms``, in order."""
    due = next_deadline(state)
    if due is None or due > now_ms:
        return Transition(state, ())
    d = Draft(state)
    catch_up(d, now_ms, rng)
    return Transition(d.freeze(), tuple(d.events))


Handler = Callable[[Draft, Seat, Any, int, random.Random], None]
ClubHandler = Callable[[Draft, Seat, Any, int], None]

_TURN_HANDLERS: dict[type, Handler] = {
    Place: moves.place,
    Take: moves.take,
    Exchange: moves.exchange,
    Swap: moves.swap,
}
_CLUB_HANDLERS: dict[type, ClubHandler] = {
    Resign: club.resign,
    OfferDraw: club.offer_draw,
    AcceptDraw: club.accept_draw,
    DeclineDraw: club.decline_draw,
    OfferAdjourn: club.offer_adjourn,
    AcceptAdjourn: club.accept_adjourn,
    Resume: club.resume,
    Abort: abort.abort,
}


def check_seat(seat: object, what: str) -> Seat:
    if not is_seat(seat):
        raise MalformedAction(f"{what}: the seat must be 'blue' or 'red', not {seat!r}")
    return seat


def apply(
    state: GameState, seat: Seat, action: Action, now_ms: int, rng: random.Random
) -> Transition:
    """Apply what is due at ``now_ms``, then ``seat``'s action; raise a RulesError if refused."""
    check_structure(action)
    if not is_seat(seat):
        check_seat(seat, describe(action))
    if state.status == "finished":
        raise GameOver(f"{describe(action)}: the game is over")
    d = Draft(state)
    catch_up(d, now_ms, rng)
    if d.status == "finished":
        raise GameOver(f"{describe(action)}: the game is over (time ran out)")
    turn_handler = _TURN_HANDLERS.get(type(action))
    if turn_handler is not None:
        if d.status != "playing":
            raise IllegalAction(f"{describe(action)}: the game is adjourned")
        if seat != d.to_move:
            raise NotYourTurn(f"{describe(action)}: it is {d.to_move}'s turn")
        turn_handler(d, seat, action, now_ms, rng)
    else:
        _CLUB_HANDLERS[type(action)](d, seat, action, now_ms)
    return Transition(d.freeze(), tuple(d.events))
