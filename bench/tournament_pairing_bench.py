"""CPU time of the pure tournament pairings (numbridge.tournaments).

- **Swiss, 1,000 players** (``BENCH_TOURNAMENT_PLAYERS``): whole tournaments of
  ``BENCH_TOURNAMENT_ROUNDS`` (9) rounds with random results (a third each of wins,
  draws and losses; seeds 0..``BENCH_TOURNAMENT_RUNS``-1, default 3), each round's
  ``pair_swiss`` timed: median, p90 and max over every round. Target: well under 1 s.
- **Swiss, 33 players over 5 rounds** (the issue's example) and **96 players** (the
  largest field always paired by the exact matching), the same way;
- **the exact matching alone on 200 players** (what a large field costs on a round where
  the greedy Dutch procedure cannot prove its result, a rare case);
- **arena**: ``arena_pairs`` for 64 waiting players (exact matching) and 1,000 (rank
  neighbours and swaps), each with random histories;
- **worst cases**: 1,000 waiting arena players whose last games were all against their
  rank neighbours, and a 1,000-player Swiss round whose last bracket's four have all
  met (the bounded re-pairing).

Times are CPU (``time.process_time``), so other processes' load counts little; the
machine's speed at the time is printed beside them (bench.measure).
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from numbridge.tournaments import arena, swiss
from numbridge.tournaments.results import Outcome, Played

from bench.measure import machine_speed, percentile

PLAYERS = int(os.environ.get("BENCH_TOURNAMENT_PLAYERS", "1000"))
ROUNDS = int(os.environ.get("BENCH_TOURNAMENT_ROUNDS", "9"))
RUNS = int(os.environ.get("BENCH_TOURNAMENT_RUNS", "3"))
OTHER: dict[Outcome, Outcome] = {"win": "loss", "draw": "draw", "loss": "win"}
T = TypeVar("T")


def timed(call: Callable[[], T]) -> tuple[T, float]:
    started = time.process_time()
    out = call()
    return out, (time.process_time() - started) * 1000


def swiss_rounds(n: int, rounds: int, seed: int) -> list[float]:
    """Milliseconds of each round's pairing in one random tournament."""
    rng = random.Random(seed)
    field = {f"p{i:04d}": swiss.Entrant(f"p{i:04d}", rng.randrange(1000, 2500))
             for i in range(n)}
    times = []
    for round_no in range(1, rounds + 1):
        rnd, ms = timed(lambda r=round_no: swiss.pair_swiss(list(field.values()), r))
        times.append(ms)
        for blue, red in rnd.pairs:
            outcome: Outcome = rng.choice(["win", "draw", "loss"])
            b, r = field[blue], field[red]
            field[blue] = replace(b, history=(*b.history, Played(red, "blue", outcome)))
            field[red] = replace(r, history=(*r.history, Played(blue, "red", OTHER[outcome])))
        if rnd.bye:
            field[rnd.bye] = replace(field[rnd.bye], byes=field[rnd.bye].byes + 1)
    return times


def arena_field(n: int, rng: random.Random) -> list[arena.ArenaPlayer]:
    names = [f"a{i:04d}" for i in range(n)]
    out = []
    for name in names:
        history = tuple(Played(rng.choice(names), rng.choice(["blue", "red"]),
                               rng.choice(["win", "draw", "loss"]))
                        for _ in range(rng.randrange(0, 8)))
        out.append(arena.ArenaPlayer(name, rng.randrange(1000, 2500), history,
                                     rng.randrange(0, 10_000)))
    return out


def neighbours_met(n: int) -> list[arena.ArenaPlayer]:
    """n free players, each having just drawn with their rank neighbour: every pairing of
    neighbours is a rematch to swap away."""
    return [arena.ArenaPlayer(f"a{i:04d}", 2500 - i, (Played(
        f"a{i + 1 if i % 2 == 0 else i - 1:04d}", "blue" if i % 2 == 0 else "red", "draw"),),
        i) for i in range(n)]


def stuck_swiss(n: int) -> list[swiss.Entrant]:
    """n - 4 players on three wins and four below them who have all met each other."""
    top = [swiss.Entrant(f"p{i:04d}", 1500 + i % 300, tuple(
        Played(f"gone{i}_{r}", "blue" if (i + r) % 2 else "red", "win") for r in range(3)))
        for i in range(n - 4)]
    four = [f"z{k}" for k in range(4)]
    return top + [swiss.Entrant(z, 1400, tuple(
        Played(o, "blue" if (k + r) % 2 else "red", "draw")
        for r, o in enumerate(o for o in four if o != z))) for k, z in enumerate(four)]


def row(label: str, samples: list[float]) -> None:
    print(f"{label:52} {len(samples):>5} {statistics.median(samples):>9.1f} "
          f"{percentile(samples, 0.9):>9.1f} {max(samples):>9.1f}")


def main(argv: list[str] | None = None) -> None:
    swiss.pair_swiss([swiss.Entrant("x", 1), swiss.Entrant("y", 1)], 1)  # networkx loaded
    print(f"machine speed: {machine_speed():.0f} ms for the fixed workload")
    print(f"{'CPU ms per pairing':52} {'n':>5} {'median':>9} {'p90':>9} {'max':>9}")
    big = [ms for seed in range(RUNS) for ms in swiss_rounds(PLAYERS, ROUNDS, seed)]
    row(f"Swiss round, {PLAYERS} players, rounds 1-{ROUNDS}", big)
    row("Swiss round, 33 players, rounds 1-5",
        [ms for seed in range(10) for ms in swiss_rounds(33, 5, seed)])
    row(f"Swiss round, {swiss.EXACT_UP_TO} players (exact matching), rounds 1-9",
        [ms for seed in range(RUNS) for ms in swiss_rounds(swiss.EXACT_UP_TO, 9, seed)])
    rng = random.Random(5)
    field = [swiss.Entrant(f"m{i}", rng.randrange(1000, 2500),
                           (Played(f"m{(i + 1) % 200}", "blue", "draw"),)) for i in range(200)]
    ranked = sorted(field, key=swiss.rank_key)
    played = {e.name: frozenset(g.opponent for g in e.history) for e in ranked}
    row("exact matching alone, 200 players",
        [timed(lambda: swiss._matching(ranked, played, 2, None))[1] for _ in range(3)])
    for n in (64, 1000):
        fields = [arena_field(n, random.Random(s)) for s in range(5)]
        samples = [timed(lambda f=f: arena.arena_pairs(f))[1] for f in fields]
        row(f"arena_pairs, {n} waiting", samples)
    # The worst cases found in review: once 24 s and 89 s of CPU, past the tournament
    # function's 29 s.
    row("arena_pairs, 1000 waiting, all last met neighbours",
        [timed(lambda: arena.arena_pairs(neighbours_met(1000)))[1]])
    row("Swiss round, 1000 players, last 4 all met (bounded)",
        [timed(lambda: swiss.pair_swiss(stuck_swiss(1000), 4))[1]])


if __name__ == "__main__":
    main()
