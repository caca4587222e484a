"""What the tournament benches share: ``numbridge serve`` with short clocks, a tournament
made with ``numbridge tournament create``, bot players (the client of ``numbridge bot
--tournament``) in processes of their own, timed, and the tournament's pages read back.

Times are ``time.perf_counter`` (one monotonic clock for every process of the machine).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import multiprocessing
import random
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from numbridge.botcli.client import BotClient, BotOptions

Frame = dict[str, Any]

# The Blitz room with short clocks: a game of two easy bots lasts about a minute at
# most, so a ten-minute arena plays many rounds of re-pairing.
SHORT_ROOMS = """
rooms:
  - id: blitz
    title: Blitz
    variants:
      blitz: {size: 6, clues: {min: 10, max: 16, default: 14}, take_price: 2}
    move_ms: 10000
    game_ms: 60000
    highlighting: true
    blocks: [regular]
"""


@dataclass
class Played:
    """One game of one player, as its client saw it."""

    player: str
    game: str
    opponent: str
    dealt: float  # its state came
    ended: float | None = None  # its `finished` came


@dataclass
class Log:
    games: list[Played] = field(default_factory=list)
    joined: dict[str, float] = field(default_factory=dict)
    exits: dict[str, int] = field(default_factory=dict)


class TournamentPlayer(BotClient):
    """``numbridge bot --tournament``, timed: when each of its games came and ended."""

    def __init__(self, options: BotOptions, think_s: float, log: Log) -> None:
        super().__init__(options, random.Random(options.name))
        self.think_s = think_s
        self.log = log
        self.mine: dict[str, Played] = {}

    async def request(self, action: str, request_id: str | None = None,
                      **fields: Any) -> Frame:
        if action in ("place", "take", "exchange") and self.think_s:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think_s)
        answer = await super().request(action, request_id, **fields)
        if action == "join_tournament" and answer.get("type") == "ack":
            self.log.joined[self.options.name] = time.perf_counter()
        return answer

    def on_frame(self, frame: Frame) -> None:
        game = frame.get("game")
        if not isinstance(game, str):
            return
        kind = frame.get("type")
        if kind == "state" and frame.get("id") is None and game not in self.mine:
            view = frame.get("view") or {}
            if view.get("tournament") != self.options.tournament:
                return
            names = {seat: p.get("name") for seat, p in (view.get("players") or {}).items()}
            opponent = next((n for n in names.values() if n != self.options.name), "?")
            played = Played(self.options.name, game, str(opponent), time.perf_counter())
            self.mine[game] = played
            self.log.games.append(played)
        elif kind == "finished" and game in self.mine and self.mine[game].ended is None:
            self.mine[game].ended = time.perf_counter()


async def _players(url: str, tokens: dict[str, str], tournament: str, think_s: float,
                   limit_s: float) -> Log:
    log = Log()
    clients = [TournamentPlayer(BotOptions(url=url, token=token, name=name, level="easy",
                                           poll_s=0.5, tournament=tournament,
                                           tournament_poll_s=5.0), think_s, log)
               for name, token in tokens.items()]

    async def one(client: TournamentPlayer) -> None:
        log.exits[client.options.name] = await client.run()

    runs = [asyncio.create_task(one(c)) for c in clients]
    _, pending = await asyncio.wait(runs, timeout=limit_s)
    for client in clients:
        client.stop()
    for run in pending:
        run.cancel()
    await asyncio.gather(*runs, return_exceptions=True)
    return log


def _player_process(url: str, tokens: dict[str, str], tournament: str, think_s: float,
                    limit_s: float, results: Any) -> None:
    results.put(asyncio.run(_players(url, tokens, tournament, think_s, limit_s)))


def play(url: str, tokens: dict[str, str], tournament: str, think_s: float, limit_s: float,
         processes: int = 2) -> Log:
    """Every player of ``tokens`` in the tournament until it has finished (each exits
    then) or ``limit_s`` has passed; their games, joins and exit statuses."""
    names = sorted(tokens)
    shares = [{n: tokens[n] for n in names[p::processes]} for p in range(processes)]
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    workers = [context.Process(target=_player_process, daemon=True,
                               args=(url, share, tournament, think_s, limit_s, results))
               for share in shares if share]
    for worker in workers:
        worker.start()
    log = Log()
    for _ in workers:
        part: Log = results.get(timeout=limit_s + 120)
        log.games += part.games
        log.joined |= part.joined
        log.exits |= part.exits
    for worker in workers:
        worker.join(30)
    return log


def create(data_dir: Path, *args: str) -> str:
    """``numbridge tournament create ARGS`` on the server's data directory: the new id."""
    done = subprocess.run([sys.executable, "-m", "numbridge", "tournament", "create",
                           "--data-dir", str(data_dir), *args],
                          capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"tournament create failed: {done.stdout}{done.stderr}")
    return done.stdout.strip().splitlines()[-1].strip()


