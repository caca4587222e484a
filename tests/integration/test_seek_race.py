"""A hundred seekers at once, on both stores: no seek paired twice, nobody paired with
themself, nobody paired with a connection that had closed. Seeks come from 90 players,
ten of them on two devices; fifteen seekers close their connection while the others
seek. Each pairing is a conditional transaction (``store.seeks``): the store decides.

A player who seeks on two devices at the same instant makes two seeks: one may be
paired at once and the other then wait (it replaces none: the first is no longer
waiting), so such a player may get a game for each; never more games than seeks."""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from harness import Conn, World
from numbridge.service.usecases import seeking
from numbridge.store.port import ConflictError, Delete, Equals, Put, Write

_seq = itertools.count()
_lock = threading.Lock()


def _tick() -> int:
    with _lock:
        return next(_seq)


class Recording:
    """The store, remembering when (in one global order) each pairing ran and each
    connection's item was deleted: a pairing that began after a close had ended must
    not commit."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.pairings: list[tuple[int, int, set[str]]] = []  # start, end, connections
        self.taken: list[str] = []  # the waiting seeks each pairing ended
        self.closes: dict[str, int] = {}  # connection → when its deletion ended
        self.lost = 0  # pairings that lost their race

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def transact(self, writes: Sequence[Write]) -> None:
        pairing = any(isinstance(w, Delete) and w.pk.startswith("SEEKS#") for w in writes) \
            and any(isinstance(w, Put) and w.key[1] == "STATE" for w in writes)
        start = _tick()
        try:
            self._store.transact(writes)  # a lost condition raises: no pairing recorded
        except ConflictError:
            with _lock:
                self.lost += pairing
            raise
        if pairing:
            connections = {w.key[0].removeprefix("CONN#") for w in writes
                           if isinstance(w, Put) and w.key[1] == "CONN"}
            self.pairings.append((start, _tick(), connections))
            self.taken += [str(w.condition.values["seek"]) for w in writes
                           if isinstance(w, Delete) and w.pk.startswith("SEEKS#")
                           and isinstance(w.condition, Equals)]

    def delete(self, pk: str, sk: str, condition: Any = None) -> Any:
        found = self._store.delete(pk, sk, condition)
        if sk == "CONN" and pk.startswith("CONN#"):
            self.closes[pk.removeprefix("CONN#")] = _tick()
        return found


def _run_at_once(jobs: list[Any]) -> list[Any]:
    gate = threading.Barrier(len(jobs), timeout=60)
    results: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        gate.wait()
        try:
            results[i] = jobs[i]()
        except BaseException as exc:  # reported below
            results[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    for r in results:
        if isinstance(r, BaseException):
            raise r
    return results


def test_a_hundred_seekers_at_once(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    recording = Recording(world.store)
    world.use_store(recording)
    # A try that loses its race tells nobody: only committed pairings are counted and
    # build their players' state frames.
    counted: Counter[str] = Counter()
    framed = Counter[str]()

    def count(name: str, value: float = 1) -> None:
        with _lock:
            counted[name] += int(value)

    def state_frame(*args: Any, **kwargs: Any) -> dict[str, Any]:
        with _lock:
            framed["state"] += 1
        return real_state_frame(*args, **kwargs)

    real_state_frame = seeking.state_frame
    monkeypatch.setattr(seeking, "count", count)
    monkeypatch.setattr(seeking, "state_frame", state_frame)
    single = [world.join(f"p{n}") for n in range(65)]
    doubles = [world.join(f"d{n}") for n in range(10) for _ in range(2)]
    leaving = [world.join(f"x{n}") for n in range(15)]
    for conn in leaving:  # waiting already; they close while the others seek
        assert conn.ask("seek", room="blitz")["type"] in ("seek", "ack")
    seekers: list[Conn] = [*single, *doubles]
    answers = _run_at_once([lambda c=c: c.ask("seek", room="blitz") for c in seekers]
                           + [lambda c=c: c.close() for c in leaving])
    for answer in answers[:len(seekers)]:
        assert answer["type"] in ("seek", "ack"), answer
    world.deliver_lobby()  # the seeks that came at the same instant meet now

    games: list[dict[str, str]] = []
    for room in ("blitz",):
        listed, _ = world.svc.playing.in_room(room)
        games += [g["players"] for g in listed]
    assert len(recording.pairings) == len(games)
    assert counted["SeekPairings"] == len(games), (counted, recording.lost)
    assert framed["state"] == 2 * len(games), (framed, recording.lost)
    twice = sorted(seek for seek, n in Counter(recording.taken).items() if n > 1)
    assert twice == [], f"seeks paired twice: {twice}"
    seeks_made = Counter(c.player for c in [*seekers, *leaving])
    players = Counter(name for g in games for name in g.values())
    over = sorted(name for name, n in players.items() if n > seeks_made[name])
    assert over == [], f"more games than seeks: {over}"
    assert all(g["blue"] != g["red"] for g in games), "a player paired with themself"
    for start, _, connections in recording.pairings:
        for connection in connections:
            closed = recording.closes.get(connection)
            assert closed is None or closed > start, (
                f"paired with connection {connection} that had closed")
    # Liveness too: everyone rates the same, so at most one seeker is left waiting, and
    # no seek outlived its connection.
    waiting = world.svc.seeks.in_room("blitz", world.clock())
    assert len(waiting) <= 1, waiting
    assert not {s.connection for s in waiting} & {c.id for c in leaving}
    print(f"{len(games)} games from {len(seekers) + len(leaving)} seekers, "
          f"{recording.lost} pairings lost their race")
