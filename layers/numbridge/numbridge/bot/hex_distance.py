"""Hex distances for Bridge and Blitz: how far each side is from joining its two edges.

Blue joins rows r=0 and r=N-1, red columns c=0 and c=N-1 (RULES.md §10). The
shortest connection counts the free cells (empty or untaken clue) still to
claim: own cells cost 0, free cells 1, the opponent's cells are walls.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from numbridge.rules.geometry import column_cells, neighbours, row_cells
from numbridge.rules.seats import MARK, Seat

FREE = "."
FAR = 10_000  # no connection possible


@cache
def edges(seat: Seat, size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seat's two edges as cell indexes."""
    if seat == "blue":
        return row_cells(0, size), row_cells(size - 1, size)
    return column_cells(0, size), column_cells(size - 1, size)


@dataclass(frozen=True)
class Shortest:
    distance: int  # free cells still needed (0: connected; FAR: cut off)
    on_path: frozenset[int]  # free cells on some shortest connection


def _costs(owners: Sequence[str], seat: Seat) -> list[int]:
    mine = MARK[seat]
    return [0 if o == mine else 1 if o == FREE else FAR for o in owners]


def _flood(costs: list[int], size: int, starts: Sequence[int]) -> list[int]:
    """0-1 BFS: the cost of the cheapest chain from the start edge to each cell (cell included)."""
    dist = [FAR] * len(costs)
    queue: deque[int] = deque()
    for i in starts:
        if costs[i] < FAR:
            dist[i] = costs[i]
            if costs[i]:
                queue.append(i)
            else:
                queue.appendleft(i)
    while queue:
        i = queue.popleft()
        here = dist[i]
        for n in neighbours(i, size):
            cost = costs[n]
            if cost >= FAR:
                continue
            reach = here + cost
            if reach < dist[n]:
                dist[n] = reach
                if cost:
                    queue.append(n)
                else:
                    queue.appendleft(n)
    return dist


def shortest(owners: Sequence[str], size: int, seat: Seat) -> Shortest:
    costs = _costs(owners, seat)
    first, second = edges(seat, size)
    from_first = _flood(costs, size, first)
    from_second = _flood(costs, size, second)
    distance = min(from_first[i] for i in second)
    if distance >= FAR:
        return Shortest(FAR, frozenset())
    on_path = frozenset(
        i
        for i, cost in enumerate(costs)
        if cost == 1 and from_first[i] + from_second[i] - 1 == distance
    )
    return Shortest(distance, on_path)
