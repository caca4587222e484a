"""What the club costs in AWS, counted request by request in the integration harness.

Whole games of each variant are played through the real Lambda handlers on
the DynamoDB adapter (moto). Counted: every DynamoDB request and the capacity
it consumes (read units per 4 KB, strongly consistent; index reads half; write
units per 1 KB; transactions twice) and the index's own write units (gsi1
projects every attribute: ``index_units``); every Lambda invocation and its
duration (modelled from the handler's own CPU time and its round trips: see
``Meter``; billed per ms at the template's memory size, arm64), every timer woken
at its deadline (a stale one too: AWS wakes each); every API Gateway message (a
client frame in, each post out per 32 KB); every SQS request; the bytes the
handlers log (their lines and metric records, Lambda's own lines, the stage's
access log). Connection minutes are estimated from a typical game length. The
players connect with ``batch=1`` (one ``events`` frame per request), as the
reference client, ``numbridge bot`` and the load bench do; the bench's own reads
of the state (to choose a legal move) are not counted.

Then a tournament's cost per player-game (an arena and a Swiss of 16 players played
through the handlers: what the tournament itself spends beside its games' own share),
the fixed month (what the stack costs before anyone plays, from
template.yaml) and a player-hour at 100, 1,000 and 10,000 players online, from
the frames the reference client sends over a session, recorded in Chromium by
tests/web/test_session_frames.py (``session_frames.json``; the client as it was
when it polled the lobby: ``session_frames_polling.json``). Prices are us-east-1
list prices. The last lines are for scripts: the Bridge games' cost and the push
client's player-hour. docs/cost.md says what each figure means.
"""

from __future__ import annotations

import json
import math
import os
import random
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
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
    "logs_ingested_gb": 0.50,
    # the fixed month
    "alarm_metric_month": 0.10,
    "dashboard_month": 3.00,
    "custom_metric_month": 0.30,
    "secret_month": 0.40,
    # hosting the client: CloudFront (HTTPS requests, transfer out to the internet)
    "cloudfront_request": 0.0100 / 10_000,
    "cloudfront_gb": 0.085,
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
    def __init__(self, sqs: Any, meter: Meter,
                 sent: Callable[[dict[str, Any]], None] | None = None) -> None:
        self._sqs, self._meter, self._sent = sqs, meter, sent

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sqs, name)

    def send_message(self, **kwargs: Any) -> Any:
        if self._sent is not None:
            self._sent(json.loads(kwargs["MessageBody"]))
        return self._meter.call("sqs send", self._sqs.send_message, **kwargs)


def _index_key(item: Mapping[str, Any] | None) -> tuple[Any, Any] | None:
    if not item or item.get("gsi1pk") is None or item.get("gsi1sk") is None:
        return None
    return item["gsi1pk"], item["gsi1sk"]


def index_units(old: Mapping[str, Any] | None, new: Mapping[str, Any] | None) -> int:
    """The write units gsi1 consumes for a table write that turns ``old`` into ``new``
    (either None: no item). The index projects ALL attributes, so its entry is the whole
    item: a changed key deletes the old entry and puts the new one; an unchanged key
    rewrites the entry whenever the item changes. Index writes are standard writes, never
    doubled by a transaction."""
    from numbridge.store.port import item_bytes

    def units(item: Mapping[str, Any]) -> int:
        return max(1, math.ceil(item_bytes(item) / 1024))

    old_key, new_key = _index_key(old), _index_key(new)
    spent = 0
    if old is not None and old_key is not None and old_key != new_key:
        spent += units(old)
    if new is not None and new_key is not None and new != old:
        spent += units(new)
    return spent


class CountingStore:
    """The DynamoDB adapter, with every request and its capacity counted: the table's
    and its index's (gsi1) write units apart."""

    def __init__(self, store: Any, counts: Counter[str], meter: Meter) -> None:
        self._store = store
        self.counts = counts
        self._meter = meter

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    @staticmethod
    def _units(size: int, unit: int) -> int:
        return max(1, math.ceil(size / unit))

    def _before(self, pk: str, sk: str) -> Any:
        # What the item was, for its index entry: the bench's own look, not a request
        # (its CPU is taken out of the handler's like the emulated services').
        return self._meter.call(None, self._store.get, pk, sk)

    def _index(self, old: Any, new: Any) -> None:
        spent = index_units(old, new)
        self.counts["index write units"] += spent
        if spent and "STATE" in {str((old or {}).get("sk")), str((new or {}).get("sk"))}:
            self.counts["_deadline index units"] += spent

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
        from numbridge.store.port import clean, item_bytes

        old = self._before(str(item["pk"]), str(item["sk"]))
        self._meter.call("dynamodb write", self._store.put, item, condition)
        self.counts["dynamodb requests"] += 1
        self.counts["write units"] += self._units(item_bytes(item), 1024)
        self._index(old, clean(item))

    def delete(self, pk: str, sk: str, condition: Any = None) -> Any:
        from numbridge.store.port import item_bytes

        old = self._meter.call("dynamodb write", self._store.delete, pk, sk, condition)
        self.counts["dynamodb requests"] += 1
        self.counts["write units"] += self._units(item_bytes(old) if old else 0, 1024)
        self._index(old, None)
        return old

    def transact(self, writes: Sequence[Any]) -> None:
        from numbridge.store.port import Put, clean, item_bytes

        olds = [self._before(*write.key) for write in writes]
        self._meter.call("dynamodb transaction", self._store.transact, writes)
        self.counts["dynamodb requests"] += 1
        for write, old in zip(writes, olds, strict=True):
            size = item_bytes(write.item) if isinstance(write, Put) else 1024
            self.counts["write units"] += 2 * self._units(size, 1024)
            self._index(old, clean(write.item) if isinstance(write, Put) else None)

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


# ---------------------------------------------------------------- logs

# Lambda's own lines per invocation in its text log format: START, END and REPORT (about
# 75, 50 and 200 bytes with a request id; REPORT longer after a cold start).
PLATFORM_LOG_BYTES = 325
# The stage's access log: one line per connect, frame and disconnect (template.yaml's
# Format filled in with values as long as AWS's).
ACCESS_LOG_SAMPLE = {
    "$context.requestId": "QxBLyGs6oAMFqPw=", "$context.requestTimeEpoch": "1765000000000",
    "$context.eventType": "MESSAGE", "$context.routeKey": "proposals", "$context.status": "200",
    "$context.connectionId": "QxBLxfNYoAMCKcQ=", "$context.messageId": "QxBLyfNyoAMCKcQ=",
    "$context.identity.sourceIp": "203.0.113.27", "$context.integrationLatency": "38",
    "$context.integrationStatus": "200", "$context.error.message": "-",
}


def access_log_bytes() -> int:
    from numbridge.sam_template import load_template

    stage = next(r for r in load_template()["Resources"].values()
                 if r["Type"] == "AWS::ApiGatewayV2::Stage")
    line = stage["Properties"]["AccessLogSettings"]["Format"]
    for variable, value in sorted(ACCESS_LOG_SAMPLE.items(), key=lambda kv: -len(kv[0])):
        line = line.replace(variable, value)
    return len(line.encode()) + 1


class LogBytes:
    """Stands in for stdout and the logger's stream while the handlers run: the bytes they
    write during an invocation (their log lines and metric records, what CloudWatch Logs
    ingests), counted and not printed."""

    def __init__(self, counts: Counter[str]) -> None:
        self.counts = counts
        self.active = False

    def write(self, text: str) -> int:
        if self.active:
            self.counts["log bytes"] += len(text.encode())
        return len(text)

    def flush(self) -> None:
        pass


# ---------------------------------------------------------------- a metered club


