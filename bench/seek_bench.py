"""Quick pairing and the lobby's push, through ``numbridge serve`` over real WebSockets.

Two runs (``python -m bench seek``; ``--help``):

- **pairing**: ``--players`` (200) bot players (the client of ``numbridge bot
  --seek``, the brain at ``easy``, each action after a think of ``--think`` s) seek
  Blitz games, play each out and seek again, all at once for ``--seconds`` (they
  arrive over ``--ramp`` s; 0: all in one instant: each connects, lists its games,
  then seeks, so 200 connects come first and the 200 seeks follow within some 50 ms
  of each other). A pairing's latency runs from the later of the two seeks being
  sent to both players holding the game's ``state`` (a seek that found its partner
  waiting is answered at once; two that came at the same instant are paired by the
  later one's second read; a seek that lost every race of a crowd meets the rest in
  the fan-out's next batch). The players run in ``--processes`` (2) processes of
  their own, so that one event loop busy with 100 brains does not hold the frames
  of the others (their times are ``time.perf_counter``, one clock for all).
- **lobby**: ``--subscribers`` (500) connections subscribed to the lobby, and one
  player who, round after round, proposes, withdraws, and proposes again for a second
  player to accept (a new live game). Each change's latency runs from the request
  that made it being sent to a subscriber holding the ``changes`` frame with it.

Reported: samples, median, p95 and max in ms, the server's CPU and the load
generator's (the bots' processes). The generator runs on the same machine as the
server (its 2 cores shared): note the machine's load beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shutil
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from numbridge.botcli.client import BotClient, BotOptions

from bench.load.server import Server
from bench.measure import percentile

Frame = dict[str, Any]
CROWD_S = 5.0


def _summary(name: str, samples: list[float]) -> str:
    if not samples:
        return f"{name:42} no samples"
    return (f"{name:42} {len(samples):6d}  median {percentile(samples, 0.5):7.0f}  "
            f"p95 {percentile(samples, 0.95):7.0f}  max {max(samples):7.0f}")


# ---------------------------------------------------------------- pairing


class Seeker(BotClient):
    """``numbridge bot --seek``, timed: when its seek left, when each game's state came."""

    def __init__(self, options: BotOptions, think_s: float, arrivals: dict[str, list[float]],
                 seeks: dict[str, float]) -> None:
        super().__init__(options, random.Random(options.name))
        self.think_s = think_s
        self.arrivals = arrivals  # game → when each player got its state
        self.seeks = seeks  # game → the later seek of its two players
        self.last_seek = 0.0

    async def request(self, action: str, request_id: str | None = None,
                      **fields: Any) -> Frame:
        if action == "seek":
            self.last_seek = time.perf_counter()
        elif action not in ("sync", "games", "cancel_seek") and self.think_s:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think_s)
        return await super().request(action, request_id, **fields)

    def on_frame(self, frame: Frame) -> None:
        game = frame.get("game")
        if frame.get("type") == "state" and frame.get("id") is None and isinstance(game, str) \
                and game not in self.games:
            self.arrivals[game].append(time.perf_counter())
            self.seeks[game] = max(self.seeks.get(game, 0.0), self.last_seek)


async def _players(url: str, tokens: dict[str, str], think_s: float, ramp_s: float,
                   seconds: float) -> tuple[dict[str, list[float]], dict[str, float], float]:
    """One process's players, for ``seconds``: when each got each game's state, the
    later seek of each game, and the process's CPU (s) meanwhile."""
    arrivals: dict[str, list[float]] = defaultdict(list)
    seeks: dict[str, float] = {}
    clients = [Seeker(BotOptions(url=url, token=token, name=name, level="easy", games=1,
                                 poll_s=0.2, seek="blitz"), think_s, arrivals, seeks)
               for name, token in tokens.items()]

    async def joining(client: Seeker, after_s: float) -> int:
        await asyncio.sleep(after_s)
        return await client.run()

    cpu = time.process_time()
    # The players come over ``ramp_s`` (a club filling), or all in one instant (0).
    runs = [asyncio.create_task(joining(c, random.uniform(0, ramp_s))) for c in clients]
    await asyncio.sleep(seconds)
    cpu = time.process_time() - cpu
    for c in clients:
        c.stop()
    for run in runs:
        run.cancel()
    await asyncio.gather(*runs, return_exceptions=True)
    return dict(arrivals), seeks, cpu


