"""Load: concurrent games through ``numbridge serve`` over real WebSockets.

Each game has two clients in this process (asyncio) that solve the dealt board
from its givens and play correct tiles. Reported per run: actions/s for the
whole server, ack latency (action sent → its ack) and delivery latency (action
sent → the opponent's event) p50/p95/p99, events lost, duplicated or out of
order, and the server's CPU and memory (from /proc). The load generator runs
on the same machine as the server.

Runs (``python -m bench load``; BENCH_LOAD_QUICK=1 for a short one):
- 10 games, players answering at once;
- 200 games, each player thinking 3 s;
- 10 games at once after 2,000 finished games are in the database;
- 10 games at once on ``--store dynamodb`` (embedded moto), for comparison.
Writes docs/load.png (ack p95 against the number of games) when matplotlib is
installed.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "tests"))  # testkit: the tests' solver and move chooser

QUICK = os.environ.get("BENCH_LOAD_QUICK") == "1"
FLOOD_PER_CONNECTION = 500  # requests a second on each of the flooder's connections
Frame = dict[str, Any]


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# ---------------------------------------------------------------- the server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    def __init__(self, data_dir: Path, args: Sequence[str] = ()) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}/"
        self.args = list(args)
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / f"serve-{self.port}.log"

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_ENDPOINT")}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "numbridge", "serve", "--port", str(self.port),
                 "--data-dir", str(self.data_dir), *self.args],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None

    def cpu_s(self) -> float:
        assert self.process is not None
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def token(self, name: str) -> str:
        from numbridge.auth import issue_token
        from numbridge.local.datadir import token_secret

        return issue_token(name, token_secret(self.data_dir))


# ---------------------------------------------------------------- the players


@dataclass
class Stats:
    ack_ms: list[float] = field(default_factory=list)
    delivery_ms: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    duplicated: int = 0
    out_of_order: int = 0
    lost: int = 0
    finished: int = 0
    flooded: int = 0
    rate_limited: int = 0

    def count(self, answer: Frame) -> None:
        if answer["type"] == "error":
            self.refused += 1
        else:
            self.actions += 1


class Client:
    """One player of one game: its copy of the game from the frames it receives."""

    _ids = itertools.count()
    generation = 0  # players of each run are new players

    def __init__(self, name: str, ws: Any, stats: Stats, think_s: float,
                 rng: random.Random) -> None:
        self.name, self.ws, self.stats, self.think_s, self.rng = name, ws, stats, think_s, rng
        self.opponent: Client | None = None
        self.sent_at: dict[str, float] = {}
        self.expect_at: dict[int, float] = {}  # v of the opponent's event → when it was sent
        self.answers: asyncio.Queue[Frame] = asyncio.Queue()
        self.state: Frame | None = None
        self.seat: Any = None
        self.to_move = False  # a turn (or the deal) has handed us the move
        self.ahead: dict[int, Frame] = {}  # events that came before their predecessors

    async def request(self, action: str, **fields: Any) -> Frame:
        rid = f"{self.name}-{next(self._ids)}"
        self.sent_at[rid] = time.perf_counter()
        await self.ws.send(json.dumps({"action": action, "id": rid, **fields}))
        while True:
            frame = await self.answers.get()
            if frame.get("id") == rid:
                return frame

    async def read(self) -> None:
        from client import Seat

        async for text in self.ws:
            frame = json.loads(text)
            now = time.perf_counter()
            if frame.get("id") is not None:
                sent = self.sent_at.pop(str(frame["id"]), None)
                if sent is not None and frame["type"] == "ack":
                    self.stats.ack_ms.append((now - sent) * 1000)
                await self.answers.put(frame)
                continue
            if frame["type"] == "state":
                self.seat = Seat.__new__(Seat)
                self.seat.player, self.seat.game = None, frame["game"]
                self.ahead = {}
                self.seat.load(frame)
                self.seat.solution = _solve(self.seat)
                self.state = frame
                self.to_move = self.seat.turn == self.seat.you
                continue
            if self.seat is None or frame.get("game") != self.seat.game or "v" not in frame:
                continue  # another game's, or not a game event (presence)
            # Pushes of two handlers may cross on the way: apply strictly by v, as a
            # client must; a v seen twice is a duplicate, one never filled is lost.
            v = int(frame["v"])
            if v <= self.seat.v or v in self.ahead:
                self.stats.duplicated += 1
                continue
            sent = self.expect_at.pop(v, None)
            if sent is not None:
                self.stats.delivery_ms.append((now - sent) * 1000)
            if v != self.seat.v + 1:
                self.stats.out_of_order += 1
            self.ahead[v] = frame
            while self.seat.v + 1 in self.ahead:
                event = self.ahead.pop(self.seat.v + 1)
                self.seat.absorb(event)
                if event["type"] == "turn":
                    self.to_move = self.seat.turn == self.seat.you
                if event["type"] == "finished":
                    self.stats.finished += 1
                    return

    async def play(self, stop: asyncio.Event) -> None:
        """Play this game to its end (or until ``stop``): a move as soon as it is our turn."""
        assert self.opponent is not None and self.seat is not None
        while self.seat.status != "finished" and not stop.is_set():
            if not self.to_move:
                await asyncio.sleep(0.002)
                continue
            self.to_move = False
            if self.think_s:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think_s)
                if stop.is_set():
                    return
            action, fields = self.seat.choose()
            self.opponent.expect_at[self.seat.v + 1] = time.perf_counter()
            answer = await self.request(action, game=self.seat.game, **fields)
            while answer.get("code") == "rate_limited":  # as a client must: wait, then retry
                self.stats.rate_limited += 1
                await asyncio.sleep(answer["retry_after_ms"] / 1000)
                answer = await self.request(action, game=self.seat.game, **fields)
            self.stats.count(answer)


_solutions: dict[str, str] = {}


def _solve(seat: Any) -> str:
    from testkit.sudoku import solve

    key = "".join(seat.digits) + seat.blocks
    if key not in _solutions:
        _solutions[key] = solve("".join(seat.digits), seat.blocks)
    return _solutions[key]


async def _slot(server: Server, index: int, room: str, stats: Stats, think_s: float,
                stop: asyncio.Event, ready: list[int], go: asyncio.Event) -> None:
    """Two players dealing and playing one game after another until ``stop``."""
    import websockets

    rng = random.Random(index)
    names = (f"a{index}r{Client.generation}", f"b{index}r{Client.generation}")
    async with websockets.connect(server.url + "?token=" + server.token(names[0]),
                                  max_size=None) as wa, \
            websockets.connect(server.url + "?token=" + server.token(names[1]),
                               max_size=None) as wb:
        a = Client(names[0], wa, stats, think_s, rng)
        b = Client(names[1], wb, stats, think_s, rng)
        a.opponent, b.opponent = b, a
        first = True
        while not stop.is_set():
            a.seat = b.seat = None
            readers = [asyncio.create_task(a.read()), asyncio.create_task(b.read())]
            proposal = await a.request("propose", room=room, colour="blue", rated=False)
            accepted = await b.request("accept", proposal=proposal["proposal"]["id"])
            while a.seat is None or b.seat is None:
                await asyncio.sleep(0.005)
            if first:  # the first deals happen before the clock starts
                ready.append(index)
                await go.wait()
                first = False
            else:
                stats.count(proposal)
                stats.count(accepted)
            await asyncio.gather(a.play(stop), b.play(stop))
            for reader in readers:
                reader.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
            if a.seat.status == "finished" and b.seat.status == "finished":
                stats.lost += len(a.ahead) + len(b.ahead)


@dataclass
class Result:
    label: str
    games: int
    think_s: float
    seconds: float
    stats: Stats
    cpu: float
    rss_mb: float

    def row(self) -> str:
        s = self.stats
        return (f"{self.label:<34}{self.games:>5}{s.actions / self.seconds:>9.1f}"
                f"{percentile(s.ack_ms, .5):>8.1f}{percentile(s.ack_ms, .95):>8.1f}"
                f"{percentile(s.ack_ms, .99):>8.1f}"
                f"{percentile(s.delivery_ms, .5):>8.1f}{percentile(s.delivery_ms, .95):>8.1f}"
                f"{percentile(s.delivery_ms, .99):>8.1f}"
                f"{s.lost:>5}{s.duplicated:>5}{s.out_of_order:>5}{s.refused:>5}{s.finished // 2:>5}"
                f"{self.cpu * 100:>6.0f}%{self.rss_mb:>7.0f}")


HEADER = (f"{'run':<34}{'games':>5}{'act/s':>9}{'ack50':>8}{'ack95':>8}{'ack99':>8}"
          f"{'dlv50':>8}{'dlv95':>8}{'dlv99':>8}{'lost':>5}{'dup':>5}{'ooo':>5}{'ref':>5}{'done':>5}"
          f"{'cpu':>7}{'rssMB':>7}")


async def _flood(server: Server, connections: int, stop: asyncio.Event,
                 sent: list[int]) -> None:
    """One player sending requests on several connections, never waiting for answers."""
    import websockets

    url = server.url + "?token=" + server.token(f"flooder{Client.generation}")

    async def one(n: int) -> None:
        async with websockets.connect(url, max_size=None) as ws:
            async def drain() -> None:
                async for _ in ws:
                    pass

            reader = asyncio.create_task(drain())
            while not stop.is_set():
                await ws.send(json.dumps({"action": "rooms", "id": f"f{n}-{sent[0]}"}))
                sent[0] += 1
                await asyncio.sleep(1 / FLOOD_PER_CONNECTION)
            reader.cancel()

    await asyncio.gather(*(one(n) for n in range(connections)), return_exceptions=True)


async def _run(server: Server, label: str, games: int, think_s: float, seconds: float,
               room: str, flooders: int = 0) -> Result:
    stats = Stats()
    stop, go = asyncio.Event(), asyncio.Event()
    ready: list[int] = []
    tasks = [asyncio.create_task(_slot(server, i, room, stats, think_s, stop, ready, go))
             for i in range(games)]
    while len(ready) < games:
        await asyncio.sleep(0.05)
        failed = [t for t in tasks if t.done()]
        if failed:
            failed[0].result()
    stats.ack_ms.clear()
    flood_sent = [0]
    flood = (asyncio.create_task(_flood(server, flooders, stop, flood_sent))
             if flooders else None)
    cpu0, t0 = server.cpu_s(), time.monotonic()
    go.set()
    await asyncio.sleep(seconds)
    stop.set()
    if flood is not None:
        await flood
        stats.flooded = flood_sent[0]
    elapsed = time.monotonic() - t0
    cpu = (server.cpu_s() - cpu0) / elapsed
    rss = server.rss_mb()
    done, pending = await asyncio.wait(tasks, timeout=30)
    for t in pending:
        t.cancel()
    for t in done:
        if t.exception() is not None:
            raise t.exception()  # type: ignore[misc]
    return Result(label, games, think_s, elapsed, stats, cpu, rss)


def run_games(server: Server, label: str, games: int, think_s: float, seconds: float,
              room: str = "blitz", flooders: int = 0) -> Result:
    Client.generation += 1
    return asyncio.run(_run(server, label, games, think_s, seconds, room, flooders))


def prefill(data_dir: Path, finished_games: int) -> int:
    """Copy the finished games in the database (under new ids) until there are
    ``finished_games``; the server must be stopped. How many items it holds then."""
    from numbridge.store.port import MAX_TRANSACTION_ITEMS, Put
    from numbridge.store.sqlite import SqliteStore

    path = data_dir / "numbridge.db"
    with sqlite3.connect(path) as db:
        played = [pk.removeprefix("GAME#") for (pk,) in db.execute(
            "SELECT pk FROM items WHERE sk = 'RECORD'")]
        games = {gid: [row[0] for row in db.execute(
            "SELECT item FROM items WHERE pk = ? OR sk = ?", (f"GAME#{gid}", f"GAME#{gid}"))]
            for gid in played}
    if not played:
        raise RuntimeError("no finished game to copy")
    store = SqliteStore(path, synchronous="NORMAL")
    try:
        batch: list[Put] = []
        for n in range(finished_games - len(played)):
            gid = played[n % len(played)]
            for text in games[gid]:
                batch.append(Put(json.loads(text.replace(gid, f"{gid}x{n}"))))
                if len(batch) == MAX_TRANSACTION_ITEMS:
                    store.transact(batch)
                    batch = []
        if batch:
            store.transact(batch)
        return store.count()
    finally:
        store.close()


def plot(curves: dict[str, list[Result]], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, results in curves.items():
        ax.plot([r.games for r in results],
                [percentile(r.stats.ack_ms, 0.95) for r in results], marker="o", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("concurrent games")
    ax.set_ylabel("ack p95 (ms)")
    ax.set_title("numbridge serve (SQLite), 2 cores shared with the load generator")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main() -> None:
    seconds = 10.0 if QUICK else 30.0
    work = Path(tempfile.mkdtemp(prefix="numbridge-load-"))
    print(f"numbridge serve under load: {os.cpu_count()} cores shared with the load generator; "
          f"{seconds:.0f} s per run; blitz games played continuously (a finished game is "
          "followed by a new one); latencies in ms")
    print(HEADER)
    curves: dict[str, list[Result]] = {"players answering at once": [],
                                       "players thinking 3 s": []}

    def show(result: Result) -> Result:
        print(result.row(), flush=True)
        return result

    try:
        server = Server(work / "sqlite")
        server.start()
        try:
            run_games(server, "warm-up", 10, 0.0, 5.0)  # caches, first imports, first deals
            baseline = show(run_games(server, "sqlite, at once", 10, 0.0, seconds))
            curves["players answering at once"].append(baseline)
            for games in ((1, 5) if QUICK else (1, 2, 5, 20)):
                curves["players answering at once"].append(
                    show(run_games(server, "sqlite, at once", games, 0.0, seconds)))
            flooded = show(run_games(server, "sqlite, at once, one player flooding", 10,
                                     0.0, seconds, flooders=4))
            slower = (percentile(flooded.stats.ack_ms, .95)
                      / percentile(baseline.stats.ack_ms, .95))
            print(f"  the flooder sent {flooded.stats.flooded / seconds:,.0f} requests/s "
                  f"on 4 connections; the others' ack p95 {slower:.2f}x the run without it",
                  flush=True)
            for games in ((50, 200) if QUICK else (50, 100, 200)):
                curves["players thinking 3 s"].append(
                    show(run_games(server, "sqlite, thinking 3 s", games, 3.0, seconds * 2)))
        finally:
            server.stop()
        items = prefill(server.data_dir, 2000)
        server.start()
        try:
            run_games(server, "warm-up", 10, 0.0, 5.0)
            grown = show(run_games(server, "sqlite, at once, 2,000 played", 10, 0.0, seconds))
        finally:
            server.stop()
        ratio = percentile(grown.stats.ack_ms, .5) / percentile(baseline.stats.ack_ms, .5)
        print(f"  database after the prefill: {items:,} items; ack p50 "
              f"{ratio:.2f}x the empty database's")

        dynamo = Server(work / "dynamodb", ["--store", "dynamodb"])
        dynamo.start()
        try:
            show(run_games(dynamo, "dynamodb (embedded moto), at once", 10, 0.0, seconds))
        finally:
            dynamo.stop()
        for curve in curves.values():
            curve.sort(key=lambda r: r.games)
        if not QUICK and plot(curves, ROOT / "docs" / "load.png"):
            print("  plot: docs/load.png")
    finally:
        shutil.rmtree(work, ignore_errors=True)