class Club:
    """The handlers on moto, every request counted and every invocation's time modelled;
    what the handlers log counted as CloudWatch Logs would ingest it."""

    def __init__(self, counts: Counter[str], durations: dict[str, list[float]]) -> None:
        self.counts, self.durations = counts, durations
        self.meter = Meter()
        self.logs = LogBytes(counts)
        self.traces: dict[str, list[tuple[int, int]]] = defaultdict(list)

    def __enter__(self) -> Club:
        import contextlib

        import boto3
        import harness
        from harness import World, dynamodb_store
        from moto import mock_aws
        from numbridge.service.observability import logger
        from numbridge.store.games import Games

        self._stack = contextlib.ExitStack()
        memory = memory_mb()
        real_function = harness.function
        counts, durations, meter, logs = self.counts, self.durations, self.meter, self.logs

        def timed(name: str) -> Any:
            handler = real_function(name)

            def run(event: Any, context: Any) -> Any:
                counts["lambda invocations"] += 1
                counts[f"_invocations {name}"] += 1
                counts["log bytes"] += PLATFORM_LOG_BYTES
                meter.start()
                logs.active = True
                started = time.process_time()
                try:
                    return handler(event, context)
                finally:
                    logs.active = False
                    billed = meter.billed_s(time.process_time() - started, memory[name])
                    durations[name].append(billed)
                    counts["lambda ms"] += billed * 1000

            return run

        harness.function = timed
        self._stack.callback(setattr, harness, "function", real_function)
        self._stack.callback(meter_posts(meter))
        handler = logger.registered_handler
        old_stream = handler.setStream(logs)  # type: ignore[attr-defined]
        self._stack.callback(handler.setStream, old_stream)  # type: ignore[attr-defined]
        self._stack.enter_context(contextlib.redirect_stdout(logs))  # type: ignore[type-var]
        self._stack.enter_context(mock_aws())
        world = World(dynamodb_store(boto3.client("dynamodb")), boto3.client("sqs"))
        self._stack.callback(world.close)
        # The bench's own look at the state (to choose a legal move) is not counted.
        self.peek = Games(world.svc.store)
        self.raw = world.svc.store
        world.use_store(CountingStore(world.svc.store, counts, meter))

        def timer_sent(body: dict[str, Any]) -> None:
            counts["timer messages"] += 1
            self.traces[body["game"]].append((world.clock.now, body["deadline_ms"]))

        world.sqs.client = MeteredSqs(world.sqs.client, meter, timer_sent)
        world.bot_sqs.client = MeteredSqs(world.bot_sqs.client, meter)
        post = world.api.post_to_connection

        def posting(**kwargs: Any) -> Any:
            counts["posts"] += 1
            counts["post messages"] += math.ceil(len(kwargs["Data"]) / 32768)
            return meter.call(None, post, **kwargs)

        world.api.post_to_connection = posting  # type: ignore[method-assign]
        self.world = world
        return self

    def __exit__(self, *exc: object) -> None:
        self._stack.close()

    def state(self, game: str) -> Any:
        from numbridge import rules

        row = self.peek.load(game)
        assert row is not None
        return rules.GameState.from_dict(row.state)

    def wake_stale_timers(self, game: str, v_now: int | None = None) -> None:
        """Every timer of ``game`` for a version before ``v_now`` (all, if None) handed to
        the timeout function, one message an invocation: in AWS each timer a move sends
        wakes the function at its deadline, finds the game moved on, and stops."""
        import copy
        import json

        import harness
        from harness import LambdaContext, load_event

        template = load_event("timer-sqs")["Records"][0]
        for sent in list(self.world.sqs.sent):
            body = sent["body"]
            if body["game"] != game or (v_now is not None and body["v"] >= v_now):
                continue
            self.world.sqs.sent.remove(sent)
            record = copy.deepcopy(template)
            record.update(messageId=f"w{body['v']}", body=json.dumps(body))
            # It wakes at its deadline (its lag is measured, a metric record logged), with
            # the game long moved on; the game's clock goes on from where it was.
            now = self.world.clock.now
            self.world.clock.now = max(now, int(body["deadline_ms"]))
            reads = self.counts["read units"]
            try:
                answer = harness.function("timeout")({"Records": [record]}, LambdaContext())
            finally:
                self.world.clock.now = now
                self.counts["_wake read units"] += self.counts["read units"] - reads
            assert answer == {"batchItemFailures": []}, answer
            self.counts["timer wake-ups"] += 1


def play_games(variant_room: str, variant: str, counts: Counter[str],
               durations: dict[str, list[float]], seed: int) -> tuple[int, list[Any]]:
    """Play ``GAMES`` games in one room; how many turns they took in all, and each game's
    timers (sent at, deadline) with its end."""
    from players import choose, start_game

    turns = 0
    chains: list[Any] = []
    with Club(counts, durations) as club:
        world = club.world
        # As the reference client, `numbridge bot` and the load bench connect.
        ana, bob = world.join("ana", batch=True), world.join("bob", batch=True)
        conns = {"ana": ana, "bob": bob}
        rng = random.Random(seed)
        thinking = random.Random(seed + 1)  # apart, so the moves chosen stay the same
        for _ in range(GAMES):
            game = start_game(world, variant_room, ana, bob)
            counts["client frames"] += 2
            while (state := club.state(game)).status != "finished":
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
                club.wake_stale_timers(game, club.state(game).v)
            chains.append((list(club.traces[game]), world.clock.now))
            club.wake_stale_timers(game)
        counts["_state bytes"] += _state_bytes(club, game)
    return turns, chains


def _state_bytes(club: Club, game: str) -> int:
    from numbridge.store import keys
    from numbridge.store.port import item_bytes

    item = club.raw.get(keys.game(game), keys.STATE)
    return item_bytes(item) if item else 0


# ---------------------------------------------------------------- one timer chain a game

MAX_DELAY_MS = 900_000  # SQS's longest DelaySeconds


def chain(trace: Sequence[tuple[int, int]], end_ms: int) -> tuple[int, int]:
    """(messages sent, wake-ups) if a game kept one timer in flight instead of sending one
    a move: a move sends a timer only when none in flight wakes by its new deadline; a
    timer that wakes before the deadline sends itself on to it (the chain). ``trace``:
    (sent at, deadline) of each timer the game really sent."""
    pending: list[int] = []
    sends = wakeups = 0
    deadline: int | None = None

    def wake_until(t: int) -> None:
        nonlocal sends, wakeups
        while pending and min(pending) <= t:
            woke = min(pending)
            pending.remove(woke)
            wakeups += 1
            if deadline is not None and deadline > woke and not any(
                    p <= deadline for p in pending):
                pending.append(min(deadline, woke + MAX_DELAY_MS))
                sends += 1

    for sent_at, new_deadline in trace:
        wake_until(sent_at)
        deadline = new_deadline
        if not any(p <= new_deadline for p in pending):
            pending.append(min(new_deadline, sent_at + MAX_DELAY_MS))
            sends += 1
    deadline = None
    wake_until(end_ms)
    return sends, wakeups + len(pending)


# ---------------------------------------------------------------- per game


# ---------------------------------------------------------------- a tournament

TOURNAMENT_PLAYERS = 16


def _snapshot(counts: Counter[str], durations: Mapping[str, list[float]]
              ) -> tuple[Counter[str], dict[str, int]]:
    return Counter(counts), {name: len(runs) for name, runs in durations.items()}


def _since(before: tuple[Counter[str], dict[str, int]], counts: Counter[str],
           durations: Mapping[str, list[float]], own: Counter[str],
           own_durations: dict[str, list[float]]) -> None:
    """Add what was spent since ``before`` to the tournament's own spending."""
    counted, runs = before
    own.update(counts - counted)
    for name, all_runs in durations.items():
        own_durations[name] += all_runs[runs.get(name, 0):]


