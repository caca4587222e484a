"""What a game costs in AWS, counted request by request in the integration harness.

Whole games of each variant are played through the real Lambda handlers on
the DynamoDB adapter (moto). Counted: every DynamoDB request and the capacity
it consumes (read units per 4 KB, strongly consistent; index reads half; write
units per 1 KB; transactions twice), every Lambda invocation and its duration
(modelled from the handler's own CPU time and its round trips: see ``Meter``;
billed per ms at the template's memory size, arm64), every
API Gateway message (a client frame in, each post out; 32 KB units), every
SQS request. Connection minutes are estimated from a typical game length.
Prices are us-east-1 list prices (on-demand DynamoDB, standard SQS,
WebSocket API). Prints the cost per 1,000 games by term and variant, and what
a turn takes. The players connect with ``batch=1`` (one ``events`` frame per
request), as the reference client, ``numbridge bot`` and the load bench do; the
bench's own reads of the state (to choose a legal move) are not counted.
"""

from __future__ import annotations

import math
import os
import random
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from bench.harness_env import use_integration_harness

GAMES = int(os.environ.get("BENCH_COST_GAMES", "3"))

# us-east-1 list prices, 2026
PRICE = {
    "dynamodb_write_unit": 0.625 / 1e6,
    "dynamodb_read_unit": 0.125 / 1e6,
    "lambda_request": 0.20 / 1e6,
    "lambda_gb_s_arm64": 0.0000133334,
    "apigw_message": 1.00 / 1e6,
    "apigw_connection_minute": 0.25 / 1e6,
    "sqs_request": 0.40 / 1e6,
}
# How long a person takes per turn on average, to estimate connection minutes.
THINK_S = {"bridge": 20.0, "blitz": 10.0, "domains": 15.0}


def memory_mb() -> dict[str, int]:
    """Each function's memory as template.yaml gives it (billed per GB-s)."""
    from numbridge.local.lambdas.functions import DEFAULT_MEMORY_MB
    from numbridge.sam_template import function_dirs, function_settings

    settings = function_settings()
    return {uri.rstrip("/").rsplit("/", 1)[-1]:
            int(settings[logical_id].get("MemorySize", DEFAULT_MEMORY_MB))
            for logical_id, uri in function_dirs().items()}


# Lambda's duration is modelled, not timed: on this shared 2-core machine the wall time of
# a handler is mostly other processes' load and moto's own work, neither of which a
# Lambda pays for. Billed time = the handler's own CPU time (process CPU, the time spent
# in the emulated services taken out), stretched by the share of a vCPU its memory buys
# (a whole one at 1,769 MB), plus each remote call's round trip as typical in-region
# figures have it (client work included). A connection's frames are posted one after the
# other; ``Notifier.post_all`` posts to its connections at once, so it waits for the
# connection with the most frames.
FULL_VCPU_MB = 1769
ROUND_TRIP_MS = {"dynamodb read": 5.0, "dynamodb write": 7.0, "dynamodb transaction": 15.0,
                 "sqs send": 10.0, "post": 15.0}


class Meter:
    """What the invocation under way spends in the emulated services (process CPU, which
    is taken out of its own) and the round trips it would wait for in AWS instead."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.start()

    def start(self) -> None:
        self.cpu_s = 0.0
        self.wait_ms = 0.0
        self.posting_at_once = False

    def call(self, kind: str | None, fn: Any, *args: Any, **kwargs: Any) -> Any:
        """``fn`` as a call to a service of ``kind`` (``None``: its wait is counted by
        the caller)."""
        started = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            with self.lock:
                self.cpu_s += time.process_time() - started
                if kind is not None:
                    self.wait_ms += ROUND_TRIP_MS[kind]

    def wait(self, ms: float) -> None:
        with self.lock:
            self.wait_ms += ms

    def billed_s(self, cpu_s: float, memory_mb: int) -> float:
        """The invocation's modelled duration, from its whole process CPU time."""
        own = max(0.0, cpu_s - self.cpu_s) * max(1.0, FULL_VCPU_MB / memory_mb)
        return own + self.wait_ms / 1000


def meter_posts(meter: Meter) -> Any:
    """Patch ``Notifier`` so that its posts wait as they would in AWS; the undo."""
    from numbridge.service.aws.notifier import Notifier

    post, post_all = Notifier.post, Notifier.post_all

    def one(self: Any, connection_id: str, frames: Any) -> bool:
        frames = list(frames)
        if not meter.posting_at_once:
            meter.wait(len(frames) * ROUND_TRIP_MS["post"])
        return post(self, connection_id, frames)

    def at_once(self: Any, deliveries: Mapping[str, Sequence[Any]]) -> None:
        meter.wait(max((len(f) for f in deliveries.values()), default=0)
                   * ROUND_TRIP_MS["post"])
        meter.posting_at_once = True
        try:
            post_all(self, deliveries)
        finally:
            meter.posting_at_once = False

    Notifier.post, Notifier.post_all = one, at_once  # type: ignore[method-assign]

    def undo() -> None:
        Notifier.post, Notifier.post_all = post, post_all  # type: ignore[method-assign]

    return undo


