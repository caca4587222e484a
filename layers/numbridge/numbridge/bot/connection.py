"""Hex evaluation for Bridge and Blitz: how far each side is from joining its two edges.

Blue joins rows r=0 and r=N-1, red columns c=0 and c=N-1 (RULES.md §10). Two
measures, both counting the free cells (empty or untaken clue) still to claim:

- :func:`shortest` — the plain shortest connection: own cells cost 0, free
  cells 1, the opponent's cells are walls;
- :func:`two_distance` — the Queenbee "two-distance": a cell is as far from an
  edge as its *second* nearest neighbour plus one, since the opponent can
  always cut the nearest. It values the double routes (bridges) the plain
  distance ignores.
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


@dataclass(frozen=True)
class Potential:
    value: int  # the lowest two-distance sum over the free cells (0: connected)
    mobility: int  # how many free cells reach that value: more is harder to stop
    best: frozenset[int]  # those cells


def _groups(owners: Sequence[str], size: int, mark: str) -> list[list[int]]:
    seen = [False] * len(owners)
    groups = []
    for i, o in enumerate(owners):
        if o != mark or seen[i]:
            continue
        seen[i] = True
        group, stack = [], [i]
        while stack:
            j = stack.pop()
            group.append(j)
            for n in neighbours(j, size):
                if not seen[n] and owners[n] == mark:
                    seen[n] = True
                    stack.append(n)
        groups.append(group)
    return groups


def _free_graph(
    owners: Sequence[str], size: int, seat: Seat
) -> tuple[dict[int, set[int]], set[int], set[int]] | None:
    """Free cells and their adjacency with the seat's own groups contracted, and the
    free cells touching each edge (directly or through a group). None: connected."""
    mark = MARK[seat]
    first, second = edges(seat, size)
    first_set, second_set = set(first), set(second)
    adjacent: dict[int, set[int]] = {
        i: {n for n in neighbours(i, size) if owners[n] == FREE}
        for i, o in enumerate(owners)
        if o == FREE
    }
    at_first = {i for i in first if owners[i] == FREE}
    at_second = {i for i in second if owners[i] == FREE}
    for group in _groups(owners, size, mark):
        touches_first = any(i in first_set for i in group)
        touches_second = any(i in second_set for i in group)
        if touches_first and touches_second:
            return None
        rim = {n for i in group for n in neighbours(i, size) if owners[n] == FREE}
        for i in rim:
            adjacent[i] |= rim
        if touches_first:
            at_first |= rim
        if touches_second:
            at_second |= rim
    for i, group_rim in adjacent.items():
        group_rim.discard(i)
    return adjacent, at_first, at_second


def _two_distance_from(adjacent: dict[int, set[int]], start: set[int]) -> dict[int, int]:
    dist = dict.fromkeys(start, 1)
    seen_once: set[int] = set()
    level, k = list(start), 1
    while level:
        nxt = []
        for i in level:
            for n in adjacent[i]:
                if n in dist:
                    continue
                if n in seen_once:
                    dist[n] = k + 1
                    nxt.append(n)
                else:
                    seen_once.add(n)
        level, k = nxt, k + 1
    return dist


def two_distance(owners: Sequence[str], size: int, seat: Seat) -> Potential:
    graph = _free_graph(owners, size, seat)
    if graph is None:
        return Potential(0, 1, frozenset())
    adjacent, at_first, at_second = graph
    from_first = _two_distance_from(adjacent, at_first)
    from_second = _two_distance_from(adjacent, at_second)
    best, cells = FAR, []
    for i, a in from_first.items():
        b = from_second.get(i)
        if b is None:
            continue
        total = a + b
        if total < best:
            best, cells = total, [i]
        elif total == best:
            cells.append(i)
    return Potential(best, len(cells), frozenset(cells))