def play_tournament(kind: str, seed: int) -> tuple[Counter[str], dict[str, list[float]], int]:
    """A tournament of ``TOURNAMENT_PLAYERS`` through the handlers on moto, every player
    subscribed to its standings: what the tournament itself spent (the joins, every step
    of the tournament function, the step messages whoever sent them), apart from its
    games' own moves; and how many player-games it played (two a game)."""
    import dataclasses

    import harness
    from harness import LambdaContext, SpySqs, sqs_event
    from numbridge.service import context as ctx
    from numbridge.service.aws.sqs_tournaments import SqsTournamentSteps
    from numbridge.service.usecases.tournaments import create_tournament
    from numbridge.store.tournaments import Tournaments
    from players import current, first_moves

    counts: Counter[str] = Counter()
    durations: dict[str, list[float]] = defaultdict(list)
    own: Counter[str] = Counter()
    own_durations: dict[str, list[float]] = defaultdict(list)
    rng = random.Random(seed)
    with Club(counts, durations) as club:
        world = club.world
        url = world.sqs.client.create_queue(QueueName="tournaments")["QueueUrl"]
        queue = SpySqs(MeteredSqs(world.sqs.client, club.meter), world.clock)
        world.svc = dataclasses.replace(world.svc,
                                        tournament_steps=SqsTournamentSteps(queue, url))
        ctx.install(world.svc)
        tid = create_tournament(world.store, world.clock, kind=kind, room="blitz",
                                starts_ms=world.clock() + 60_000,
                                minutes=20 if kind == "arena" else None,
                                rounds=4 if kind == "swiss" else None, rated=False)
        conns = {f"p{n:02d}": world.join(f"p{n:02d}", batch=True)
                 for n in range(TOURNAMENT_PLAYERS)}
        before = _snapshot(counts, durations)
        for conn in conns.values():
            conn.ask("subscribe", topic=f"tournament:{tid}")
            conn.ask("join_tournament", tournament=tid)
            counts["client frames"] += 2
        _since(before, counts, durations, own, own_durations)

        def steps() -> None:
            """Deliver the steps due now, each batch as SQS would hand it."""
            for _ in range(50):
                due = [m for m in queue.sent if m["body"].get("due_ms") is None
                       or m["body"]["due_ms"] <= world.clock()]
                if not due:
                    return
                queue.sent[:] = [m for m in queue.sent if m not in due]
                own["step messages"] += len(due)
                before = _snapshot(counts, durations)
                # harness.function as the Club meters it (looked up now, not imported)
                harness.function("tournament")(sqs_event([m["body"] for m in due], "t",
                                                         "tournaments"), LambdaContext())
                _since(before, counts, durations, own, own_durations)

        world.clock.advance(60_000)
        before = _snapshot(counts, durations)
        world.sweep()  # the start is due: the sweep sends its step
        _since(before, counts, durations, own, own_durations)
        steps()
        games = 0
        for _ in range(6 if kind == "arena" else 40):
            t = Tournaments(world.store).get(tid)
            live = [str(i["game"]) for i in Tournaments(world.store).live(tid)]
            if t is None or t.status == "finished" or not live:
                break
            for game in live:  # each game: both first moves, then a player resigns
                first_moves(world, game, conns, seed=rng.randrange(1000))
            world.clock.advance(20_000)
            for game in live:
                state = current(world, game)
                conns[rng.choice(list(state.players.values()))].ask("resign", game=game)
                games += 1
            steps()
        if kind == "arena":  # the end: its timer; the games still running lost on time
            running = [str(i["game"]) for i in Tournaments(world.store).live(tid)]
            for game in running:
                first_moves(world, game, conns, seed=rng.randrange(1000))
            games += len(running)
            world.clock.advance(20 * 60_000)
            world.deliver_timers()
            for _ in range(5):
                steps()
                world.clock.advance(MAX_DELAY_MS)
        t = Tournaments(world.store).get(tid)
        assert t is not None and t.status == "finished", t
    return own, own_durations, 2 * games


def tournament_rows(blitz_game: float) -> dict[str, dict[str, float]]:
    """Dollars per 1,000 player-games of an arena and a Swiss: the tournament's own terms,
    then a Blitz game's own share (half of a game, ``blitz_game`` per 1,000 games)."""
    rows = {}
    for kind in ("arena", "swiss"):
        own, own_durations, player_games = play_tournament(kind, seed=11)
        # each step message is sent, received and deleted (as the timers are counted)
        own["timer messages"] += own.pop("step messages", 0)
        row = cost(own, own_durations, player_games, minutes=0.0)
        row.pop("API GW connection min")
        row["a Blitz game's own share"] = blitz_game / 2
        row["_player-games"] = player_games
        rows[kind] = row
    return rows


def gb_seconds(durations: Mapping[str, list[float]]) -> float:
    memory = memory_mb()
    return sum(sum(math.ceil(d * 1000) / 1000 for d in runs) * memory[name] / 1024
               for name, runs in durations.items())


def cost(counts: Counter[str], durations: Mapping[str, list[float]], games: int,
         minutes: float) -> dict[str, float]:
    """Dollars per 1,000 games, by term."""
    scale = 1000 / games
    log_bytes = counts["log bytes"] + counts["client frames"] * access_log_bytes()
    return {
        "DynamoDB writes": counts["write units"] * PRICE["dynamodb_write_unit"] * scale,
        "DynamoDB index writes": (counts["index write units"] * PRICE["dynamodb_write_unit"]
                                  * scale),
        "DynamoDB reads": counts["read units"] * PRICE["dynamodb_read_unit"] * scale,
        "Lambda requests": counts["lambda invocations"] * PRICE["lambda_request"] * scale,
        "Lambda duration": gb_seconds(durations) * PRICE["lambda_gb_s_arm64"] * scale,
        "API GW messages": (counts["client frames"] + counts["post messages"])
        * PRICE["apigw_message"] * scale,
        "API GW connection min": minutes * PRICE["apigw_connection_minute"] * 1000,
        # send, receive and delete per timer message (the event source mapping batches
        # receives; counted one each: an upper bound)
        "SQS": counts["timer messages"] * 3 * PRICE["sqs_request"] * scale,
        "CloudWatch Logs": log_bytes / 1e9 * PRICE["logs_ingested_gb"] * scale,
    }


def measure(variant_room: str, seed: int) -> tuple[dict[str, float], Counter[str], int,
                                                   dict[str, list[float]], list[Any]]:
    counts: Counter[str] = Counter()
    durations: dict[str, list[float]] = defaultdict(list)
    variant = "blitz" if variant_room == "blitz" else variant_room
    turns, chains = play_games(variant_room, variant, counts, durations, seed)
    minutes_per_game = 2 * turns / GAMES * THINK_S[variant] / 60  # two players connected
    return (cost(counts, durations, GAMES, minutes_per_game), counts, turns, durations,
            chains)


def uncounted_before(counts: Counter[str], durations: Mapping[str, list[float]]) -> float:
    """Dollars per 1,000 games of what the bench did not count before: the timers woken
    (their invocations, time and reads) and every log byte."""
    wakes = {"timeout": durations.get("timeout", [])}
    log_bytes = counts["log bytes"] + counts["client frames"] * access_log_bytes()
    return 1000 / GAMES * (
        counts["_invocations timeout"] * PRICE["lambda_request"]
        + gb_seconds(wakes) * PRICE["lambda_gb_s_arm64"]
        + counts["_wake read units"] * PRICE["dynamodb_read_unit"]
        + log_bytes / 1e9 * PRICE["logs_ingested_gb"])


def wake_cost(counts: Counter[str], durations: Mapping[str, list[float]]) -> float:
    """What one stale timer's wake-up costs, as measured: the invocation, its time, its
    read, the receive and delete, its log lines."""
    wakes = counts["timer wake-ups"]
    timeout_runs = durations.get("timeout", [])
    if not wakes or not timeout_runs:
        return 0.0
    memory = memory_mb()["timeout"]
    mean_s = sum(math.ceil(d * 1000) / 1000 for d in timeout_runs) / len(timeout_runs)
    return (PRICE["lambda_request"] + mean_s * memory / 1024 * PRICE["lambda_gb_s_arm64"]
            + 2 * PRICE["sqs_request"] + 1 * PRICE["dynamodb_read_unit"]
            + (PLATFORM_LOG_BYTES + 300) / 1e9 * PRICE["logs_ingested_gb"])


def send_cost() -> float:
    """A timer's send: the request and the sender's wait for it (move function)."""
    return (PRICE["sqs_request"] + ROUND_TRIP_MS["sqs send"] / 1000 * memory_mb()["move"]
            / 1024 * PRICE["lambda_gb_s_arm64"])


# ---------------------------------------------------------------- the fixed month

MONTH_MIN = 30 * 24 * 60
# An idle SQS event source mapping keeps about five pollers long-polling (20 s waits).
IDLE_POLLERS, POLLS_A_MINUTE = 5, 3
# Each function's containers are started again a few times a day even when busy (Lambda
# recycles them); since August 2025 the init phase is billed as duration. Init time as
# measured in docs/aws.md ("Cold starts"), at the function's memory.
INITS_A_DAY, INIT_S = 12, 0.6