class MeteredSqs:
    def __init__(self, sqs: Any, meter: Meter) -> None:
        self._sqs, self._meter = sqs, meter

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sqs, name)

    def send_message(self, **kwargs: Any) -> Any:
        return self._meter.call("sqs send", self._sqs.send_message, **kwargs)


class CountingStore:
    """The DynamoDB adapter, with every request and its capacity counted."""

    def __init__(self, store: Any, counts: Counter[str], meter: Meter) -> None:
        self._store = store
        self.counts = counts
        self._meter = meter

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    @staticmethod
    def _units(size: int, unit: int) -> int:
        return max(1, math.ceil(size / unit))

    def get(self, pk: str, sk: str) -> Any:
        from numbridge.store.port import item_bytes

        item = self._meter.call("dynamodb read", self._store.get, pk, sk)
        self.counts["dynamodb requests"] += 1
        self.counts["read units"] += self._units(item_bytes(item) if item else 0, 4096)
        return item

    def get_many(self, keys: Sequence[tuple[str, str]]) -> Any:
        from numbridge.store.port import item_bytes

        items = self._meter.call("dynamodb read", self._store.get_many, keys)
        self.counts["dynamodb requests"] += 1  # one BatchGetItem; units per item
        self.counts["read units"] += sum(self._units(item_bytes(i) if i else 0, 4096)
                                         for i in items)
        return items

    def put(self, item: Mapping[str, Any], condition: Any = None) -> None:
        from numbridge.store.port import item_bytes

        self._meter.call("dynamodb write", self._store.put, item, condition)
        self.counts["dynamodb requests"] += 1
        self.counts["write units"] += self._units(item_bytes(item), 1024)

    def delete(self, pk: str, sk: str, condition: Any = None) -> Any:
        from numbridge.store.port import item_bytes

        old = self._meter.call("dynamodb write", self._store.delete, pk, sk, condition)
        self.counts["dynamodb requests"] += 1
        self.counts["write units"] += self._units(item_bytes(old) if old else 0, 1024)
        return old

    def transact(self, writes: Sequence[Any]) -> None:
        from numbridge.store.port import Put, item_bytes

        self._meter.call("dynamodb transaction", self._store.transact, writes)
        self.counts["dynamodb requests"] += 1
        for write in writes:
            size = item_bytes(write.item) if isinstance(write, Put) else 1024
            self.counts["write units"] += 2 * self._units(size, 1024)

    def query(self, pk: str, keys: Any = None, *, index: bool = False, **kwargs: Any) -> Any:
        from numbridge.store.port import item_bytes

        page = self._meter.call("dynamodb read", self._store.query, pk, keys, index=index,
                                **kwargs)
        self.counts["dynamodb requests"] += 1
        units = self._units(sum(item_bytes(i) for i in page.items), 4096)
        self.counts["read units"] += units / 2 if index else units
        return page


def think_ms(rng: random.Random, mean_s: float, move_ms: int, clock_ms: int | None) -> int:
    """How long a player thinks: about ``mean_s`` on average, never near a limit."""
    wanted = rng.uniform(0.5, 1.5) * mean_s * 1000
    limits = [move_ms / 2] + ([] if clock_ms is None else [clock_ms / 8])
    return round(min(wanted, *limits))


