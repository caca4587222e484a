"""Arena: a fixed time; a player whose game ends is paired again as soon as another is
free. Scored as lichess scores its arenas (docs/tournaments-pairing.md):

- a win 2 points, a draw 1, a loss 0;
- after two wins in a row a player is *on fire*: each further win counts double (4)
  until a game is not won (a draw then counts 1, a loss 0, and the streak starts over);
- ranking by score, then rating performance (:func:`performance`).

Games still running at the end finish and count: that is the caller's to do (a finished
game is simply appended to the player's history).

Pairing (:func:`arena_pairs`) takes the players waiting now, all of them free. In order:

1. nobody twice; nobody meets the opponent of their own previous game while some other
   pairing of the waiting players avoids it;
2. with an odd count the latest to arrive stays waiting (the longest waiters play);
3. the closest in rank meet (the sum of the rank distances is as small as it can be;
   rank = score, then rating, then name), as lichess pairs by rank distance.

Colours: the player with more blues than reds gets red (blue moves first); equal, the
longer waiter has blue. Pairs are listed longest waiter first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .matching import cheapest_perfect_matching
from .results import Played, colour_difference

__all__ = ["ArenaPlayer", "BadWaiting", "UnknownRating", "arena_pairs", "arena_points",
           "performance"]

# Up to this many waiting players the pairing is an exact matching; beyond, neighbours in
# rank are paired and partners swapped while a swap avoids a rematch of a last game.
EXACT_UP_TO = 64
PERFORMANCE_SPREAD = 500  # a win counts as the opponent's rating + 500, a loss - 500


class UnknownRating(KeyError):
    """A game's opponent has no rating in the mapping given."""


class BadWaiting(ValueError):
    """The same player listed twice among those waiting."""


@dataclass(frozen=True)
class ArenaPlayer:
    """A player of an arena with their finished games (oldest first) and since when they
    have been waiting for a game (ms; smaller = waiting longer)."""

    name: str
    rating: int
    history: tuple[Played, ...] = ()
    waiting_since_ms: int = 0


def arena_points(history: Sequence[Played]) -> tuple[int, bool]:
    """(score, on fire now): W W W D W W W scores 2+2+4+1+2+2+4 = 17, on fire."""
    score = 0
    run = 0  # wins in a row so far
    for game in history:
        if game.outcome == "win":
            score += 4 if run >= 2 else 2
            run += 1
        else:
            score += 1 if game.outcome == "draw" else 0
            run = 0
    return score, run >= 2


def performance(history: Sequence[Played], ratings: Mapping[str, int]) -> int:
    """Rating performance (lichess's arena tie-break): the mean over the games of the
    opponent's rating, +500 for a win, -500 for a loss; 0 with no games."""
    if not history:
        return 0
    total = 0
    for game in history:
        if game.opponent not in ratings:
            raise UnknownRating(game.opponent)
        bonus = {"win": PERFORMANCE_SPREAD, "draw": 0, "loss": -PERFORMANCE_SPREAD}
        total += ratings[game.opponent] + bonus[game.outcome]
    return round(total / len(history))


Pairs = list[tuple["ArenaPlayer", "ArenaPlayer"]]
Cost = tuple[int, int, int]  # rematches of a last game, who stays out, rank distance
Repeat = Callable[["ArenaPlayer", "ArenaPlayer"], bool]


def _rank_key(p: ArenaPlayer) -> tuple[int, int, str]:
    return (-arena_points(p.history)[0], -p.rating, p.name)


def _last_opponent(p: ArenaPlayer) -> str | None:
    return p.history[-1].opponent if p.history else None


