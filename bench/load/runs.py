"""One run: ``games`` pairs of bot players, each pair dealing and playing one game
after another for ``seconds``; optionally one player flooding the server meanwhile."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from collections.abc import Callable
from typing import Any

from numbridge.bot import Level
from numbridge.botcli.client import BotOptions

from .player import Player, Window
from .server import Server
from .stats import Result
from .stream import lost

FLOOD_PER_CONNECTION = 500  # requests a second on each of the flooder's connections
QUIET_S = 0.3  # no request waiting and no frame for this long: nothing is on its way
SETTLE_LIMIT_S = 30.0

_generations = itertools.count(1)  # the players of each run are new players


def _pair(server: Server, index: int, generation: int, level: Level,
          window: Window, player: type[Player]) -> tuple[Player, Player]:
    players = []
    for side in "ab":
        name = f"{side}{index}r{generation}"
        # games=0: it accepts no open proposal; it plays the games dealt to it.
        options = BotOptions(url=server.url, token=server.token(name), name=name,
                             level=level, games=0, poll_s=3600.0)
        players.append(player(options, random.Random(name), window))
    a, b = players
    a.opponent, b.opponent = b, a
    return a, b


async def _deal_and_play(a: Player, b: Player, room: str, window: Window,
                         dealt: asyncio.Event, until_finished: int | None) -> None:
    """Deal one game after another until the run stops (or, given ``until_finished``,
    until that many games have finished); the players play each out."""
    await asyncio.gather(a.caught_up.wait(), b.caught_up.wait())
    while not window.stop.is_set():
        a.ended.clear()
        b.ended.clear()
        proposal = await a.request("propose", room=room, colour="blue", rated=False)
        if proposal["type"] != "proposal":
            raise RuntimeError(f"propose refused: {proposal}")
        accepted = await b.request("accept", proposal=proposal["proposal"]["id"])
        if accepted["type"] != "ack":
            raise RuntimeError(f"accept refused: {accepted}")
        dealt.set()
        both = asyncio.create_task(_both_ended(a, b))
        stopped = asyncio.create_task(window.stop.wait())
        await asyncio.wait({both, stopped}, return_when=asyncio.FIRST_COMPLETED)
        stopped.cancel()
        if both.done() and window.measuring:
            window.stats.finished += 1
            if until_finished is not None and window.stats.finished >= until_finished:
                window.stop.set()
        both.cancel()


async def _both_ended(a: Player, b: Player) -> None:
    await a.ended.wait()
    await b.ended.wait()


async def _flood(server: Server, generation: int, connections: int, stop: asyncio.Event,
                 sent: list[int]) -> None:
    """One player sending requests on several connections, never waiting for answers."""
    import websockets

    url = server.url + "?token=" + server.token(f"flooder{generation}")

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


async def _settle(players: list[Player], missing: Callable[[], int]) -> None:
    """Wait until every answer has come and the pushes after it: quiet, and no player
    short of an event another got (a push slowed by a busy machine is late, not lost)."""
    deadline = time.monotonic() + SETTLE_LIMIT_S
    while time.monotonic() < deadline:
        now = time.perf_counter()
        if all(p.outstanding == 0 and now - p.last_frame_at >= QUIET_S for p in players) \
                and missing() == 0:
            return
        await asyncio.sleep(0.05)


async def _while_running(tasks: list[asyncio.Task[Any]], waits: list[asyncio.Event]) -> None:
    """Wait for the events; a task that fails meanwhile fails the run."""
    pending = {asyncio.ensure_future(e.wait()) for e in waits}
    watched = set(tasks)
    while pending:
        done, _ = await asyncio.wait(pending | watched, return_when=asyncio.FIRST_COMPLETED)
        for task in done & watched:
            task.result()  # its error, or it ended before the run did
            raise RuntimeError(f"a player's task ended early: {task}")
        pending -= done


async def _until_stopped(tasks: list[asyncio.Task[Any]], stop: asyncio.Event,
                         seconds: float) -> None:
    """Wait ``seconds``, less if the run is stopped sooner or a task fails."""
    deadline = time.monotonic() + seconds
    stopped = asyncio.ensure_future(stop.wait())
    running = set(tasks)
    try:
        while running and not stop.is_set() and (left := deadline - time.monotonic()) > 0:
            done, running = await asyncio.wait(running | {stopped}, timeout=left,
                                               return_when=asyncio.FIRST_COMPLETED)
            running.discard(stopped)
            if any(not t.cancelled() and t.exception() for t in done if t is not stopped):
                return
    finally:
        stopped.cancel()


async def _run(server: Server, label: str, games: int, think_s: float, seconds: float,
               room: str, level: Level, flooders: int, until_finished: int | None,
               player: type[Player]) -> Result:
    generation = next(_generations)
    window = Window(think_s)
    pairs = [_pair(server, i, generation, level, window, player) for i in range(games)]
    players = [p for pair in pairs for p in pair]
    dealt = [asyncio.Event() for _ in pairs]
    clients = [asyncio.create_task(p.run()) for p in players]
    tables = [asyncio.create_task(_deal_and_play(a, b, room, window, d, until_finished))
              for (a, b), d in zip(pairs, dealt, strict=True)]
    watched: list[asyncio.Task[Any]] = [*clients, *tables]
    try:
        await _while_running(watched, dealt)  # the first deals, before the clock starts
        flood_sent = [0]
        flood = (asyncio.create_task(_flood(server, generation, flooders, window.stop,
                                            flood_sent)) if flooders else None)
        cpu0, load0, t0 = server.cpu_s(), time.process_time(), time.monotonic()
        window.go.set()
        await _until_stopped(watched, window.stop, seconds)
        window.stop.set()
        elapsed = time.monotonic() - t0
        cpu = (server.cpu_s() - cpu0) / elapsed
        load_cpu = (time.process_time() - load0) / elapsed
        rss = server.rss_mb()
        for task in watched:
            if task.done():
                task.result()  # a failure during the run
        if flood is not None:
            await flood
            window.stats.flooded = flood_sent[0]
        await asyncio.gather(*tables)
        def missing() -> int:
            return sum(lost([a.streams.get(g), b.streams.get(g)])
                       for a, b in pairs for g in a.streams.keys() | b.streams.keys())

        await _settle(players, missing)
        window.stats.lost = missing()
    finally:
        for p in players:
            p.stop()
        await asyncio.wait(clients, timeout=30)
        for task in [*clients, *tables]:
            task.cancel()
    return Result(label, games, elapsed, window.stats, cpu, load_cpu, rss)


def run_games(server: Server, label: str, games: int, think_s: float, seconds: float,
              room: str = "blitz", level: Level = "normal", flooders: int = 0,
              until_finished: int | None = None, player: type[Player] = Player) -> Result:
    """A run of ``seconds``; with ``until_finished``, ``seconds`` is only its limit;
    ``player`` a subclass that watches more (the compression bench records frames)."""
    return asyncio.run(_run(server, label, games, think_s, seconds, room, level, flooders,
                            until_finished, player))
