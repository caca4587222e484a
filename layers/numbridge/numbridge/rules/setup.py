"""A new game: the bag holds the solution digits of the empty cells; each player draws.

Apart from the engine: dealing needs none of the rules of play, so the
functions that deal (the lobby's bot games, the deal function) do not load
them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from . import tiles, turns
from .geometry import Layout
from .options import Board, GameOptions
from .seats import NOBODY, SEATS, Seat
from .state import GameState, Side


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
