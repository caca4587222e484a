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

- **burst**: ``--players`` (200) players connect (plain WebSockets, no brain), and
  once they all have, send one seek each in the same instant; the run ends when
  every player holds a game's ``state`` (or after 20 s). Reported beside the latency
  (as in **pairing**): the server's CPU-seconds from the release until the last
  state plus 1 s, and what the server counted (a hook installed in its process by
  ``sitecustomize``): the pairing transactions tried, the ones lost to another
  seeker, and the boards dealt — per 100 games. ``--profile FILE``: the server's
  handlers profiled too (``cProfile`` on each worker thread's CPU time), for ``pstats``.

``--checkouts DIR [DIR ...]`` runs the server of each checkout (its ``.venv``) in
turn, ``--repeat`` times: a before/after on the same machine, alternated.

Reported: samples, median, p95 and max in ms, the server's CPU and the load
generator's (the bots' processes). The generator runs on the same machine as the
server (its 2 cores shared): note the machine's load beside the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
             ramp_s: float, processes: int, counts: Path) -> None:
    load = os.getloadavg()[0]
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
    before = _counts(counts)
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
          f"{100 * generator_cpu / seconds:.0f}%; load average {load:.2f} at the start, "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    print(_summary("seek → both players hold state (ms)", paired))
    print(_summary(f"  while they arrive (first {ramp_s + CROWD_S:.0f} s)", crowd))
    print(_summary("  after it", later))
    print(f"{'games dealt':42} {len(arrivals):6d}  (one player's state only: "
          f"{sum(1 for t in arrivals.values() if len(t) < 2)}, at the run's end)")
    tried = {k: v - before.get(k, 0) for k, v in _counts(counts).items()}
    games = max(1, len(arrivals))
    print(f"{'per 100 games: pairing tries (lost), deals':42} {100 * tried['tries'] / games:6.0f}"
          f"  ({100 * tried['lost'] / games:.0f})  {100 * tried['deals'] / games:.0f}")


# ---------------------------------------------------------------- burst

# Installed in the server's process (``sitecustomize``, on its PYTHONPATH): counts the
# pairing transactions (a seek ended and a game's state put, in one), the ones that lost
# to a condition, and the boards dealt; written to NUMBRIDGE_BENCH_COUNTS as they change.
_COUNTING = '''
import json, os, threading, time

_path = os.environ.get("NUMBRIDGE_BENCH_COUNTS")
_lock = threading.Lock()
if _path:
    import numbridge.puzzles as _puzzles
    from numbridge.store import port as _port, sqlite as _sqlite

    _counts = {"tries": 0, "lost": 0, "deals": 0}
    _transact = _sqlite.SqliteStore.transact
    _deal = _puzzles.deal_board

    def _pairing(writes):
        return (any(isinstance(w, _port.Delete) and w.pk.startswith("SEEKS#") for w in writes)
                and any(isinstance(w, _port.Put) and w.key[1] == "STATE" for w in writes))

    def _counted_transact(self, writes):
        pairing = _pairing(writes)
        try:
            _transact(self, writes)
        except _port.ConflictError:
            if pairing:
                with _lock:
                    _counts["tries"] += 1
                    _counts["lost"] += 1
            raise
        if pairing:
            with _lock:
                _counts["tries"] += 1

    def _counted_deal(*args, **kwargs):
        with _lock:
            _counts["deals"] += 1
        return _deal(*args, **kwargs)

    def _dump():
        last = None
        while True:
            with _lock:
                now = dict(_counts)
            if now != last:
                with open(_path + ".tmp", "w") as out:
                    json.dump(now, out)
                os.replace(_path + ".tmp", _path)
                last = now
            time.sleep(0.1)

    _sqlite.SqliteStore.transact = _counted_transact
    _puzzles.deal_board = _counted_deal
    threading.Thread(target=_dump, daemon=True).start()

_profile = os.environ.get("NUMBRIDGE_BENCH_PROFILE")
if _profile:  # each handler's run on its worker thread, timed by that thread's CPU
    import cProfile, pstats
    from numbridge.local.lambdas import functions as _functions

    _stats = []
    _run = _functions.Invoker._run

    def _profiled(function, event, context):
        profile = cProfile.Profile(time.thread_time)
        try:
            return profile.runcall(_run, function, event, context)
        finally:
            with _lock:
                _stats.append(profile)

    def _dump_profile():
        while True:
            time.sleep(1.0)
            with _lock:
                taken = list(_stats)
                _stats.clear()
            if taken:
                merged = pstats.Stats(*taken) if not os.path.exists(_profile) \
                    else pstats.Stats(_profile, *taken)
                merged.dump_stats(_profile)

    _functions.Invoker._run = staticmethod(_profiled)
    threading.Thread(target=_dump_profile, daemon=True).start()
'''


