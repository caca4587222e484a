"""The tests' one move chooser: what a player who knows the solution plays.

The integration players read the solution from the store (as only a test may);
the e2e client and the load bench solve the board they were shown. Both choose
here. With an ``rng`` the player mixes in mistakes, voluntary takes and random
picks, so every kind of turn crosses the wire; without one it plays the first
correct tile, or takes the first free clue, or exchanges.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

MISTAKES = 0.08  # share of turns with a deliberate mistake (with an rng)
TAKES = 0.15  # share of turns that take a clue while holding tiles (with an rng)


def choose(*, size: int, digits: str, solution: str, clues: str, owners: str,
           hand: Sequence[int], take_price: int,
           rng: random.Random | None = None) -> dict[str, Any]:
    """A legal action for the player to move, as frame fields (``action`` included).

    ``digits``/``owners``/``clues`` are the board strings of the contract (``clues``:
    '1' where the cell was a given).
    """
    def pick(options: Sequence[T]) -> T:
        return rng.choice(options) if rng is not None else options[0]

    hand = list(hand)
    empty = [i for i, d in enumerate(digits) if d == "."]
    free_clues = [i for i, (k, o) in enumerate(zip(clues, owners, strict=True))
                  if k == "1" and o == "."]
    roll = rng.random() if rng is not None else 1.0
    if hand and roll < MISTAKES and empty:
        # A deliberate mistake: a held digit on a cell where it is wrong.
        wrong = [i for i in empty if int(solution[i]) != hand[0]]
        if wrong:
            return {"action": "place", "cell": list(divmod(pick(wrong), size)),
                    "digit": hand[0]}
    if free_clues and (not hand or roll < TAKES) and (not hand or len(hand) >= take_price):
        cell = list(divmod(pick(free_clues), size))
        return {"action": "take", "cell": cell, **({"digit": hand[0]} if hand else {})}
    if hand:
        digit = pick(hand)
        spots = [i for i in empty if int(solution[i]) == digit]
        assert spots, f"a tile {digit} with no empty cell of its own: the bag invariant broke"
        return {"action": "place", "cell": list(divmod(pick(spots), size)), "digit": digit}
    return {"action": "exchange"}
