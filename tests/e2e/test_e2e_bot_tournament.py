"""`numbridge bot --tournament` against `numbridge serve`: bots fill an unrated Swiss made
with `numbridge tournament create` while the server runs, play every round and exit
when it has finished; a rated tournament is refused, saying why."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_server import LocalServer, serving

BOTS = ("robot-ann", "robot-ben", "robot-cy", "robot-dee")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalServer]:
    with serving(tmp_path) as local:
        yield local


def create(server: LocalServer, *args: str) -> str:
    """`numbridge tournament create` on the running server's store: the new id."""
    done = subprocess.run([sys.executable, "-m", "numbridge", "tournament", "create",
                           *server.store_args(), *args],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip().splitlines()[-1]


def start_once_joined(server: LocalServer, tournament: str, names: tuple[str, ...],
                      logs: Path, timeout_s: float = 120) -> None:
    """`numbridge tournament start` once every one of ``names`` has joined (their items
    are in the store): a tournament made to start a few seconds ahead would start without
    bots slow to come on a loaded machine (and a Swiss of nobody finishes at once)."""
    wanted = {f"PLAYER#{name}" for name in names}
    deadline = time.monotonic() + timeout_s
    while not wanted <= {sk for pk, sk in server.stored_keys()
                         if pk == f"TOURNEY#{tournament}"}:
        assert time.monotonic() < deadline, "\n".join(
            (logs / f"{name}.log").read_text() for name in names)
        time.sleep(0.2)
    done = subprocess.run([sys.executable, "-m", "numbridge", "tournament", "start",
                           tournament, *server.store_args()],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def bot(server: LocalServer, name: str, tournament: str, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "numbridge", "bot", "--level", "easy", "--url",
             server.ws_url, "--data-dir", str(server.data_dir), "--name", name,
             "--tournament", tournament], stdout=out, stderr=subprocess.STDOUT)


def wait_all(bots: dict[str, subprocess.Popen[bytes]], logs: Path, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    try:
        for name, process in bots.items():
            left = max(1.0, deadline - time.monotonic())
            assert process.wait(left) == 0, (logs / f"{name}.log").read_text()
    finally:
        for process in bots.values():
            if process.poll() is None:
                process.kill()
                process.wait()


def test_bots_play_an_unrated_swiss_through_and_exit(server: LocalServer,
                                                     tmp_path: Path) -> None:
    """Catches a bot that never joins (the Swiss starts without it), stops after its
    first game, misses the next round's deal, or never exits once the Swiss is over."""
    tournament = create(server, "--kind", "swiss", "--room", "blitz", "--rounds", "2",
                        "--starts", "+3600", "--unrated", "--name", "Bots' Swiss")
    bots = {name: bot(server, name, tournament, tmp_path / f"{name}.log") for name in BOTS}
    start_once_joined(server, tournament, BOTS, tmp_path)
    wait_all(bots, tmp_path, timeout_s=300)
    with server.player("referee") as referee:
        page = referee.request("tournament", tournament=tournament)
    assert page["tournament"]["status"] == "finished", page
    table = {row["player"]: row for row in page["standings"]}
    assert set(table) == set(BOTS)
    assert [row["games"] for row in table.values()] == [2, 2, 2, 2]
    # four players, two rounds: four games, each worth one point between its players
    assert sum(row["score"] for row in table.values()) == 4


def test_a_bot_refuses_a_rated_tournament_saying_why(server: LocalServer,
                                                     tmp_path: Path) -> None:
    """Catches a bot that joins a rated event (bots play unrated ones only) or waits
    silently for games that will never come."""
    tournament = create(server, "--kind", "arena", "--room", "blitz", "--minutes", "5",
                        "--starts", "+60")
    done = subprocess.run(
        [sys.executable, "-m", "numbridge", "bot", "--url", server.ws_url, "--data-dir",
         str(server.data_dir), "--name", "robot-eve", "--tournament", tournament],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert f"tournament {tournament} is rated" in done.stderr
    with server.player("referee") as referee:
        page = referee.request("tournament", tournament=tournament)
    assert page["tournament"]["players"] == 0
