"""Strong Hex: random fills of the free cells, and what owning each cell did for the winner.

On a full Hex board exactly one side is connected (RULES.md §10), so a random
fill always names a winner. Over many fills, a cell's worth for the bot is
how much more often it wins when the cell fell to it than when it fell to the
opponent ("all moves as first"): the cells both sides' connections hang on
come out on top, double routes and blocks included, with no Hex knowledge
written down.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from numbridge.rules.geometry import neighbours
from numbridge.rules.seats import MARK, Seat

from .hex_distance import edges

FREE = "."


@cache
def _neighbour_table(size: int) -> tuple[tuple[int, ...], ...]:
    return tuple(neighbours(i, size) for i in range(size * size))


def _connected(board: list[bool], size: int, seat: Seat) -> bool:
    """Whether the cells marked True join the seat's two edges."""
    first, second = edges(seat, size)
    goal = set(second)
    table = _neighbour_table(size)
    stack = [i for i in first if board[i]]
    seen = set(stack)
    while stack:
        i = stack.pop()
        if i in goal:
            return True
        for n in table[i]:
            if board[n] and n not in seen:
                seen.add(n)
                stack.append(n)
    return False


@dataclass(frozen=True)
class Fills:
    """What the random fills said: the bot's chance of winning, and per free cell the
    chance when the cell is the bot's and when it is the opponent's."""

    chance: float
    if_mine: dict[int, float]
    if_theirs: dict[int, float]


def fills(
    owners: Sequence[str], size: int, me: Seat, count: int, rng: random.Random
) -> Fills:
    """``count`` random fills; the opponent, to move, gets the odd cell."""
    free = [i for i, o in enumerate(owners) if o == FREE]
    mine = MARK[me]
    base = [o == mine for o in owners]
    theirs_count = (len(free) + 1) // 2
    wins_with = dict.fromkeys(free, 0)
    held = dict.fromkeys(free, 0)
    wins = 0
    for _ in range(count):
        rng.shuffle(free)
        board = list(base)
        taken = free[theirs_count:]
        for i in taken:
            board[i] = True
        won = _connected(board, size, me)
        if won:
            wins += 1
            for i in taken:
                wins_with[i] += 1
        for i in taken:
            held[i] += 1
    if_mine, if_theirs = {}, {}
    for i in free:
        n_mine, n_theirs = held[i], count - held[i]
        if_mine[i] = wins_with[i] / n_mine if n_mine else wins / count
        if_theirs[i] = (wins - wins_with[i]) / n_theirs if n_theirs else wins / count
    return Fills(wins / count, if_mine, if_theirs)
