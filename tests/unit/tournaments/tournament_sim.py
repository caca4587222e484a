"""Whole Swiss tournaments with random results, for the property tests: each round as
the entrants stood before it and the round pair_swiss made."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from numbridge.tournaments.results import Outcome, Played, Round
from numbridge.tournaments.swiss import Entrant, NoPairing, pair_swiss

OTHER_SIDE: dict[Outcome, Outcome] = {"win": "loss", "draw": "draw", "loss": "win"}


@dataclass(frozen=True)
class Played_round:
    before: tuple[Entrant, ...]
    round: Round
    round_no: int


def field(n: int, rng: random.Random) -> list[Entrant]:
    """n players with ratings drawn at random (ties possible: the name decides)."""
    return [Entrant(f"p{i:02d}", rng.randrange(1000, 1100)) for i in range(n)]


def play(entrants: dict[str, Entrant], round_: Round, rng: random.Random) -> None:
    """Random results for the round's games, the bye scored, in place."""
    for blue, red in round_.pairs:
        outcome: Outcome = rng.choice(["win", "draw", "loss"])
        b, r = entrants[blue], entrants[red]
        entrants[blue] = replace(b, history=(*b.history, Played(red, "blue", outcome)))
        entrants[red] = replace(r, history=(*r.history,
                                            Played(blue, "red", OTHER_SIDE[outcome])))
    if round_.bye is not None:
        e = entrants[round_.bye]
        entrants[round_.bye] = replace(e, byes=e.byes + 1)


def tournament(n: int, rounds: int, seed: int
               ) -> tuple[list[Played_round], dict[str, Entrant], list[Entrant] | None]:
    """Plays up to ``rounds`` rounds; the third value is the field pair_swiss refused
    (NoPairing), else None."""
    rng = random.Random(seed)
    entrants = {e.name: e for e in field(n, rng)}
    out: list[Played_round] = []
    for round_no in range(1, rounds + 1):
        before = tuple(entrants.values())
        try:
            round_ = pair_swiss(list(before), round_no)
        except NoPairing:
            return out, entrants, list(before)
        out.append(Played_round(before, round_, round_no))
        play(entrants, round_, rng)
    return out, entrants, None
