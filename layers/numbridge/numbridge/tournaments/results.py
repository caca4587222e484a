"""Shared types of the tournament kinds: a finished game from one player's side, a round.

Pure values only (no I/O). Seats are the rules' strings ``"blue"`` (moves first) and
``"red"``; a pair is always written ``(blue_player, red_player)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Outcome = Literal["win", "draw", "loss"]
Seat = Literal["blue", "red"]

# Half-points a game is worth in a Swiss or a round robin (a bye counts as a win).
SWISS_HALF_POINTS: dict[str, int] = {"win": 2, "draw": 1, "loss": 0}


@dataclass(frozen=True)
class Played:
    """One finished game from one player's side. Byes are not Played entries: a Swiss
    counts them in ``Entrant.byes``."""

    opponent: str
    seat: Seat
    outcome: Outcome


@dataclass(frozen=True)
class Round:
    """One round's pairing: ``pairs`` as (blue, red), board order (board 1 first), and
    the player who sits out with a bye (worth a win), if any."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None = None

    def players(self) -> list[str]:
        """Everyone in the round, the bye included, in board order."""
        out = [p for pair in self.pairs for p in pair]
        if self.bye is not None:
            out.append(self.bye)
        return out


def colour_difference(history: Sequence[Played]) -> int:
    """Blues minus reds over the games played."""
    return sum(1 if g.seat == "blue" else -1 for g in history)


def opposite(seat: Seat) -> Seat:
    return "red" if seat == "blue" else "blue"