def fixed_month(sweep_counts: Counter[str], sweep_durations: Mapping[str, list[float]]
                ) -> dict[str, float]:
    """What the stack costs a month before anyone plays, by term, from template.yaml."""
    from numbridge.sam_template import load_template

    resources = load_template()["Resources"]
    always = {k: v for k, v in resources.items() if "Condition" not in v}
    alarm_metrics = 0
    for alarm in (v["Properties"] for v in always.values()
                  if v["Type"] == "AWS::CloudWatch::Alarm"):
        stats = [m for m in alarm.get("Metrics", []) if "MetricStat" in m]
        alarm_metrics += len(stats) if stats else 1
    dashboards = sum(1 for v in always.values() if v["Type"] == "AWS::CloudWatch::Dashboard")
    functions = [k for k, v in always.items() if v["Type"] == "AWS::Serverless::Function"]
    metrics = len(emitted_metric_names() - {"ColdStart"}) + len(functions)  # ColdStart each
    mappings = sum(1 for v in always.values() if v["Type"] == "AWS::Serverless::Function"
                   for e in v["Properties"].get("Events", {}).values() if e["Type"] == "SQS")
    secrets = sum(1 for v in always.values() if v["Type"] == "AWS::SecretsManager::Secret")
    sweeps = MONTH_MIN  # rate(1 minute)
    memory = memory_mb()
    return {
        f"alarms ({alarm_metrics} metrics)": alarm_metrics * PRICE["alarm_metric_month"],
        f"dashboard ({dashboards})": dashboards * PRICE["dashboard_month"],
        f"custom metrics ({metrics})": metrics * PRICE["custom_metric_month"],
        f"secret ({secrets})": secrets * PRICE["secret_month"],
        f"idle queue polling ({mappings} queues)": (mappings * IDLE_POLLERS * POLLS_A_MINUTE
                                                    * MONTH_MIN * PRICE["sqs_request"]),
        "the sweep (a minute, empty club)": sweeps * (
            PRICE["lambda_request"]
            + gb_seconds(sweep_durations) / max(1, len(sweep_durations.get("timeout", [])))
            * PRICE["lambda_gb_s_arm64"]
            + sweep_counts["read units"] / max(1, sweep_counts["lambda invocations"])
            * PRICE["dynamodb_read_unit"]
            + (PLATFORM_LOG_BYTES + sweep_counts["log bytes"]
               / max(1, sweep_counts["lambda invocations"])) / 1e9 * PRICE["logs_ingested_gb"]),
        "billed init (estimate)": sum(INITS_A_DAY * 30 * INIT_S * memory[name] / 1024
                                      for name in memory) * PRICE["lambda_gb_s_arm64"],
    }


def emitted_metric_names() -> set[str]:
    """Every metric name the code emits (``count``/``measure`` calls, play's ``names``)."""
    import ast
    from pathlib import Path

    import numbridge

    names: set[str] = set()
    for path in Path(numbridge.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in {"count", "measure"} and node.args
                    and isinstance(node.args[0], ast.Constant)):
                names.add(str(node.args[0].value))
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict)
                    and [getattr(t, "id", None) for t in node.targets] == ["names"]):
                names.update(str(v.value) for v in node.value.values
                             if isinstance(v, ast.Constant))
    return names


def measure_sweep() -> tuple[Counter[str], dict[str, list[float]]]:
    """The one-minute sweep of a club with no game in play, through the handler."""
    import harness
    from harness import LambdaContext, load_event

    counts: Counter[str] = Counter()
    durations: dict[str, list[float]] = defaultdict(list)
    with Club(counts, durations):
        counts.clear()
        durations.clear()
        for _ in range(5):
            harness.function("timeout")(load_event("sweep"), LambdaContext())
    return counts, durations


# ---------------------------------------------------------------- a player-hour

# The reference client's frames, recorded in Chromium by tests/web/test_session_frames.py:
# as it is (the lobby pushed: docs/lobby-push.md), and as it was when it polled the lobby.
SESSION_FIXTURES = {"push": Path(__file__).resolve().parent / "session_frames.json",
                    "polling": Path(__file__).resolve().parent / "session_frames_polling.json"}
# How an hour online is spent (assumed, not measured): the page in front, in the lobby, in a
# game or watching one; or in a hidden tab (no polls: the client asks only while seen).
SHARE = {"lobby": 0.30, "playing": 0.55, "watching": 0.10, "hidden": 0.05}
SIGN_INS_AN_HOUR = 1.0  # an hour-long session
RECONNECTS_AN_HOUR = 1.0  # API Gateway's 2-hour cut, networks, a laptop's lid
WATCH_MINUTES = 10  # a watch, from watch to unwatch
PROPOSING = 0.2  # of the players in the lobby, the share with a proposal up
# Frames that belong to a game's own cost (counted per game by the games played above).
GAME_ACTIONS = {"propose", "accept", "place", "take", "exchange", "swap", "resign",
                "offer_draw", "accept_draw", "decline_draw", "abort"}
POLLS = {"proposals", "live"}
# The push client (docs/lobby-push.md): subscribed while the lobby is shown; changes
# coalesced by the fan-out into one frame per subscriber per batch, a batch being what
# the lobby queue's mapping gathers in its window (template.yaml's fan-out, read below).
ALTERNATIVE_WINDOW_S = 5.0


def push_window_s() -> float:
    from numbridge.sam_template import load_template

    events = load_template()["Resources"]["FanoutFunction"]["Properties"]["Events"]
    [window] = [e["Properties"].get("MaximumBatchingWindowInSeconds", 0)
                for e in events.values() if e["Type"] == "SQS"]
    return max(1.0, float(window))  # below a second, batches are as the changes come

SUBSCRIBER_ROW_BYTES = 150
FANOUT_MEMORY_MB = 512
FANOUT_POSTS = 64  # notifier.FANOUT_POSTS: the fan-out's posts at once
# Keep-alive (docs/aws.md, "Idle connections"): a ping after 9 minutes without a frame
# sent; the ping route is a MOCK integration (one message, no Lambda).
PING_AFTER_MIN = 9


def session_phases(client: str) -> dict[str, dict[str, Any]]:
    phases: dict[str, dict[str, Any]] = json.loads(
        SESSION_FIXTURES[client].read_text(encoding="utf-8"))["phases"]
    return phases


def per_minute(phase: Mapping[str, Any], keep: Callable[[str], bool]) -> Counter[str]:
    minutes = phase["page_ms"] / 60_000
    return Counter({a: n / minutes for a, n in
                    Counter(f["action"] for f in phase["frames"] if keep(f["action"])).items()})


def once(phase: Mapping[str, Any], keep: Callable[[str], bool]) -> Counter[str]:
    return Counter(f["action"] for f in phase["frames"] if keep(f["action"]))


def frames_an_hour(client: str, games_an_hour: float) -> Counter[str]:
    """What one player's page sends in an hour online, from the recorded session: each
    phase's frames, once per occurrence or per minute of its share of the hour."""
    phases = session_phases(client)
    polling = client == "polling"

    def not_game(action: str) -> bool:
        return action not in GAME_ACTIONS

    hour: Counter[str] = Counter()

    def add(counter: Counter[str], times: float) -> None:
        for action, n in counter.items():
            hour[action] += n * times

    watches = SHARE["watching"] * 60 / WATCH_MINUTES
    add(once(phases["sign_in"], not_game), SIGN_INS_AN_HOUR)
    add(once(phases["reconnect"], not_game), RECONNECTS_AN_HOUR)
    add(once(phases["deal"], not_game), games_an_hour)
    add(once(phases["game_end"], not_game), games_an_hour)
    add(once(phases["unwatch"], not_game), watches)
    # the minutes recorded: what is sent on a timer (the polls, if any) per minute of each
    # share; what is sent once (a watch, the lobby left for it) per occurrence
    add(once(phases["watching_minute"], lambda a: a not in POLLS), watches)
    add(per_minute(phases["lobby"], lambda a: a in POLLS), SHARE["lobby"] * 60)
    add(per_minute(phases["game_minute"], lambda a: a in POLLS), SHARE["playing"] * 60)
    add(per_minute(phases["watching_minute"], lambda a: a in POLLS), SHARE["watching"] * 60)
    # A hidden page: the polling client stops asking; the push client unsubscribes (and
    # subscribes afresh when it is seen again: once a session, counted as a sign-in's).
    if not polling:
        add(once(phases["sign_in"], lambda a: a == "subscribe"), SIGN_INS_AN_HOUR)
        hour["unsubscribe"] += SIGN_INS_AN_HOUR
    idle = SHARE["hidden"] * 60 + (0 if polling else SHARE["lobby"] * 60)
    hour["ping"] += idle / PING_AFTER_MIN
    return hour


