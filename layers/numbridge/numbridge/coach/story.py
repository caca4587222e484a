"""A finished game as its review may see it: everything in the record but the solution.

:func:`story_of` copies out of an archive record only what the players could see
(the board, the moves, each mover's own hand before a turn); a :class:`Story` has
no field that could hold the solution, so nothing the review computes can depend
on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from numbridge.rules.seats import Seat, Variant, is_seat, is_variant

# The turns a review weighs (the record's other entries are club actions).
TURNS = frozenset({"place", "take", "exchange", "swap", "timeout", "pass"})


@dataclass(frozen=True)
class Turn:
    """One turn of the record: ``n`` its index in the record's moves."""

    n: int
    seat: Seat
    action: str
    cell: int | None = None  # cell index
    digit: int | None = None
    mistake: bool = False
    hand: tuple[int, ...] | None = None  # the mover's tiles before it (None: not kept)


@dataclass(frozen=True)
class Story:
    variant: Variant
    size: int
    blocks: str  # the layout: a block id per cell
    givens: str  # a digit or '.' per cell
    turns: tuple[Turn, ...]


def story_of(record: Mapping[str, Any]) -> Story:
    """The story of an archive record (:func:`numbridge.rules.archive_record`'s shape);
    ValueError for a record that is not one."""
    options = record.get("options")
    variant = options.get("variant") if isinstance(options, Mapping) else None
    if not is_variant(variant):
        raise ValueError(f"a record with no known variant: {variant!r}")
    size = int(record["size"])
    blocks, givens = str(record["layout"]), str(record["givens"])
    if len(blocks) != size * size or len(givens) != size * size:
        raise ValueError("a record whose layout or givens do not fit its size")
    moves = record.get("moves")
    if not isinstance(moves, Sequence):
        raise ValueError("a record with no list of moves")
    turns = tuple(t for n, entry in enumerate(moves) if (t := _turn(n, entry, size)) is not None)
    return Story(variant, size, blocks, givens, turns)


def _turn(n: int, entry: Any, size: int) -> Turn | None:
    if not isinstance(entry, Mapping) or entry.get("action") not in TURNS:
        return None
    seat = entry.get("seat")
    if not is_seat(seat):
        raise ValueError(f"move {n} has no seat")
    cell = entry.get("cell")
    index = None
    if isinstance(cell, Sequence) and len(cell) == 2:
        r, c = int(cell[0]), int(cell[1])
        if not (0 <= r < size and 0 <= c < size):
            raise ValueError(f"move {n} is off the board: {cell!r}")
        index = r * size + c
    digit = entry.get("digit")
    hand = entry.get("hand")
    return Turn(
        n=n,
        seat=seat,
        action=str(entry["action"]),
        cell=index,
        digit=int(digit) if isinstance(digit, int) else None,
        mistake=bool(entry.get("mistake")),
        hand=tuple(int(t) for t in hand) if isinstance(hand, Sequence) else None,
    )
