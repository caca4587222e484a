"""Tiles: the common bag and the hands (RULES.md §3).

The bag and the hands are kept sorted: the bag is a multiset, and every draw
picks tiles uniformly at random with the injected ``random.Random`` (which is
what drawing from a shuffled bag amounts to). The functions here work on the
mutable lists of a :class:`~numbridge.rules.draft.Draft`.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterable, Sequence

from numbridge.rules.seats import EMPTY

HAND_SIZE = 3


def tiles_for(solution: str, digits: Sequence[str]) -> list[int]:
    """The tiles in play: the solution digits of the empty cells, sorted."""
    return sorted(int(s) for s, d in zip(solution, digits, strict=True) if d == EMPTY)


def draw(bag: list[int], count: int, rng: random.Random) -> list[int]:
    """Take up to ``count`` tiles at random out of the bag (fewer if it runs dry)."""
    count = min(count, len(bag))
    if count <= 0:
        return []
    picks = sorted(rng.sample(range(len(bag)), count), reverse=True)
    return sorted(bag.pop(i) for i in picks)


def refill(hand: list[int], bag: list[int], rng: random.Random) -> None:
    """Draw until the hand holds :data:`HAND_SIZE` tiles or the bag is empty."""
    drawn = draw(bag, HAND_SIZE - len(hand), rng)
    if drawn:
        hand.extend(drawn)
        hand.sort()


def to_bag(bag: list[int], tiles: Iterable[int]) -> None:
    for tile in tiles:
        bisect.insort(bag, tile)


def take_out(hand: list[int], tiles: Iterable[int]) -> None:
    """Remove the given tiles (one each) from the hand; they must be there."""
    for tile in tiles:
        hand.remove(tile)


def exchange(hand: list[int], bag: list[int], rng: random.Random) -> list[int]:
    """The whole hand into the bag, the bag shuffled, a new hand drawn; returns the old hand."""
    old = list(hand)
    to_bag(bag, old)
    hand.clear()
    rng.shuffle(bag)
    hand.extend(sorted(bag[:HAND_SIZE]))
    del bag[:HAND_SIZE]
    bag.sort()
    return old


def pick_payment(hand: Sequence[int], first: int, price: int, rng: random.Random) -> list[int]:
    """The tiles paid for a take: ``first`` chosen by the player, the rest at random.

    The caller has checked that ``first`` is in the hand and the hand holds
    at least ``price`` tiles.
    """
    rest = list(hand)
    rest.remove(first)
    paid = [first]
    for _ in range(price - 1):
        tile = rng.choice(rest)
        rest.remove(tile)
        paid.append(tile)
    return paid