def play_games(variant_room: str, variant: str, counts: Counter[str],
               durations: dict[str, list[float]], seed: int) -> int:
    """Play ``GAMES`` games in one room; how many turns they took in all."""
    import boto3
    import harness
    from harness import World, dynamodb_store
    from moto import mock_aws
    from numbridge import rules
    from numbridge.store.games import Games
    from players import choose, start_game

    real_function = harness.function
    meter = Meter()
    memory = memory_mb()

    def timed(name: str) -> Any:
        handler = real_function(name)

        def run(event: Any, context: Any) -> Any:
            counts["lambda invocations"] += 1
            meter.start()
            started = time.process_time()
            try:
                return handler(event, context)
            finally:
                billed = meter.billed_s(time.process_time() - started, memory[name])
                durations[name].append(billed)
                counts["lambda ms"] += billed * 1000

        return run

    harness.function = timed
    undo_posts = meter_posts(meter)
    turns = 0
    try:
        with mock_aws():
            world = World(dynamodb_store(boto3.client("dynamodb")), boto3.client("sqs"))
            # The bench's own look at the state (to choose a legal move) is not counted.
            peek = Games(world.svc.store)
            world.use_store(CountingStore(world.svc.store, counts, meter))
            for spy in (world.sqs, world.bot_sqs):
                spy.client = MeteredSqs(spy.client, meter)
            post = world.api.post_to_connection
            world.api.post_to_connection = (  # type: ignore[method-assign]
                lambda **kwargs: meter.call(None, post, **kwargs))
            # As the reference client, `numbridge bot` and the load bench connect.
            ana, bob = world.join("ana", batch=True), world.join("bob", batch=True)
            conns = {"ana": ana, "bob": bob}
            rng = random.Random(seed)
            thinking = random.Random(seed + 1)  # apart, so the moves chosen stay the same

            def current(game: str) -> Any:
                row = peek.load(game)
                assert row is not None
                return rules.GameState.from_dict(row.state)

            for _ in range(GAMES):
                game = start_game(world, variant_room, ana, bob)
                counts["client frames"] += 2
                while (state := current(game)).status != "finished":
                    assert state.turn is not None
                    fields = choose(state, rng)
                    # The clock moves as a person thinks: the times the record keeps (time
                    # and instant of every move) are as varied as in a real game, and so
                    # as hard to compress. Within the move limit and the mover's clock.
                    side = state.blue if state.turn == "blue" else state.red
                    world.clock.advance(think_ms(thinking, THINK_S[variant],
                                                 state.options.move_ms, side.clock_ms))
                    action = fields.pop("action")
                    answer = conns[state.players[state.turn]].ask(action, game=game, **fields)
                    assert answer["type"] == "ack", answer
                    counts["client frames"] += 1
                    turns += 1
            counts["posts"] += sum(len(f) for f in world.api.frames.values())
            counts["timer messages"] += len(world.sqs.sent) + counts.get("_sent", 0)
            world.close()
    finally:
        harness.function = real_function
        undo_posts()
    return turns


def cost(counts: Counter[str], durations: Mapping[str, list[float]], games: int,
         minutes: float) -> dict[str, float]:
    """Dollars per 1,000 games, by term."""
    scale = 1000 / games
    memory = memory_mb()
    gb_s = sum(sum(math.ceil(d * 1000) / 1000 for d in runs) * memory[name] / 1024
               for name, runs in durations.items())
    return {
        "DynamoDB writes": counts["write units"] * PRICE["dynamodb_write_unit"] * scale,
        "DynamoDB reads": counts["read units"] * PRICE["dynamodb_read_unit"] * scale,
        "Lambda requests": counts["lambda invocations"] * PRICE["lambda_request"] * scale,
        "Lambda duration": gb_s * PRICE["lambda_gb_s_arm64"] * scale,
        "API GW messages": (counts["client frames"] + counts["posts"] + 2)
        * PRICE["apigw_message"] * scale,
        "API GW connection min": minutes * PRICE["apigw_connection_minute"] * 1000,
        # send, receive and delete per timer message (the event source mapping batches
        # receives; counted one each: an upper bound)
        "SQS": counts["timer messages"] * 3 * PRICE["sqs_request"] * scale,
    }


def measure(variant_room: str, seed: int) -> tuple[dict[str, float], Counter[str], int]:
    counts: Counter[str] = Counter()
    durations: dict[str, list[float]] = defaultdict(list)
    variant = "blitz" if variant_room == "blitz" else variant_room
    turns = play_games(variant_room, variant, counts, durations, seed)
    minutes_per_game = 2 * turns / GAMES * THINK_S[variant] / 60  # two players connected
    return cost(counts, durations, GAMES, minutes_per_game), counts, turns


def main() -> None:
    use_integration_harness()

    print(f"cost per 1,000 games (USD, us-east-1 list prices), {GAMES} games per variant "
          "played through the handlers on DynamoDB (moto); Lambda time modelled (own CPU "
          "for the memory's vCPU share, plus round trips); "
          "clients asking for batched events; "
          "players thinking as people do (the clock advanced between moves)")
    rows: dict[str, dict[str, float]] = {}
    details = {}
    for room in ("bridge", "blitz", "domains"):
        rows[room], counts, turns = measure(room, seed=7)
        details[room] = (counts, turns)
    terms = list(next(iter(rows.values())))
    print(f"{'term':<24}" + "".join(f"{room:>10}" for room in rows))
    for term in terms:
        print(f"{term:<24}" + "".join(f"{rows[r][term]:>10.3f}" for r in rows))
    print(f"{'total':<24}" + "".join(f"{sum(rows[r].values()):>10.3f}" for r in rows))
    for room, (counts, turns) in details.items():
        per_turn = {k: v / turns for k, v in counts.items() if not k.startswith("_")}
        print(f"  {room}: {turns / GAMES:.0f} turns a game; per turn "
              + ", ".join(f"{k} {v:.1f}" for k, v in sorted(per_turn.items())))


if __name__ == "__main__":
    main()
