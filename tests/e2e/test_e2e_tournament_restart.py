"""SIGKILL of `numbridge serve` during a Swiss round: after the restart on the same data
directory the round completes and the Swiss finishes, nothing is paired twice and no
result is lost (the bots, `numbridge bot --tournament` processes, reconnect by
themselves)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_server import LocalServer, serving
from numbridge.local.data.datadir import DATABASE_FILE
from numbridge.store.club import Archive
from numbridge.store.sqlite import SqliteStore
from numbridge.store.tournaments import Tournaments
from test_e2e_bot_tournament import bot, create, start_once_joined, wait_all

BOTS = tuple(f"robot-{n}" for n in ("ann", "ben", "cy", "dee", "eve", "fay", "gus"))
ROUNDS = 3


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalServer]:
    with serving(tmp_path) as local:
        yield local


def games_in_play(server: LocalServer, tournament: str) -> int:
    return sum(1 for pk, sk in server.stored_keys()
               if pk == f"TOURNEY#{tournament}" and sk.startswith("LIVE#"))


def test_a_round_killed_midway_completes_after_the_restart(server: LocalServer,
                                                           tmp_path: Path) -> None:
    """Catches a round paired again after the crash (a player in two games of a round, or
    a pair met twice), a result counted twice or lost (a game in no player's history, a
    score that is not its games'), and a Swiss that never resumes after the restart."""
    # Started once every bot is in (a start a few seconds ahead found them still coming
    # on a loaded machine: a Swiss of nobody, finished at once).
    tournament = create(server, "--kind", "swiss", "--room", "blitz", "--rounds",
                        str(ROUNDS), "--starts", "+3600", "--unrated", "--name", "Crash Swiss")
    bots = {name: bot(server, name, tournament, tmp_path / f"{name}.log") for name in BOTS}
    start_once_joined(server, tournament, BOTS, tmp_path)
    deadline = time.monotonic() + 120
    while games_in_play(server, tournament) == 0:  # round 1 under way
        assert time.monotonic() < deadline, server.log()
        time.sleep(0.2)
    server.kill()  # SIGKILL: no shutdown of any kind
    time.sleep(1.0)
    server.start()
    wait_all(bots, tmp_path, timeout_s=480)
    server.stop()

    store = SqliteStore(server.data_dir / DATABASE_FILE)
    try:
        found = Tournaments(store)
        swiss = found.get(tournament)
        pairings = found.pairings(tournament)
        players = found.all_players(tournament)
        archive = Archive(store)
        records = {p.game: archive.get(p.game) for p in pairings if p.game}
    finally:
        store.close()
    assert swiss is not None and (swiss.status, swiss.round) == ("finished", ROUNDS)
    # paired once: everyone once a round (a game or the bye), no pair twice, no game twice
    for round_no in range(1, ROUNDS + 1):
        seated = [name for p in pairings if p.round == round_no
                  for name in (p.blue, p.red, p.bye) if name is not None]
        assert sorted(seated) == sorted(BOTS), (round_no, seated)
    pairs = [frozenset((p.blue, p.red)) for p in pairings if p.game]
    assert len(pairs) == len(set(pairs)) == ROUNDS * (len(BOTS) // 2)
    assert len({p.game for p in pairings if p.game}) == len(pairs)
    # no result lost or counted twice: every game over, in its record and its pairing,
    # and in each of its players' histories exactly once
    sides = Counter(h.game for p in players for h in p.history)
    assert sides == Counter({str(p.game): 2 for p in pairings if p.game})
    expected = Counter[str]()
    for p in pairings:
        if p.bye is not None:
            expected[p.bye] += 2
            continue
        record = records[p.game]
        assert record is not None and p.done, p
        winner = record["result"]["winner"]
        assert p.winner == winner
        for seat, name in (("blue", p.blue), ("red", p.red)):
            assert name is not None
            expected[name] += 1 if winner is None else 2 if winner == seat else 0
    assert {p.name: p.score2 for p in players} == {n: expected[n] for n in BOTS}