def _player_process(url: str, tokens: dict[str, str], think_s: float, ramp_s: float,
                    seconds: float, ready: Any, results: Any) -> None:
    """A process of players: ready (imports done) at the barrier, then the run."""
    ready.wait()
    results.put(asyncio.run(_players(url, tokens, think_s, ramp_s, seconds)))


def _pairing(server: Server, players: int, seconds: float, think_s: float,
             ramp_s: float, processes: int) -> None:
    tokens = [{f"s{n}": server.token(f"s{n}") for n in range(players)
               if n % processes == p} for p in range(processes)]
    context = multiprocessing.get_context("spawn")
    ready, results = context.Barrier(processes + 1), context.Queue()
    workers = [context.Process(target=_player_process, daemon=True,
                               args=(server.url, share, think_s, ramp_s, seconds, ready,
                                     results))
               for share in tokens]
    for worker in workers:
        worker.start()
    ready.wait()
    opened = time.perf_counter()
    cpu = server.cpu_s()
    time.sleep(seconds)
    cpu = server.cpu_s() - cpu
    arrivals: dict[str, list[float]] = defaultdict(list)
    seeks: dict[str, float] = {}
    generator_cpu = 0.0
    for _ in workers:
        got, sought, used = results.get(timeout=120)
        for game, times in got.items():
            arrivals[game] += times
        for game, at in sought.items():
            seeks[game] = max(seeks.get(game, 0.0), at)
        generator_cpu += used
    for worker in workers:
        worker.join(30)
    paired = [(max(times) - seeks[game]) * 1000 for game, times in arrivals.items()
              if len(times) == 2]
    # The players' arrival (each seeking at once) apart from the rest.
    crowd = [(max(times) - seeks[game]) * 1000 for game, times in arrivals.items()
             if len(times) == 2 and seeks[game] - opened < ramp_s + CROWD_S]
    later = [(max(times) - seeks[game]) * 1000 for game, times in arrivals.items()
             if len(times) == 2 and seeks[game] - opened >= ramp_s + CROWD_S]
    print(f"pairing: {players} players seeking Blitz games and playing them out at once "
          f"(think {think_s:.1f} s an action; arriving over {ramp_s:.0f} s), {seconds:.0f} s; "
          f"server CPU {100 * cpu / seconds:.0f}%, the players' {processes} processes "
          f"{100 * generator_cpu / seconds:.0f}%; load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(_summary("seek → both players hold state (ms)", paired))
    print(_summary(f"  while they arrive (first {ramp_s + CROWD_S:.0f} s)", crowd))
    print(_summary("  after it", later))
    print(f"{'games dealt':42} {len(arrivals):6d}  (one player's state only: "
          f"{sum(1 for t in arrivals.values() if len(t) < 2)}, at the run's end)")


# ---------------------------------------------------------------- lobby


async def _lobby(server: Server, subscribers: int, rounds: int) -> None:
    import websockets

    sent: dict[tuple[str, str], float] = {}  # (kind, id) → when its request left
    latencies: dict[str, list[float]] = defaultdict(list)
    ready = 0

    async def subscriber(n: int) -> None:
        nonlocal ready
        url = f"{server.url}?token={server.token(f'w{n}')}"
        async with websockets.connect(url, open_timeout=60, max_queue=None) as ws:
            await ws.send(json.dumps({"action": "subscribe", "id": "s", "topic": "lobby"}))
            ready += 1
            async for raw in ws:
                frame = json.loads(raw)
                if frame.get("type") != "changes":
                    continue
                now = time.perf_counter()
                for change in frame["changes"]:
                    kind = change["kind"]
                    target = (change.get("proposal") if kind == "proposal_removed"
                              else change.get("proposal", {}).get("id")
                              if kind == "proposal_added"
                              else change.get("game", {}).get("game")
                              if kind == "live_added" else None)
                    at = sent.get((kind, str(target)))
                    if at is not None:
                        latencies[kind].append((now - at) * 1000)

    tasks = []
    for n in range(subscribers):
        tasks.append(asyncio.create_task(subscriber(n)))
        if n % 50 == 49:
            await asyncio.sleep(0.2)  # connect in waves, as a club fills
    while ready < subscribers:
        await asyncio.sleep(0.2)
    await asyncio.sleep(2.0)  # the connects' online counts pushed and read

    async def ask(ws: Any, action: str, **fields: Any) -> Frame:
        rid = f"r{random.getrandbits(40)}"
        await ws.send(json.dumps({"action": action, "id": rid, **fields}))
        while True:
            frame: Frame = json.loads(await ws.recv())
            if frame.get("id") == rid:
                return frame

    cpu = server.cpu_s()
    started = time.perf_counter()
    async with websockets.connect(f"{server.url}?token={server.token('ana')}") as ana, \
            websockets.connect(f"{server.url}?token={server.token('bob')}") as bob:
        for _ in range(rounds):
            at = time.perf_counter()
            made = await ask(ana, "propose", room="blitz", rated=False)
            pid = made["proposal"]["id"]
            sent[("proposal_added", pid)] = at
            await asyncio.sleep(1.5)
            sent[("proposal_removed", pid)] = time.perf_counter()
            await ask(ana, "withdraw", proposal=pid)
            await asyncio.sleep(1.5)
            made = await ask(ana, "propose", room="blitz", rated=False, colour="blue")
            at = time.perf_counter()
            await ask(bob, "accept", proposal=made["proposal"]["id"])
            state = json.loads(await ana.recv())
            while state.get("type") != "state":
                state = json.loads(await ana.recv())
            sent[("live_added", state["game"])] = at
            await asyncio.sleep(1.5)
            await ask(ana, "resign", game=state["game"])
        await asyncio.sleep(3.0)
    elapsed = time.perf_counter() - started
    cpu = server.cpu_s() - cpu
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(f"lobby: {subscribers} subscribers, {rounds} rounds of a proposal, its withdrawal "
          f"and a new live game; server CPU {100 * cpu / elapsed:.0f}%")
    for kind in ("proposal_added", "proposal_removed", "live_added"):
        expected = rounds * subscribers
        print(_summary(f"{kind} seen by a subscriber (ms)", latencies[kind])
              + f"  ({len(latencies[kind])}/{expected})")


def _options(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench seek", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--think", type=float, default=1.0, metavar="S")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--ramp", type=float, default=10.0, metavar="S",
                        help="the players arrive over S seconds (10; 0: all at once)")
    parser.add_argument("--processes", type=int, default=2, metavar="N",
                        help="the players' processes (2; 1: all in one event loop)")
    parser.add_argument("--subscribers", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--only", choices=("pairing", "lobby"))
    return parser.parse_args(list(argv))


def main(argv: Sequence[str] = ()) -> None:
    options = _options(argv)
    work = Path(tempfile.mkdtemp(prefix="numbridge-seek-"))
    print(f"numbridge serve (SQLite) on {os.cpu_count()} cores shared with the load "
          "generator; latencies in ms")
    try:
        for name in ("pairing", "lobby"):
            if options.only not in (None, name):
                continue
            server = Server(work / name / "data")
            server.start()
            try:
                if name == "pairing":
                    _pairing(server, options.players, options.seconds, options.think,
                             options.ramp, max(1, options.processes))
                else:
                    asyncio.run(_lobby(server, options.subscribers, options.rounds))
            finally:
                server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
