"""Load: concurrent games through ``numbridge serve`` over real WebSockets.

Every player is the bot: the client of ``numbridge bot`` (numbridge.botcli)
with the brain ``numbridge.bot`` at ``--level``, deciding from what a player
sees — its view, kept from the events pushed to it — and playing real games
to the end; two of them per game, all in this process (asyncio), a finished
game followed by a new one. Reported per run: actions/s and requests/s for the
whole server, ack latency (action sent → its ack) and delivery latency (action
sent → the opponent's event) p50/p95/p99, events lost, duplicated or out of
order, refused requests, games finished, the server's CPU and memory (from
/proc), the load generator's CPU and the brain's time per action. The load
generator runs on the same machine as the server.

Runs (``python -m bench load``; ``--quick`` or BENCH_LOAD_QUICK=1 for shorter
ones, ``--games N`` for one run; ``--help``):
- 10 Blitz games, players answering at once; 1, 2, 5 and 20 games;
- the same 10 with one player flooding the server;
- 50, 100 and 200 games, each player thinking 3 s;
- 10 Bridge games and 10 Domains games at once;
- 10 games at once after 2,000 finished games are in the database;
- 10 games at once on ``--store dynamodb`` (embedded moto), for comparison.
``--baseline DIR`` runs instead the same load (``--games``, ``--think``, ``--room``)
on DIR's ``numbridge serve`` (a second checkout, with its own ``.venv``) and on
this checkout's, alternating, and prints both pooled with the ratio: actions/s,
ack p50/p95/p99, the server's CPU ms per action (its CPU time over the run ÷
the actions acknowledged).
Writes docs/load.png (ack p95 against the number of games) when matplotlib is
installed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import cast

from numbridge.bot import LEVELS, Level

from bench.load.compare import compare
from bench.load.plot import plot
from bench.load.prefill import prefill
from bench.load.runs import run_games
from bench.load.server import Server
from bench.load.stats import HEADER, Result
from bench.measure import percentile

ROOT = Path(__file__).resolve().parents[1]
# The bot's cheap levels keep the load generator from being the bottleneck
# (docs/load.md: the brain's time per action).
DEFAULT_LEVEL: Level = "normal"


def _options(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench load",
        description="numbridge serve under load: pairs of bot players over WebSockets.")
    parser.add_argument("--level", choices=LEVELS, default=DEFAULT_LEVEL,
                        help=f"the players' bot level ({DEFAULT_LEVEL})")
    parser.add_argument("--quick", action="store_true",
                        default=os.environ.get("BENCH_LOAD_QUICK") == "1",
                        help="shorter runs and fewer sizes (also BENCH_LOAD_QUICK=1)")
    parser.add_argument("--seconds", type=float,
                        help="the length of a run (30; 10 with --quick; twice that "
                             "for players thinking)")
    parser.add_argument("--games", type=int, metavar="N",
                        help="only one run, of N games at once (on SQLite)")
    parser.add_argument("--think", type=float, default=0.0, metavar="S",
                        help="with --games: seconds each player thinks per action (0)")
    parser.add_argument("--room", default="blitz", help="with --games: the room (blitz)")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="before/after: the same load on DIR's server (another checkout, "
                             "its own .venv) and this one's, alternating, then both in one "
                             "table (--games, 10 by default)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --baseline: runs of each side (3)")
    return parser.parse_args(list(argv))


def main(argv: Sequence[str] = ()) -> None:
    options = _options(argv)
    level = cast(Level, options.level)
    seconds = options.seconds or (10.0 if options.quick else 30.0)
    work = Path(tempfile.mkdtemp(prefix="numbridge-load-"))
    print(f"numbridge serve under load: {os.cpu_count()} cores shared with the load generator; "
          f"{seconds:.0f} s per run; the players are the bot ({level}), games played "
          "continuously (a finished game is followed by a new one); latencies in ms")
    try:
        if options.baseline:
            compare(work, options.baseline.resolve(), options.games or 10, options.think,
                    seconds, options.room, level, options.rounds)
            return
        print(HEADER, flush=True)
        if options.games:
            _one(work, options.games, options.think, seconds, options.room, level)
        else:
            _series(work, seconds, options.quick, level)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _show(result: Result) -> Result:
    print(result.row(), flush=True)
    return result


def _one(work: Path, games: int, think_s: float, seconds: float, room: str,
         level: Level) -> None:
    server = Server(work / "sqlite")
    server.start()
    try:
        run_games(server, "warm-up", min(games, 10), 0.0, 5.0, room, level)
        label = f"sqlite, {room}, " + (f"thinking {think_s:g} s" if think_s else "at once")
        _show(run_games(server, label, games, think_s, seconds, room, level))
    finally:
        server.stop()


def _series(work: Path, seconds: float, quick: bool, level: Level) -> None:
    curves: dict[str, list[Result]] = {"players answering at once": [],
                                       "players thinking 3 s": []}
    server = Server(work / "sqlite")
    server.start()
    try:
        run_games(server, "warm-up", 10, 0.0, 5.0, level=level)  # caches, first imports
        baseline = _show(run_games(server, "sqlite, at once", 10, 0.0, seconds, level=level))
        curves["players answering at once"].append(baseline)
        for games in ((1, 5) if quick else (1, 2, 5, 20)):
            curves["players answering at once"].append(
                _show(run_games(server, "sqlite, at once", games, 0.0, seconds, level=level)))
        flooded = _show(run_games(server, "sqlite, at once, one player flooding", 10, 0.0,
                                  seconds, level=level, flooders=4))
        slower = percentile(flooded.stats.ack_ms, .95) / percentile(baseline.stats.ack_ms, .95)
        print(f"  the flooder sent {flooded.stats.flooded / flooded.seconds:,.0f} requests/s "
              f"on 4 connections; the others' ack p95 {slower:.2f}x the run without it",
              flush=True)
        for games in ((50, 200) if quick else (50, 100, 200)):
            curves["players thinking 3 s"].append(_show(run_games(
                server, "sqlite, thinking 3 s", games, 3.0, seconds * 2, level=level)))
        for room in ("bridge", "domains"):
            _show(run_games(server, f"sqlite, at once, {room}", 10, 0.0, seconds, room, level))
    finally:
        server.stop()
    items = prefill(server.data_dir, 2000)
    server.start()
    try:
        run_games(server, "warm-up", 10, 0.0, 5.0, level=level)
        grown = _show(run_games(server, "sqlite, at once, 2,000 played", 10, 0.0, seconds,
                                level=level))
    finally:
        server.stop()
    ratio = percentile(grown.stats.ack_ms, .5) / percentile(baseline.stats.ack_ms, .5)
    print(f"  database after the prefill: {items:,} items; ack p50 "
          f"{ratio:.2f}x the empty database's", flush=True)

    dynamo = Server(work / "dynamodb", ["--store", "dynamodb"])
    dynamo.start()
    try:
        _show(run_games(dynamo, "dynamodb (embedded moto), at once", 10, 0.0, seconds,
                        level=level))
    finally:
        dynamo.stop()
    for curve in curves.values():
        curve.sort(key=lambda r: r.games)
    if not quick and plot(curves, ROOT / "docs" / "load.png"):
        print("  plot: docs/load.png")
