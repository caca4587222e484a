"""Domains evaluation: each block a race to a majority, the game a race to most blocks.

A block is decided at 5 of 9 cells (RULES.md §9). While it is open, the free
cells (empty or untaken clue) go one by one to either player; with each as
likely as the other, the chance of winning the block is the chance of getting
at least the cells still needed out of the free ones (a fair binomial; the
numbers always add up: my need + their need = free + 1). Blocks are taken as
independent, so the chance of winning the game is that of winning more than
half of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from math import comb

from numbridge.rules.seats import MARK, Seat, other

FREE = "."


@dataclass(frozen=True)
class BlockCount:
    mine: int
    theirs: int
    free: int


def counts(owners: Sequence[str], blocks: Sequence[int], size: int, seat: Seat) -> list[BlockCount]:
    mine, theirs = MARK[seat], MARK[other(seat)]
    tally = [[0, 0, 0] for _ in range(size)]
    for o, b in zip(owners, blocks, strict=True):
        row = tally[b]
        if o == mine:
            row[0] += 1
        elif o == theirs:
            row[1] += 1
        else:
            row[2] += 1
    return [BlockCount(m, t, f) for m, t, f in tally]


@cache
def block_chance(mine: int, theirs: int, free: int, majority: int) -> float:
    """The chance of winning a block from these counts, each free cell a fair coin."""
    if mine >= majority:
        return 1.0
    if theirs >= majority:
        return 0.0
    need = majority - mine
    if need > free:
        return 0.0
    ways: int = sum(comb(free, k) for k in range(need, free + 1))
    return ways / (1 << free)


def game_chance(chances: Sequence[float]) -> float:
    """The chance of winning more than half of the blocks, given each block's chance."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return sum(dist[len(chances) // 2 + 1 :])


def chances(table: Sequence[BlockCount], majority: int) -> list[float]:
    return [block_chance(b.mine, b.theirs, b.free, majority) for b in table]