def _counts(path: Path) -> dict[str, int]:
    try:
        found: dict[str, int] = json.loads(path.read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return {"tries": 0, "lost": 0, "deals": 0}
    return found


async def _burst_players(server: Server, players: int, timeout_s: float,
                         counts: Path) -> dict[str, Any]:
    """Connect ``players``, then release one seek each in one instant; what it took."""
    import websockets

    sockets = [await websockets.connect(f"{server.url}?token={server.token(f'b{n}')}",
                                        open_timeout=60, max_queue=None)
               for n in range(players)]
    sent: list[float] = [0.0] * players
    held: dict[str, list[tuple[int, float]]] = defaultdict(list)  # game → (player, when)
    answers: dict[str, int] = defaultdict(int)
    done = asyncio.Event()
    paired: set[int] = set()

    async def reading(n: int, ws: Any) -> None:
        async for raw in ws:
            frame = json.loads(raw)
            if frame.get("id") == "seek":
                answers[str(frame.get("type"))] += 1
            elif frame.get("type") == "state" and frame.get("id") is None and n not in paired:
                paired.add(n)
                held[str(frame["game"])].append((n, time.perf_counter()))
                if len(paired) == players:
                    done.set()

    readers = [asyncio.create_task(reading(n, ws)) for n, ws in enumerate(sockets)]
    await asyncio.sleep(2.0)  # the connects' own work (presence, online counts) done
    before = _counts(counts)
    cpu = server.cpu_s()
    released = time.perf_counter()
    frame = json.dumps({"action": "seek", "id": "seek", "room": "blitz"})
    for n, ws in enumerate(sockets):
        sent[n] = time.perf_counter()
        await ws.send(frame)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(done.wait(), timeout_s)
    last = time.perf_counter()
    await asyncio.sleep(1.0)  # the fan-out's hints of the last pairings
    cpu = server.cpu_s() - cpu
    after = _counts(counts)
    for ws in sockets:
        await ws.close()
    for reader in readers:
        reader.cancel()
    await asyncio.gather(*readers, return_exceptions=True)
    games = [times for times in held.values() if len(times) == 2]
    return {
        "latencies": [(max(t for _, t in times) - max(sent[n] for n, _ in times)) * 1000
                      for times in games],
        "games": len(games), "unpaired": players - 2 * len(games),
        "cpu": cpu, "span": last - released,
        "counts": {k: after.get(k, 0) - before.get(k, 0) for k in after},
        "answers": dict(answers),
    }


def _burst(server: Server, players: int, label: str, counts: Path) -> str:
    load = os.getloadavg()[0]
    got = asyncio.run(_burst_players(server, players, 20.0, counts))
    games = max(1, got["games"])
    tried = got["counts"]
    lat = got["latencies"]
    return (f"{label:24} load {load:5.2f}→{os.getloadavg()[0]:5.2f}  "
            f"games {got['games']:3d} (unpaired {got['unpaired']})  "
            f"CPU {got['cpu']:5.2f} s  tries/100 games {100 * tried['tries'] / games:4.0f} "
            f"(lost {100 * tried['lost'] / games:4.0f})  deals/100 games "
            f"{100 * tried['deals'] / games:4.0f}  median {percentile(lat, 0.5):5.0f}  "
            f"p95 {percentile(lat, 0.95):5.0f}  max {max(lat, default=float('nan')):5.0f}  "
            f"answers {got['answers']}")


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
    parser.add_argument("--only", choices=("pairing", "lobby", "burst"),
                        help="one run (burst runs only when named)")
    parser.add_argument("--checkouts", type=Path, nargs="+", metavar="DIR",
                        help="the server of each checkout (its .venv) in turn: before/after")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="with --checkouts: rounds of runs, alternated (1)")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="the server's handlers profiled (cProfile on each worker "
                             "thread's CPU time): FILE-<run>.prof, for pstats")
    return parser.parse_args(list(argv))


def main(argv: Sequence[str] = ()) -> None:
    options = _options(argv)
    work = Path(tempfile.mkdtemp(prefix="numbridge-seek-"))
    hook = work / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(_COUNTING)
    print(f"numbridge serve (SQLite) on {os.cpu_count()} cores shared with the load "
          "generator; latencies in ms")
    checkouts: list[Path | None] = [*(options.checkouts or [None])]
    try:
        for name in ("pairing", "lobby", "burst"):
            if options.only != name and (options.only is not None or name == "burst"):
                continue
            for round_ in range(options.repeat if options.checkouts else 1):
                for n, checkout in enumerate(checkouts):
                    label = "this checkout" if checkout is None else str(checkout)
                    run = work / f"{name}-{round_}-{n}"
                    server = Server(run / "data", checkout=checkout)
                    counts = run / "counts.json"
                    # The counting hook in the server's process only: its environment is
                    # this one's at start.
                    saved = dict(os.environ)
                    os.environ["NUMBRIDGE_BENCH_COUNTS"] = str(counts)
                    if options.profile is not None:
                        os.environ["NUMBRIDGE_BENCH_PROFILE"] = str(
                            options.profile.resolve()) + f"-{name}-{round_}-{n}.prof"
                    os.environ["PYTHONPATH"] = os.pathsep.join(
                        filter(None, [str(hook), os.environ.get("PYTHONPATH")]))
                    try:
                        server.start()
                    finally:
                        os.environ.clear()
                        os.environ.update(saved)
                    try:
                        if options.checkouts:
                            print(f"-- {label}", flush=True)
                        if name == "pairing":
                            _pairing(server, options.players, options.seconds, options.think,
                                     options.ramp, max(1, options.processes), counts)
                        elif name == "burst":
                            print(_burst(server, options.players, label, counts), flush=True)
                        else:
                            asyncio.run(_lobby(server, options.subscribers, options.rounds))
                    finally:
                        server.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
