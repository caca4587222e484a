"""Latency of the Lambda handlers, in-process, on each store adapter.

Measures what our code adds per request — parsing, the rules, the conditional
transaction with its receipt, rendering and posting (to a recording stand-in
for API Gateway) — on SQLite (a file, as ``numbridge serve`` runs it) and on
DynamoDB through moto (real DynamoDB adds its own network round trips: ~5-10 ms
per write inside a region; moto adds its deep copies). Prints median / p90 /
p99 per request kind.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bench.harness_env import use_integration_harness
from bench.measure import percentile

GAMES = int(os.environ.get("BENCH_GAMES", "4"))


def main() -> None:
    use_integration_harness()
    import tempfile

    import boto3
    from harness import World, dynamodb_store
    from moto import mock_aws
    from numbridge.store.sqlite import SqliteStore

    for adapter in ("sqlite", "dynamodb"):
        with mock_aws(), tempfile.TemporaryDirectory() as tmp:
            store = (SqliteStore(Path(tmp) / "bench.db") if adapter == "sqlite"
                     else dynamodb_store(boto3.client("dynamodb")))
            report(adapter, World(store, boto3.client("sqs")))


def report(adapter: str, world: Any) -> None:
    from players import choose, current, start_game

    timings: dict[str, list[float]] = defaultdict(list)
    ana, bob = world.join("ana"), world.join("bob")
    conns = {"ana": ana, "bob": bob}
    rng = random.Random(5)
    for g in range(GAMES):
        started = time.perf_counter()
        game = start_game(world, ("bridge", "domains")[g % 2], ana, bob)
        timings["propose+accept (deal)"].append(time.perf_counter() - started)
        while (state := current(world, game)).status != "finished":
            assert state.turn is not None
            conn = conns[state.players[state.turn]]
            fields = choose(state, rng)
            action = fields.pop("action")
            started = time.perf_counter()
            answer = conn.ask(action, game=game, **fields)
            timings[action].append(time.perf_counter() - started)
            assert answer["type"] == "ack", answer
            started = time.perf_counter()
            conn.ask("sync", game=game, v=max(0, state.v - 3))
            timings["sync (3 missed)"].append(time.perf_counter() - started)
    world.close()


    print(f"handler latency on {adapter}, {GAMES} games (ms)")
    print(f"{'request':<24}{'n':>6}{'median':>10}{'p90':>10}{'p99':>10}")
    for name, values in sorted(timings.items()):
        ms = [v * 1000 for v in values]
        print(f"{name:<24}{len(ms):>6}{statistics.median(ms):>10.2f}"
              f"{percentile(ms, 0.9):>10.2f}{percentile(ms, 0.99):>10.2f}")


if __name__ == "__main__":
    main()
