"""Seats, variants and statuses: the small vocabulary every module shares."""

from __future__ import annotations

from typing import Literal, TypeGuard

Seat = Literal["blue", "red"]
Variant = Literal["bridge", "blitz", "domains"]
Status = Literal["playing", "adjourned", "finished"]
BlockKind = Literal["regular", "irregular"]
# How hard a board is (the coach's readings ladder, simplest first): the hardest reading
# its solution needs from the givens (docs/coach.md).
Grade = Literal["naked_single", "hidden_single", "locked_candidates", "pairs", "beyond", "guess"]
GRADES: tuple[Grade, ...] = (
    "naked_single", "hidden_single", "locked_candidates", "pairs", "beyond", "guess")

SEATS: tuple[Seat, Seat] = ("blue", "red")
VARIANTS: tuple[Variant, ...] = ("bridge", "blitz", "domains")
STATUSES: tuple[Status, ...] = ("playing", "adjourned", "finished")
BLOCK_KINDS: tuple[BlockKind, ...] = ("regular", "irregular")

# How a seat is written in board strings (PROTOCOL.md `owners`); '.' is nobody.
MARK: dict[Seat, str] = {"blue": "b", "red": "r"}
NOBODY = "."  # in ``owners``: a cell nobody holds
EMPTY = "."  # in ``digits`` and ``givens``: a cell with no digit


def other(seat: Seat) -> Seat:
    """The opponent of ``seat``."""
    return "red" if seat == "blue" else "blue"


def is_seat(value: object) -> TypeGuard[Seat]:
    return value in SEATS


def is_variant(value: object) -> TypeGuard[Variant]:
    return value in VARIANTS


def is_status(value: object) -> TypeGuard[Status]:
    return value in STATUSES


def is_block_kind(value: object) -> TypeGuard[BlockKind]:
    return value in BLOCK_KINDS


def is_grade(value: object) -> TypeGuard[Grade]:
    return value in GRADES


def seat_or_none(value: object, what: str) -> Seat | None:
    """Parse an optional seat from stored data (``ValueError`` if it is anything else)."""
    if value is None:
        return None
    if is_seat(value):
        return value
    raise ValueError(f"{what} must be 'blue', 'red' or null, not {value!r}")


def seat_of(value: object, what: str) -> Seat:
    if is_seat(value):
        return value
    raise ValueError(f"{what} must be 'blue' or 'red', not {value!r}")