def club_actions(online: int) -> dict[str, dict[str, float]]:
    """Each list and game-side action the client sends, through the handlers, in a club of
    ``online`` players: the lobby's open proposals and the games being played as many as
    the session model says (the list requests are paged at 50; a lobby subscription
    reads both lists whole, for the subscriber's page of each: docs/lobby-push.md).
    Per frame: dollars by term."""
    from numbridge.store import keys
    from players import start_game

    counts: Counter[str] = Counter()
    durations: dict[str, list[float]] = defaultdict(list)
    proposals = round(online * SHARE["lobby"] * PROPOSING)
    playing = round(online * SHARE["playing"] / 2)
    costs: dict[str, dict[str, float]] = {}
    with Club(counts, durations) as club:
        world = club.world
        ana, bob, cy = (world.join(n, batch=True) for n in ("ana", "bob", "cy"))
        game = start_game(world, "bridge", ana, bob)
        finished = start_game(world, "blitz", ana, bob)
        ana.ask("resign", game=finished)
        # The games being played: the one dealt, and copies of its items under new ids.
        items = [club.raw.get(keys.game(game), sk) for sk in (keys.STATE, keys.PLAYING)]
        for n in range(playing - 1):
            copy_id = f"{game[:-5]}{n:05d}"
            for item in items:
                assert item is not None
                clone = {**item, "pk": keys.game(copy_id)}
                if item["sk"] == keys.PLAYING:
                    clone["gsi1sk"] = keys.playing_order(copy_id)
                club.raw.put(clone)
        # The open proposals: five made through the handlers, the rest copies of their
        # items under new ids (each in its room's index).
        proposer = world.join("p0", batch=True)
        made = [proposer.ask("propose", room="bridge")["proposal"]
                for _ in range(min(5, proposals))]
        for n in range(proposals - len(made)):
            doc = made[n % len(made)]
            item = club.raw.get(keys.proposal(doc["id"]), keys.PROPOSAL)
            assert item is not None
            copy_id = f"{doc['id']}c{n:05d}"
            club.raw.put({**item, "pk": keys.proposal(copy_id),
                          "gsi1sk": keys.proposal_order(int(doc["created_ms"]), copy_id),
                          "proposal": json.dumps({**doc, "id": copy_id})})
        asks = {
            "rooms": {}, "proposals": {}, "games": {}, "live": {}, "record": {"game": finished},
            "sync": {"game": game, "v": 0}, "watch": {"game": game},
            "subscribe": {"topic": "lobby"},
        }
        for action, fields in asks.items():
            counts.clear()
            durations.clear()
            runs = 3
            for _ in range(runs):
                answer = cy.ask(action, **fields)
                assert answer["type"] != "error", answer
                if action in {"watch", "subscribe"}:
                    undo = {"watch": "unwatch", "subscribe": "unsubscribe"}[action]
                    assert cy.ask(undo, **fields)["type"] != "error"
            if action in {"watch", "subscribe"}:  # and its undoing: each one frame's cost
                runs *= 2
            counts["client frames"] += runs
            costs[action] = {k: v / runs for k, v in cost(counts, durations, 1000, 0).items()}
    costs["unwatch"] = costs["watch"]
    costs["unsubscribe"] = costs["subscribe"]
    return costs


# The lobby's pushes, counted: the fan-out's own decision (club.lobby_pages: which
# subscriber's page a change touches, what slides in, the online count's step) driven by a
# synthetic club, simulated for PUSH_SIM_S seconds at each size.
PUSH_SIM_S = 1800
PROPOSAL_ROW_BYTES = 330  # a proposal's index entry as the lobby reads it
LIVE_ROW_BYTES = 190  # a game's PLAYING entry
LISTED_ROOMS = 3  # rooms whose lists the lobby reads: a query each at least
# Quick pairing in the synthetic club (assumed, not measured): the share of games started
# by two seekers rather than a proposal taken; the rooms seekers pick (rooms.yaml's five:
# Bridge and Blitz the most); their ratings (Glicko-2, spread as a club's are); a seeker
# left alone gives up (cancel_seek) after SEEK_GIVE_UP_S. Each seeker is paired by
# club.pairing's own rule: at once with its best fit among those waiting, else it waits
# and is tried again as its window widens (every 5 s; here at each batch's end).
SEEK_SHARE = 0.5
SEEK_ROOMS = {"bridge": 0.35, "blitz": 0.35, "bridge-60": 0.1, "domains": 0.1, "study": 0.1}
SEEK_RATING = (1500.0, 250.0)
SEEK_GIVE_UP_S = 120
# How the seekers' counts are pushed: "each" as the fan-out once did (every count a seek
# hint names, to every subscriber, in the batch), "due" by club.lobby_pages.seeks_due
# (a budget of SEEKS_BURST pushes, refilled at one per SEEKS_EVERY_MS), "every" by it
# with a budget of one (at most every SEEKS_EVERY_MS: the rule before the budget).
SEEKS_RULE = "due"
# A count change the subscribers are told of within this (the contract's 2 s; the
# batch's window is 1 s): counted against the figure pushed at each batch's end.
SEEKS_PROMPT_S = 2.0
SEEK_STATE_WRITES = "seek state writes"


