"""Fair play from the reviews: does a player's guessing pay more often than chance?

Every placement the coach could not prove from what its player knew is a guess among
the digits they could not rule out (``candidates``): a fair guess pays with chance
1/candidates (0 for a digit they could have ruled out). Over many guesses the number
that paid is close to the sum of those chances; a player who guesses right far more
often than that plays as if they saw the solution — a second screen, a solver. The
z-score says how far: (paid - expected) / sqrt(sum of p(1-p)).

A signal to look at, not a verdict: a strong player who reasons past one trial (longer
chains, nested trials) proves digits the coach calls guesses, and scores high too. Pure.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from numbridge.rules.seats import SEATS


@dataclass
class Player:
    name: str
    games: int = 0
    placements: int = 0  # correct placements
    proven: int = 0  # of them, proved by a reading
    guesses: int = 0  # placements not proved: correct guesses and mistakes
    paid: int = 0  # the guesses that were right
    expected: float = 0.0  # how many a fair guesser's would have been
    variance: float = 0.0

    @property
    def z(self) -> float | None:
        """How many standard deviations the paid guesses lie above chance (None: no
        guess with any doubt in it)."""
        if self.variance <= 0:
            return None
        return (self.paid - self.expected) / math.sqrt(self.variance)

    def guessed(self, chance: float, paid: bool) -> None:
        self.guesses += 1
        self.paid += paid
        self.expected += chance
        self.variance += chance * (1 - chance)


def tally(records: Iterable[Mapping[str, Any]]) -> dict[str, Player]:
    """Each player's figures over the reviewed records among ``records`` (archive
    records; those without a review yet are left out)."""
    players: dict[str, Player] = {}
    for record in records:
        review = record.get("review")
        names = record.get("players")
        if not isinstance(review, Mapping) or not isinstance(names, Mapping):
            continue
        seats = {seat: players.setdefault(str(names[seat]), Player(str(names[seat])))
                 for seat in SEATS if seat in names}
        for player in seats.values():
            player.games += 1
        for entry in review.get("moves", []):
            mover = seats.get(entry.get("seat"))
            if mover is not None:
                _weigh(mover, entry)
    return players


def _weigh(player: Player, entry: Mapping[str, Any]) -> None:
    reading = entry.get("reading")
    candidates = entry.get("candidates")
    if reading is not None:
        player.placements += 1
        if reading != "guess":
            player.proven += 1
        elif isinstance(candidates, int) and candidates > 0:
            player.guessed(1 / candidates, paid=True)
    elif isinstance(candidates, int) and candidates > 0:  # a mistake
        player.guessed(0.0 if entry.get("ruled_out") else 1 / candidates, paid=False)


def suspicious(players: Mapping[str, Player], *, min_guesses: int = 20,
               z: float = 3.0) -> list[Player]:
    """The players whose guesses paid at least ``z`` standard deviations above chance
    over at least ``min_guesses`` guesses, the most suspicious first."""
    found = [p for p in players.values()
             if p.guesses >= min_guesses and p.z is not None and p.z >= z]
    return sorted(found, key=lambda p: (-(p.z or 0.0), p.name))
