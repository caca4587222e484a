"""Candidate highlighting (RULES.md §8): where a digit may stand under the sudoku rule.

Computed from the digits on the board only — never from the solution — so
not every highlighted cell is right.
"""

from __future__ import annotations

from numbridge.rules.seats import EMPTY

from .actions import is_int
from .engine import check_seat
from .errors import GameOver, IllegalAction, MalformedAction
from .geometry import cell_of, peer_table
from .seats import Seat
from .state import GameState


def candidates(state: GameState, seat: Seat, digit: int) -> list[tuple[int, int]]:
    """Empty cells where ``digit`` (a tile in the seat's hand) breaks no row, column or block."""
    what = f"candidates {digit!r}"
    check_seat(seat, what)
    if not is_int(digit):
        raise MalformedAction(f"{what}: the digit must be an integer")
    if state.status == "finished":
        raise GameOver(f"{what}: the game is over")
    if not state.options.highlighting:
        raise IllegalAction(f"{what}: candidate highlighting is off in this game")
    if digit not in state.hand(seat):
        raise IllegalAction(f"{what}: you hold no {digit}")
    mark = str(digit)
    peers = peer_table(state.board.layout)
    size = state.size
    digits = state.digits
    return [
        cell_of(i, size)
        for i, d in enumerate(digits)
        if d == EMPTY and all(digits[p] != mark for p in peers[i])
    ]
