"""Turn order (RULES.md §9, §10): alternate in Bridge/Blitz, 1-2-2 in Domains.

``moves_left_in_pair`` counts the current move: 2 on the first move of a
Domains pair, 1 on the last (and on the opening single move); always 1 in
Bridge and Blitz.
"""

from __future__ import annotations

from .seats import Seat, Variant, other

PAIR = 2


def opening() -> tuple[Seat, int]:
    """Blue moves first, one move (also in Domains: A B B A A ...)."""
    return "blue", 1


def pair_length(variant: Variant) -> int:
    return PAIR if variant == "domains" else 1


def after_move(variant: Variant, seat: Seat, moves_left: int) -> tuple[Seat, int]:
    """Who moves after ``seat`` completed a move (a mistake included)."""
    if moves_left > 1:
        return seat, moves_left - 1
    return other(seat), pair_length(variant)


def after_lost_pair(variant: Variant, seat: Seat) -> tuple[Seat, int]:
    """After a timeout or an automatic pass: in Domains the rest of the pair is lost too."""
    return other(seat), pair_length(variant)