def count_pushes(online: int, window_s: float, seed: int = 11,
                 every_ms: int | None = None, burst: int | None = None,
                 sim_s: float = PUSH_SIM_S) -> dict[str, float]:
    """Frames per subscriber-hour, and the fan-out's work per hour, in a club of
    ``online`` players, from the fan-out's own decision rather than a formula.

    The club as the session model has it (SHARE, PROPOSING, BRIDGE_GAME_MIN): players
    in the lobby subscribed; proposals made at the rate games start and taken by a
    subscriber picked at random from its own page (where players accept: so a shared
    page would take every acceptance); each taken proposal starts a game listed until it
    ends (its length uniform in ±50 % of BRIDGE_GAME_MIN); each player's session of an
    hour moves the online count up and down once. Changes are gathered into batches of
    ``window_s`` (the queue's window), coalesced as the fan-out does (what came and went
    within a batch is dropped), and each batch decided by ``club.lobby_pages``: a
    subscriber is posted a frame when its page of either list moved or a count is
    pushed to all (the online count when due and moved by its step).

    The seekers' counts are pushed by ``seeks_due`` with a budget of ``burst`` pushes
    (SEEKS_BURST; one for SEEKS_RULE "every"); each change of a room's count is timed
    from the batch it came in to the batch whose push shows it (or in which the count
    came back to the figure shown)."""
    from bisect import insort

    from numbridge.club.lobby_pages import (
        PAGE,
        SEEKS_BURST,
        SEEKS_EVERY_MS,
        Circle,
        online_moved,
        point,
        scoped,
        seeks_due,
        start_of,
    )
    from numbridge.club.pairing import STEP_MS, Seeker, best_match, pair_all
    from numbridge.store.online import PUSH_EVERY_MS

    rng = random.Random(seed)
    every_ms = SEEKS_EVERY_MS if every_ms is None else every_ms
    if burst is None:
        burst = 1 if SEEKS_RULE == "every" else SEEKS_BURST
    subscribers = max(1, round(online * SHARE["lobby"]))
    starts = {f"s{n}": start_of(f"player-{n}") for n in range(subscribers)}
    keys = list(starts)
    game_s = BRIDGE_GAME_MIN * 60
    rate = online * SHARE["playing"] * 60 / BRIDGE_GAME_MIN / 2 / 3600  # games a second
    serial = iter(range(10**9))
    # Each list kept in circle order as it changes (a Circle made of it in a step).
    proposals: list[tuple[int, str]] = []
    live: list[tuple[int, str]] = []
    ends: dict[str, float] = {}

    def add(circle: list[tuple[int, str]], prefix: str) -> str:
        key = f"{prefix}{next(serial)}"
        insort(circle, (point(key), key))
        return key

    def drop(circle: list[tuple[int, str]], key: str) -> None:
        circle.remove((point(key), key))

    def circle_of(circle: list[tuple[int, str]]) -> Circle:
        return Circle(tuple(k for _, k in circle), tuple(p for p, _ in circle))

    # Each proposal's player, one of the lobby's (a subscriber): the end of one's own
    # proposal reaches its player wherever the circle puts it (lobby_pages.shown).
    players = {key: f"player-{key[1:]}" for key in starts}
    owners: dict[str, str] = {}

    def propose() -> str:
        pid = add(proposals, "p")
        owners[pid] = players[keys[rng.randrange(len(keys))]]
        return pid

    for _ in range(round(online * SHARE["lobby"] * PROPOSING)):
        propose()
    for _ in range(round(online * SHARE["playing"] / 2)):
        ends[add(live, "g")] = rng.uniform(0, 1.5 * game_s)
    counted = online
    pushed, sent_s, due_s = online, -math.inf, None

    def poisson(mean: float) -> int:
        n, t = 0, rng.expovariate(1.0) if mean > 0 else math.inf
        while t < mean:
            n += 1
            t += rng.expovariate(1.0)
        return n

    waiting: dict[str, list[Seeker]] = {room: [] for room in SEEK_ROOMS}
    seek_rate = 2 * rate * SEEK_SHARE  # seekers a second: two a game
    seeks_pushed: dict[str, int] = {room: 0 for room in SEEK_ROOMS}
    seeks_full_ms, seeks_due_ms = 0, 0
    markers: list[int] = []  # the delayed looks sent, when each comes
    # each room's figure shown, since when it has differed from the count (None: it agrees)
    stale: dict[str, float | None] = {room: None for room in SEEK_ROOMS}
    lags: list[float] = []  # of each stretch of a figure differing, its length (s)
    counts_at: dict[str, int] = {room: 0 for room in SEEK_ROOMS}
    count_changes = 0
    waits: list[float] = []  # of each pairing, the longer of its two seekers' waits
    arrived = at_once = 0

    def seek_game(now_s: float) -> None:
        gid = add(live, "g")
        ends[gid] = now_s + rng.uniform(0.5 * game_s, 1.5 * game_s)
        added_l.add(gid)

    totals: Counter[str] = Counter()
    batches = int(sim_s / window_s)
    after_p, after_l = circle_of(proposals), circle_of(live)
    for b in range(batches):
        now = (b + 1) * window_s
        before_p, before_l = after_p, after_l
        added_p: set[str] = set()
        gone_p: set[str] = set()
        added_l: set[str] = set()
        gone_l: set[str] = set()
        for _ in range(poisson(rate * (1 - SEEK_SHARE) * window_s)):  # proposals made
            added_p.add(propose())
        # proposals taken, from a taker's page
        for _ in range(poisson(rate * (1 - SEEK_SHARE) * window_s)):
            if not proposals:
                break
            taker = starts[keys[rng.randrange(len(keys))]]
            pid = rng.choice(circle_of(proposals).page(taker, PAGE))
            drop(proposals, pid)
            gone_p.add(pid)
            gid = add(live, "g")
            ends[gid] = now + rng.uniform(0.5 * game_s, 1.5 * game_s)
            added_l.add(gid)
        # Quick pairing: each room's seekers, in the order they come within the batch.
        hinted: set[str] = set()
        now_ms = round(now * 1000)
        retried = False
        for t in sorted(now - window_s * rng.random() for _ in range(poisson(
                seek_rate * window_s))):
            room = rng.choices(list(SEEK_ROOMS), list(SEEK_ROOMS.values()))[0]
            n = next(serial)
            me = Seeker(f"k{n}", f"q{n}", rng.gauss(*SEEK_RATING), round(t * 1000))
            arrived += 1
            hinted.add(room)
            match = best_match(me, waiting[room], me.since_ms)
            if match is None:
                waiting[room].append(me)
                retried = True  # a waiting seek's first retry message, at once
                continue
            waiting[room].remove(match)
            at_once += 1
            waits.append(me.since_ms - match.since_ms)
            seek_game(now)
        for room, seekers in waiting.items():
            # the window widened within the batch: a retry message, the room tried again
            if any((now_ms - s.since_ms) // STEP_MS != (now_ms - round(window_s * 1000)
                                                        - s.since_ms) // STEP_MS
                   for s in seekers):
                retried = True
                for one, other in pair_all(seekers, now_ms):
                    seekers.remove(one)
                    seekers.remove(other)
                    waits.append(now_ms - min(one.since_ms, other.since_ms))
                    hinted.add(room)
                    seek_game(now)
            for s in [s for s in seekers if now_ms - s.since_ms >= SEEK_GIVE_UP_S * 1000]:
                seekers.remove(s)
                hinted.add(room)
                totals["seekers gave up"] += 1
        for gid in [g for g, end in ends.items() if end <= now]:
            del ends[gid]
            drop(live, gid)
            gone_l.add(gid)
        came = poisson(online / 3600 * window_s)  # sessions begun and ended
        went = poisson(online / 3600 * window_s)
        marker = came + went > 0  # a first connect or a last disconnect sends a marker
        counted += came - went
        after_p, after_l = circle_of(proposals), circle_of(live)
        told: set[str] = set()
        listed = False
        for before, after, added, gone, games in (
                (before_p, after_p, added_p, gone_p, False),
                (before_l, after_l, added_l, gone_l, True)):
            changed = (added | gone) - (added & gone)
            if not changed:
                continue
            listed = True
            slid: set[str] = set()
            mine = {} if games else {"owners": owners, "players": players}
            for key, moved in scoped(before, after, changed, starts, PAGE,
                                     **mine).items():
                told.add(key)
                slid.update(i for i in moved.entered if i not in added)
            if games:  # a game that slides in is listed with its version: a read each
                totals["slid in"] += len(slid)
        online_push = False
        if marker or (due_s is not None and now >= due_s):
            if now >= sent_s + PUSH_EVERY_MS / 1000:
                due_s = None
                if online_moved(pushed, counted):
                    pushed, sent_s, online_push = counted, now, True
            elif due_s is None:
                due_s = sent_s + PUSH_EVERY_MS / 1000
        seeks_push = False
        marked = any(at <= now_ms for at in markers)  # a delayed look came
        markers = [at for at in markers if at > now_ms]
        if SEEKS_RULE == "each":
            totals["seek rooms read"] += len(hinted)
            seeks_push = bool(hinted)
        elif hinted or marked:
            totals["seek state reads"] += 1
            # the look, or a look due by now (a room held back): every room
            everywhere = marked or (bool(seeks_due_ms) and now_ms >= seeks_due_ms)
            rooms = list(SEEK_ROOMS) if everywhere else sorted(hinted)
            totals["seek rooms read"] += len(rooms)
            due = seeks_due(seeks_pushed, seeks_full_ms,
                            {room: len(waiting[room]) for room in rooms}, now_ms,
                            burst=burst, every_ms=every_ms)
            if due.push:
                seeks_pushed.update(due.push)
                seeks_full_ms, seeks_due_ms, seeks_push = due.full_ms, 0, True
                totals[SEEK_STATE_WRITES] += 1
            elif due.look_ms is not None and seeks_due_ms < due.look_ms:  # claimed once
                seeks_due_ms = due.look_ms
                markers.append(due.look_ms)
                totals[SEEK_STATE_WRITES] += 1
                totals["seek markers"] += 1
            elif due.look_ms is None and everywhere and seeks_due_ms:  # no look pending
                seeks_due_ms = 0
                totals[SEEK_STATE_WRITES] += 1
        for room in SEEK_ROOMS:  # how long each figure shown differs from the count
            n = len(waiting[room])
            if n != counts_at[room]:
                counts_at[room] = n
                count_changes += 1
            shown = n if SEEKS_RULE == "each" else seeks_pushed[room]
            since = stale[room]
            if shown != n and since is None:
                stale[room] = now - window_s  # it came within this batch
            elif shown == n and since is not None:
                lags.append(now - since)
                stale[room] = None
        if seeks_push:
            totals["seek pushes"] += 1
        posts = subscribers if online_push or seeks_push else len(told)
        totals["frames"] += posts
        if listed or online_push or marker or hinted or retried or seeks_push:
            totals["invocations"] += 1
        if listed:
            totals["list reads"] += 1
        totals["posts"] += posts
    hour = 3600 / (batches * window_s)
    waits.sort()
    lags.sort()
    return {"frames per subscriber-hour": totals["frames"] * hour / subscribers,
            "seek pushes an hour": totals["seek pushes"] * hour,
            "seek rooms read an hour": totals["seek rooms read"] * hour,
            "seek state reads an hour": totals["seek state reads"] * hour,
            "seek state writes an hour": totals[SEEK_STATE_WRITES] * hour,
            "seek markers an hour": totals["seek markers"] * hour,
            "seekers paired": len(waits) * 2,
            "found one waiting": at_once / max(1, arrived),
            "pairings at an arrival": at_once / max(1, len(waits)),
            "wait median s": waits[len(waits) // 2] / 1000 if waits else 0.0,
            "wait p90 s": waits[int(0.9 * len(waits))] / 1000 if waits else 0.0,
            "gave up": totals["seekers gave up"],
            "seek count changes": count_changes,
            # changes shown later than SEEKS_PROMPT_S (a stretch of a figure differing
            # holds one change or more), and the longest stretch
            "seek figures late": sum(1 for lag in lags if lag > SEEKS_PROMPT_S),
            "seek figure late max s": lags[-1] if lags else 0.0,
            "invocations an hour": totals["invocations"] * hour,
            "list reads an hour": totals["list reads"] * hour,
            "slid-in games an hour": totals["slid in"] * hour,
            "posts an hour": totals["posts"] * hour,
            "subscribers": subscribers,
            "proposals": len(proposals), "live": len(live)}


def push_an_hour(online: int, window_s: float, rule: str | None = None) -> dict[str, float]:
    """The lobby's pushes to one subscriber for an hour subscribed, and its share of the
    fan-out, from :func:`count_pushes` (the frames counted; the fan-out's reads, time and
    queue requests priced per invocation as docs/lobby-push.md counts them). ``rule``: how
    the seekers' counts are pushed (SEEKS_RULE)."""
    global SEEKS_RULE
    rule = rule or SEEKS_RULE
    counted = PUSH_COUNTS.get((online, window_s, rule))
    if counted is None:
        kept, SEEKS_RULE = SEEKS_RULE, rule
        try:
            counted = count_pushes(online, window_s)
        finally:
            SEEKS_RULE = kept
    PUSH_COUNTS[online, window_s, rule] = counted
    games_an_hour = SHARE["playing"] * 60 / BRIDGE_GAME_MIN
    # Each game begun by a proposal: it added and taken, the game listed and unlisted; by
    # quick pairing: two seeks' hints, the waiter's retries sent ahead (two batch
    # requests), the game listed and unlisted. Each session the online count moves twice
    # (the request that made the change sends the message).
    changes_an_hour = (games_an_hour / 2 * ((1 - SEEK_SHARE) * 4 + SEEK_SHARE * 6)
                       + 2 * SIGN_INS_AN_HOUR)
    subscribers = counted["subscribers"]
    shard_units = 16 * max(1, math.ceil(subscribers * SUBSCRIBER_ROW_BYTES / 16 / 4096))
    list_units = (max(LISTED_ROOMS, math.ceil(counted["proposals"] * PROPOSAL_ROW_BYTES / 4096))
                  + max(LISTED_ROOMS, math.ceil(counted["live"] * LIVE_ROW_BYTES / 4096))) / 2
    invocations = counted["invocations an hour"]
    posts_s = counted["posts an hour"] / max(1.0, invocations) / FANOUT_POSTS \
        * ROUND_TRIP_MS["post"] / 1000
    fanout_s = (16 * ROUND_TRIP_MS["dynamodb read"]) / 1000 + posts_s
    per_invocation = (PRICE["lambda_request"]
                      + fanout_s * FANOUT_MEMORY_MB / 1024 * PRICE["lambda_gb_s_arm64"]
                      + (shard_units + 1) * PRICE["dynamodb_read_unit"]
                      + 2 * PRICE["sqs_request"]
                      + (PLATFORM_LOG_BYTES + 300) / 1e9 * PRICE["logs_ingested_gb"])
    hourly = (invocations * per_invocation
              + counted["list reads an hour"] * (list_units * PRICE["dynamodb_read_unit"]
                                                 + 2 * LISTED_ROOMS * ROUND_TRIP_MS[
                                                     "dynamodb read"] / 1000
                                                 * FANOUT_MEMORY_MB / 1024
                                                 * PRICE["lambda_gb_s_arm64"])
              + counted["slid-in games an hour"] * PRICE["dynamodb_read_unit"]
              # the seekers' counts: a query a room looked at, LOBBY / SEEKS read and
              # claimed, a delayed look sent
              + (counted["seek rooms read an hour"] + counted["seek state reads an hour"])
              * 0.5 * PRICE["dynamodb_read_unit"]
              + counted["seek state writes an hour"] * PRICE["dynamodb_write_unit"]
              + counted["seek markers an hour"] * PRICE["sqs_request"])
    return {
        "API GW messages": counted["frames per subscriber-hour"] * PRICE["apigw_message"],
        "fan-out (Lambda, reads, SQS)": hourly / subscribers,
        "SQS": changes_an_hour * PRICE["sqs_request"],
    }


PUSH_COUNTS: dict[tuple[int, float, str], dict[str, float]] = {}
QUIET_CLUBS = (10,)  # besides ONLINE: a club with a seeker now and then,
QUIET_SIM_S = 36_000  # simulated ten hours (a seeker every twenty minutes or so)


def late(counted: Mapping[str, float], short: bool = False) -> str:
    """How promptly the seekers' counts reached the subscribers, from count_pushes: the
    stretches a figure shown differed from its room's count for longer than
    SEEKS_PROMPT_S (one change or more each), and the longest."""
    from numbridge.club.lobby_pages import SEEKS_BURST, SEEKS_EVERY_MS

    told = (f"{counted['seek figures late']:,.0f} figures shown later than "
            f"{SEEKS_PROMPT_S:.0f} s, the longest {counted['seek figure late max s']:.0f} s")
    if short:
        return told
    return (f"the rooms' counts changed {counted['seek count changes']:,.0f} times; with a "
            f"budget of {SEEKS_BURST} pushes, one more each {SEEKS_EVERY_MS / 1000:.0f} s: "
            + told)


BRIDGE_GAME_MIN = 24.0  # replaced by the measured game length in main


def ping_cost() -> dict[str, float]:
    return {"API GW messages": PRICE["apigw_message"],
            "CloudWatch Logs": access_log_bytes() / 1e9 * PRICE["logs_ingested_gb"]}


def web_client_load() -> tuple[int, int]:
    """(files, bytes) of the page a sign-in loads from CloudFront: web/, tests aside."""
    root = Path(__file__).resolve().parents[1] / "web"
    files = [p for p in root.rglob("*") if p.is_file() and "test" not in p.parts
             and p.suffix in {".html", ".js", ".css", ".json", ".svg", ".png", ".webmanifest",
                              ".ico", ".woff2"}]
    return len(files), sum(p.stat().st_size for p in files)


def player_hour(client: str, online: int, actions: Mapping[str, Mapping[str, float]],
                bridge_game: Mapping[str, float], window_s: float,
                seeks_rule: str | None = None) -> dict[str, float]:
    """One player's hour online, by term (dollars)."""
    games_an_hour = SHARE["playing"] * 60 / BRIDGE_GAME_MIN
    terms: Counter[str] = Counter()
    for action, n in frames_an_hour(client, games_an_hour).items():
        per_frame = ping_cost() if action == "ping" else actions[action]
        for term, dollars in per_frame.items():
            terms[term] += n * dollars
    # Half of each game a player plays (two players a game); its connection minutes are
    # the hour's, counted once below.
    for term, per_1000 in bridge_game.items():
        if term != "API GW connection min":
            terms[term] += games_an_hour / 2 * per_1000 / 1000
    terms["API GW connection min"] += 60 * PRICE["apigw_connection_minute"]
    if client == "push":
        for term, dollars in push_an_hour(online, window_s, seeks_rule).items():
            terms[term] += SHARE["lobby"] * dollars
    files, size = web_client_load()
    terms["CloudFront (the page)"] += SIGN_INS_AN_HOUR * (
        files * PRICE["cloudfront_request"] + size / 1e9 * PRICE["cloudfront_gb"])
    return dict(terms)


# ---------------------------------------------------------------- the report

ONLINE = (100, 1_000, 10_000)


def main() -> None:
    global BRIDGE_GAME_MIN
    use_integration_harness(log_level="INFO")  # the stack's LogLevel
    os.environ.pop("POWERTOOLS_METRICS_DISABLED", None)  # metric records are log bytes too

    print(f"cost per 1,000 games (USD, us-east-1 list prices), {GAMES} games per variant "
          "played through the handlers on DynamoDB (moto); Lambda time modelled (own CPU "
          "for the memory's vCPU share, plus round trips); "
          "clients asking for batched events; "
          "players thinking as people do (the clock advanced between moves); "
          "every timer woken at its deadline; index writes and log bytes counted")
    rows: dict[str, dict[str, float]] = {}
    details = {}
    for room in ("bridge", "blitz", "domains"):
        rows[room], counts, turns, durations, chains = measure(room, seed=7)
        details[room] = (counts, turns, durations, chains)
    terms = list(next(iter(rows.values())))
    print(f"{'term':<24}" + "".join(f"{room:>10}" for room in rows))
    for term in terms:
        print(f"{term:<24}" + "".join(f"{rows[r][term]:>10.3f}" for r in rows))
    print(f"{'total':<24}" + "".join(f"{sum(rows[r].values()):>10.3f}" for r in rows))
    # As the bench counted before (no timer woken, no log) with the index's writes added:
    # the figure the $0.80 target was set against.
    before = {r: sum(rows[r].values()) - uncounted_before(details[r][0], details[r][2])
              for r in rows}
    print(f"{'as counted before':<24}" + "".join(f"{before[r]:>10.3f}" for r in rows))
    for room, (counts, turns, _, _) in details.items():
        per_turn = {k: v / turns for k, v in counts.items() if not k.startswith("_")}
        print(f"  {room}: {turns / GAMES:.0f} turns a game; per turn "
              + ", ".join(f"{k} {v:.1f}" for k, v in sorted(per_turn.items())))

    print()
    print("two layouts measured on the same games (USD per 1,000 games):")
    for room, (counts, turns, durations, chains) in details.items():
        sent = sum(len(trace) for trace, _ in chains)
        chained = [chain(trace, end) for trace, end in chains]
        c_sends, c_wakes = sum(s for s, _ in chained), sum(w for _, w in chained)
        saved = ((sent - c_sends) * (send_cost() + 2 * PRICE["sqs_request"])
                 + (counts["timer wake-ups"] - c_wakes) * wake_cost(counts, durations))
        deadline = counts["_deadline index units"] * PRICE["dynamodb_write_unit"]
        game_minutes = turns * THINK_S["blitz" if room == "blitz" else room] / 60
        sweep_reads = game_minutes * math.ceil(counts["_state bytes"] / 4096) \
            * PRICE["dynamodb_read_unit"]
        print(f"  {room}: one timer chain a game instead of a timer a move: {c_sends} sends "
              f"and {c_wakes} wake-ups instead of {sent} and {counts['timer wake-ups']}: "
              f"-{saved * 1000 / GAMES:.3f}; the deadline out of the index (the sweep "
              f"reading each game in play once a minute instead): "
              f"-{deadline * 1000 / GAMES:.3f} +{sweep_reads * 1000 / GAMES:.3f}")

    print()
    blitz_game = sum(rows["blitz"].values())
    tournament = tournament_rows(blitz_game)
    print(f"a tournament's cost per 1,000 player-games (USD): an arena and a 4-round Swiss of "
          f"{TOURNAMENT_PLAYERS} players, each subscribed to its standings, through the "
          "handlers; the tournament's own spending (joins, every step of the tournament "
          "function, its step messages, the standings pushed) and a Blitz game's share:")
    kinds = list(tournament)
    played = {k: int(tournament[k].pop("_player-games")) for k in kinds}
    print(f"  {'':<40}" + "".join(f"{k:>10}" for k in kinds))
    for term in tournament[kinds[0]]:
        if any(tournament[k].get(term, 0) for k in kinds):
            print(f"  {term:<40}" + "".join(f"{tournament[k].get(term, 0):>10.3f}"
                                            for k in kinds))
    print(f"  {'total':<40}" + "".join(f"{sum(tournament[k].values()):>10.3f}" for k in kinds))
    print("  player-games played: " + ", ".join(f"{k} {n}" for k, n in played.items()))
    print()
    sweep_counts, sweep_durations = measure_sweep()
    month = fixed_month(sweep_counts, sweep_durations)
    print("the fixed month, before anyone plays (USD):")
    for term, dollars in month.items():
        print(f"  {term:<40}{dollars:>8.2f}")
    print(f"  {'total':<40}{sum(month.values()):>8.2f}")

    print()
    bridge_turns = details["bridge"][1]
    BRIDGE_GAME_MIN = bridge_turns / GAMES * THINK_S["bridge"] / 60
    window = push_window_s()
    from numbridge.club.lobby_pages import PAGE, SEEKS_EVERY_MS
    print(f"a player-hour (USD per 1,000 player-hours): frames recorded from the reference "
          f"client in Chromium (polling: {SESSION_FIXTURES['polling'].name}, push: "
          f"{SESSION_FIXTURES['push'].name}); the hour {SHARE}; "
          f"{SHARE['playing'] * 60 / BRIDGE_GAME_MIN:.2f} Bridge games "
          f"({BRIDGE_GAME_MIN:.0f} min each); polling as the client was, push as it is "
          f"(docs/lobby-push.md: each subscriber told the changes to its own page of "
          f"{PAGE} proposals and {PAGE} live games, in one frame per batch of {window:.0f} s; "
          f"the frames counted by the fan-out's decision over {PUSH_SIM_S} s of a "
          f"synthetic club)")
    hours: dict[tuple[str, int], dict[str, float]] = {}
    alternative: dict[int, float] = {}
    each: dict[int, float] = {}
    paced: dict[int, float] = {}
    for online in ONLINE:
        actions = club_actions(online)
        for client in ("polling", "push"):
            hours[client, online] = player_hour(client, online, actions, rows["bridge"],
                                                window)
        alternative[online] = sum(player_hour("push", online, actions, rows["bridge"],
                                              ALTERNATIVE_WINDOW_S).values())
        each[online] = sum(player_hour("push", online, actions, rows["bridge"], window,
                                       "each").values())
        paced[online] = sum(player_hour("push", online, actions, rows["bridge"], window,
                                        "every").values())
    columns = [(c, n) for c in ("polling", "push") for n in ONLINE]
    every = sorted({t for h in hours.values() for t in h}, key=lambda t: -sum(
        h.get(t, 0) for h in hours.values()))
    print(f"{'term':<30}" + "".join(f"{c[:4]} {n:>6,}".rjust(13) for c, n in columns))
    for term in every:
        print(f"{term:<30}" + "".join(f"{hours[col].get(term, 0) * 1000:>13.3f}"
                                     for col in columns))
    print(f"{'total':<30}" + "".join(f"{sum(hours[col].values()) * 1000:>13.3f}"
                                   for col in columns))
    for client in ("polling", "push"):
        frames = frames_an_hour(client, SHARE["playing"] * 60 / BRIDGE_GAME_MIN)
        print(f"  {client}: frames an hour " + ", ".join(
            f"{a} {n:.1f}" for a, n in sorted(frames.items(), key=lambda kv: -kv[1])))
    for online in ONLINE:
        c = PUSH_COUNTS[online, window, SEEKS_RULE]
        print(f"  push at {online:,} online, counted: {c['subscribers']:,} subscribers, "
              f"{c['proposals']:,} open proposals, {c['live']:,} live games at the end; "
              f"frames per subscriber-hour {c['frames per subscriber-hour']:.0f}; fan-out "
              f"invocations an hour {c['invocations an hour']:,.0f}, of which reading "
              f"the lists {c['list reads an hour']:,.0f}")
        b = PUSH_COUNTS[online, window, "each"]
        e = PUSH_COUNTS[online, window, "every"]
        print(f"    quick pairing ({SEEK_SHARE:.0%} of games): {c['seekers paired']:,.0f} "
              f"seekers paired in {PUSH_SIM_S} s, {c['pairings at an arrival']:.0%} of "
              f"the pairings as a seeker came (one fitting was waiting), the one who "
              f"waited {c['wait median s']:.0f} s median, {c['wait p90 s']:.0f} s p90; "
              f"{c['gave up']:,.0f} gave up "
              f"after {SEEK_GIVE_UP_S} s alone; the counts pushed "
              f"{c['seek pushes an hour']:,.0f} times an hour (on each change: "
              f"{b['seek pushes an hour']:,.0f}; frames per subscriber-hour then "
              f"{b['frames per subscriber-hour']:.0f}; at most every "
              f"{SEEKS_EVERY_MS / 1000:.0f} s without a budget: "
              f"{e['seek pushes an hour']:,.0f})")
        print(f"    {late(c)}; without a budget {late(e, short=True)}")
    push = [sum(hours["push", n].values()) for n in ONLINE]
    polling = sum(hours["polling", 1_000].values())
    print(f"  push, most over least across 100-10,000 online: {max(push) / min(push):.2f}x; "
          f"push over polling at 1,000 online: {push[1] / polling:.2f}")
    for online in QUIET_CLUBS:
        quiet = count_pushes(online, window, sim_s=QUIET_SIM_S)
        print(f"  a club of {online} online ({quiet['subscribers']:.0f} subscribers, "
              f"{quiet['seekers paired'] + quiet['gave up']:.0f} seekers in {QUIET_SIM_S} s, "
              f"simulated longer): {late(quiet)}")
    every_change = list(each.values())
    without = list(paced.values())
    print(f"  push with the seekers' counts pushed at most every {SEEKS_EVERY_MS / 1000:.0f} s "
          "without a budget (the rule before the budget): "
          + ", ".join(f"{n:,} online {d * 1000:.3f}" for n, d in paced.items())
          + f"; most over least {max(without) / min(without):.2f}x")
    print("  push with the seekers' counts pushed on each change (the first rule): "
          + ", ".join(f"{n:,} online {d * 1000:.3f}" for n, d in each.items())
          + f"; most over least {max(every_change) / min(every_change):.2f}x")
    other = list(alternative.values())
    print(f"  push with batches of {ALTERNATIVE_WINDOW_S:.0f} s instead: "
          + ", ".join(f"{n:,} online {d * 1000:.3f}" for n, d in alternative.items())
          + f"; most over least {max(other) / min(other):.2f}x")

    print()
    print(f"bridge per 1,000 games: ${sum(rows['bridge'].values()):.3f}")
    for online, dollars in zip(ONLINE, push, strict=True):
        print(f"player-hour at {online:,} online: ${dollars:.5f}")


if __name__ == "__main__":
    main()