def arena_pairs(waiting: Sequence[ArenaPlayer]) -> list[tuple[str, str]]:
    """Pair the players waiting now (module docstring: the rules, in order); each pair
    (blue, red). An odd one out stays waiting."""
    if len({p.name for p in waiting}) != len(waiting):
        raise BadWaiting("a player is waiting twice")
    ranked = sorted(waiting, key=_rank_key)
    place = {p.name: i for i, p in enumerate(ranked)}
    last = {p.name: _last_opponent(p) for p in ranked}

    def repeat(a: ArenaPlayer, b: ArenaPlayer) -> bool:
        return last[a.name] == b.name or last[b.name] == a.name

    # Who stays out with an odd count, best first: the latest arrival, then the lowest.
    out_order = sorted(ranked, key=lambda p: (-p.waiting_since_ms, -place[p.name]))
    out_rank = {p.name: i for i, p in enumerate(out_order)}

    def pair_cost(a: ArenaPlayer, b: ArenaPlayer) -> Cost:
        return (1 if repeat(a, b) else 0, 0, abs(place[a.name] - place[b.name]))

    if len(ranked) <= EXACT_UP_TO:
        pairs, out = _exact(ranked, repeat, out_rank)
    else:
        out = out_order[0] if len(ranked) % 2 else None
        rest = [p for p in ranked if p is not out]
        pairs = [(rest[i], rest[i + 1]) for i in range(0, len(rest) - 1, 2)]
        pairs, out = _repair(pairs, out, pair_cost, out_rank)
    return [_colours(a, b) for a, b in sorted(
        pairs, key=lambda ab: min((ab[0].waiting_since_ms, place[ab[0].name]),
                                  (ab[1].waiting_since_ms, place[ab[1].name])))]


def _repair(pairs: Pairs, out: ArenaPlayer | None,
            pair_cost: Callable[[ArenaPlayer, ArenaPlayer], Cost], out_rank: dict[str, int]
            ) -> tuple[Pairs, ArenaPlayer | None]:
    """Swap partners (or the one staying out) while a swap lowers the cost, the best swap
    of a pair that rematches first. A swap is judged by what it changes (two pairs, or a
    pair and who stays out), not by costing the whole pairing again: 1,000 waiting
    players whose last opponents are all their rank neighbours took 24 s of CPU so."""
    pairs = list(pairs)

    def change(after: Sequence[Cost], before: Sequence[Cost], out_by: int = 0) -> Cost:
        return (sum(c[0] for c in after) - sum(c[0] for c in before), out_by,
                sum(c[2] for c in after) - sum(c[2] for c in before))

    improved = True
    while improved:
        improved = False
        for i, (a, b) in enumerate(pairs):
            here = pair_cost(a, b)
            if not here[0]:
                continue
            best: Cost = (0, 0, 0)
            move: tuple[int, tuple[ArenaPlayer, ArenaPlayer], tuple[ArenaPlayer, ArenaPlayer],
                        ArenaPlayer | None] | None = None
            for j, (c, d) in enumerate(pairs):
                if j == i:
                    continue
                there = pair_cost(c, d)
                for x, y in ((c, d), (d, c)):
                    delta = change((pair_cost(a, x), pair_cost(b, y)), (here, there))
                    if delta < best:
                        best, move = delta, (j, (a, x), (b, y), out)
            if out is not None:
                for keep, leave in ((a, b), (b, a)):
                    delta = change((pair_cost(keep, out),), (here,),
                                   out_rank[leave.name] - out_rank[out.name])
                    if delta < best:
                        best, move = delta, (i, (keep, out), (keep, out), leave)
            if move is not None:
                j, first, second, out = move
                pairs[i], pairs[j] = first, second
                improved = True
                break
    return pairs, out


def _exact(ranked: list[ArenaPlayer], repeat: Repeat, out_rank: dict[str, int]
           ) -> tuple[Pairs, ArenaPlayer | None]:
    """The cheapest pairing (rematches, who stays out, rank distance), by matching."""
    n = len(ranked)
    costs: dict[tuple[int, int], list[int]] = {}
    for i, a in enumerate(ranked):
        for j in range(i + 1, n):
            costs[i, j] = [1 if repeat(a, ranked[j]) else 0, 0, j - i]
        if n % 2:  # node n: staying out
            costs[i, n] = [0, out_rank[a.name], 0]
    mate = cheapest_perfect_matching(n + n % 2, costs, [1, n, n])
    assert mate is not None  # every pair is allowed
    pairs = [(ranked[i], ranked[j]) for i, j in mate if j < n]
    out = next((ranked[i] for i, j in mate if j == n), None)
    return pairs, out


def _colours(a: ArenaPlayer, b: ArenaPlayer) -> tuple[str, str]:
    """More blues than reds: red; equal: the longer waiter has blue."""
    da, db = colour_difference(a.history), colour_difference(b.history)
    if da != db:
        return (b.name, a.name) if da > db else (a.name, b.name)
    if (a.waiting_since_ms, a.name) <= (b.waiting_since_ms, b.name):
        return a.name, b.name
    return b.name, a.name
