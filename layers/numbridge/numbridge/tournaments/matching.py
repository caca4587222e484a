"""The cheapest perfect matching under criteria ranked one above the other: the one
engine behind a Swiss round and an arena's pairing of its waiting players.

Each allowed pair has a cost given as digits, most significant first; a matching's cost
is the digit-wise sum over its pairs, compared as a number in mixed radix, each digit's
base above its largest possible sum. So one unit of a higher criterion outweighs any
amount of the lower ones. networkx's maximum-weight matching (Edmonds' blossom, exact,
integer weights) finds it; networkx is imported on first use only, as it is slow to
import and most processes never pair anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def cheapest_perfect_matching(n: int, costs: Mapping[tuple[int, int], Sequence[int]],
                              most: Sequence[int]) -> list[tuple[int, int]] | None:
    """The pairs (i < j) of a perfect matching of nodes 0..n-1 using only the pairs in
    ``costs`` with the smallest total cost, or None when no perfect matching exists.
    ``most[k]`` bounds digit k of any one pair's cost."""
    from networkx import Graph  # type: ignore[import-untyped]
    from networkx.algorithms.matching import max_weight_matching  # type: ignore[import-untyped]

    pairs_max = n // 2 + 1
    bases = [pairs_max * m + 1 for m in most]

    def weigh(digits: Sequence[int]) -> int:
        total = 0
        for digit, base in zip(digits, bases, strict=True):
            total = total * base + digit
        return total

    top = weigh([m for m in most]) + 1  # every pair's weight stays positive
    graph = Graph()
    graph.add_nodes_from(range(n))
    for (i, j), digits in costs.items():
        graph.add_edge(i, j, weight=top - weigh(digits))
    mate = max_weight_matching(graph, maxcardinality=True)
    if 2 * len(mate) < n:
        return None
    return sorted((min(u, v), max(u, v)) for u, v in mate)