async def _standings(url: str, token: str, tournament: str) -> tuple[Frame, list[Frame]]:
    import websockets

    async with websockets.connect(f"{url}?token={token}", open_timeout=30,
                                  max_size=None) as ws:
        counter = 0

        async def ask(action: str, **fields: Any) -> Frame:
            nonlocal counter
            while True:
                counter += 1
                rid = f"q{counter}"
                await ws.send(json.dumps({"action": action, "id": rid, **fields}))
                while True:
                    frame: Frame = json.loads(await ws.recv())
                    if frame.get("id") == rid:
                        break
                if frame.get("code") != "rate_limited":
                    return frame
                await asyncio.sleep((frame.get("retry_after_ms") or 1000) / 1000)

        page = await ask("tournament", tournament=tournament)
        shown, standings = page["tournament"], []
        while True:
            standings += page.get("standings") or []
            after = page.get("next")
            if not after:
                return shown, standings
            page = await ask("tournament", tournament=tournament, after=after)


def standings(url: str, token: str, tournament: str) -> tuple[Frame, list[Frame]]:
    """The tournament as the server shows it over the protocol, every page of its
    standings."""
    return asyncio.run(_standings(url, token, tournament))


@dataclass
class Stored:
    """What the server wrote, read from its database once it has stopped: every pairing
    (games and byes, each round's), every player's item, and each game's archive record."""

    pairings: list[Any]
    players: list[Any]
    records: dict[str, Frame]


def read_back(data_dir: Path, tournament: str) -> Stored:
    from numbridge.local.data.datadir import DATABASE_FILE
    from numbridge.store.club import Archive
    from numbridge.store.sqlite import SqliteStore
    from numbridge.store.tournaments import Tournaments

    store = SqliteStore(data_dir / DATABASE_FILE)
    try:
        found = Tournaments(store)
        pairings = found.pairings(tournament)
        archive = Archive(store)
        records = {p.game: archive.get(p.game) or {} for p in pairings if p.game}
        return Stored(pairings, found.all_players(tournament), records)
    finally:
        store.close()


def overlaps(games: Sequence[Played]) -> tuple[int, int]:
    """Players found in two games at once: a game dealt to a player before their
    previous one ended (by their own client's clock); and next games dealt where the
    previous one's end never reached the client (a lost frame, or the same fault)."""
    by_player: dict[str, list[Played]] = defaultdict(list)
    for g in games:
        by_player[g.player].append(g)
    twice = unseen = 0
    for mine in by_player.values():
        mine.sort(key=lambda g: g.dealt)
        for before, after in itertools.pairwise(mine):
            if before.ended is None:
                unseen += 1
            elif after.dealt < before.ended:
                twice += 1
    return twice, unseen


def wait_until(predicate: Any, timeout_s: float, step_s: float = 1.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step_s)
    return False


START_S = 20  # the players join meanwhile


@dataclass
class Run:
    """A tournament played by bot players against a `numbridge serve` of its own: what
    the players saw, what the server kept, and what it cost the machine."""

    tournament: str
    log: Log
    elapsed_s: float
    cpu_s: float
    load_before: tuple[float, ...]
    load_after: tuple[float, ...]
    shown: Frame
    table: list[Frame]
    stored: Stored


def run_on_server(prefix: str, players: int, think_s: float, limit_s: float,
                  processes: int, *create_args: str) -> Run:
    """Create a tournament (``numbridge tournament create`` with ``create_args``, starting
    in START_S) on a fresh server with SHORT_ROOMS, play it with ``players`` bots named
    ``PREFIXnn``, then read its standings over the protocol and its items from the
    stopped server's database."""
    import os
    import shutil
    import tempfile

    from bench.load.server import Server

    work = Path(tempfile.mkdtemp(prefix=f"numbridge-{prefix}-"))
    rooms = work / "rooms.yaml"
    rooms.write_text(SHORT_ROOMS, encoding="utf-8")
    os.environ["ROOMS_CONFIG"] = str(rooms)
    server = Server(work / "data")
    server.start()
    try:
        tournament = create(server.data_dir, *create_args, "--starts", f"+{START_S}")
        tokens = {f"{prefix[0]}{n:02d}": server.token(f"{prefix[0]}{n:02d}")
                  for n in range(players)}
        started = time.perf_counter()
        cpu = server.cpu_s()
        load_before = os.getloadavg()
        log = play(server.url, tokens, tournament, think_s, limit_s=START_S + limit_s,
                   processes=processes)
        elapsed = time.perf_counter() - started
        cpu = server.cpu_s() - cpu
        load_after = os.getloadavg()
        shown, table = standings(server.url, server.token("referee"), tournament)
        server.stop()
        stored = read_back(server.data_dir, tournament)
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return Run(tournament, log, elapsed, cpu, load_before, load_after, shown, table, stored)
