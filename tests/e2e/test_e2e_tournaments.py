"""Tournaments over real WebSockets against `numbridge serve`, on both stores: one made
by `numbridge tournament create` while the server runs starts on time; its players
are paired, get their game's state, play it to the end, see the result and the
standings pushed, and the tournament finishes at its end."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

from client import Seat, play_to_the_end
from e2e_server import LocalServer, Player

Frame = dict[str, Any]


def tournament_cli(server: LocalServer, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "numbridge", "tournament", *args,
                           *server.store_args()], capture_output=True, text=True, timeout=60)


def test_an_arena_made_while_the_server_runs_is_played_through(
        local_server: LocalServer) -> None:
    """Catches: a tournament made by another process not found by the running server
    (it never starts), a pairing that does not push each player the game's state, a
    game's view without its tournament, a result or standings never pushed, an arena
    that never finishes."""
    made = tournament_cli(local_server, "create", "--kind", "arena", "--room", "blitz",
                          "--starts", "+3600", "--minutes", "0.15", "--unrated",
                          "--name", "Quick arena")
    assert made.returncode == 0, made.stderr
    tid = made.stdout.strip().splitlines()[-1]
    listed = tournament_cli(local_server, "list")
    assert tid in listed.stdout and "Quick arena" in listed.stdout
    with local_server.player("ana") as ana, local_server.player("bob") as bob:
        page = ana.request("subscribe", topic=f"tournament:{tid}")
        assert page["type"] == "tournament" and page["tournament"]["name"] == "Quick arena"
        for player in (ana, bob):
            assert player.request("join_tournament", tournament=tid)["type"] == "ack"
        # Its start moved to now once both are in: made to start 4 s on, its 9 s were
        # over before they joined on a machine slow enough to take 13 s to get here.
        started = tournament_cli(local_server, "start", tid)
        assert started.returncode == 0, started.stderr
        wait_change(ana, "started")
        seats = {}
        for player in (ana, bob):
            state = player.expect(lambda f: f["type"] == "state", timeout=30)
            assert state["view"]["tournament"] == tid
            seats[player.name] = Seat(player, state)
        paired = wait_change(ana, "paired")
        assert {paired["blue"], paired["red"]} == {"ana", "bob"}
        # Neither is paired again after this game: bob leaves.
        assert bob.request("leave_tournament", tournament=tid)["type"] == "ack"
        final = play_to_the_end(seats)
        result = wait_change(ana, "result")
        assert result["game"] == final.game == paired["game"]
        assert result["winner"] == final.result["winner"]
        # Pushed after the start too; after the result, within a few seconds.
        standings = wait_change(ana, "standings", lambda c: sum(
            row["games"] for row in c["standings"]) == 2)
        assert sorted(row["player"] for row in standings["standings"]) == ["ana", "bob"]
        wait_change(ana, "finished", timeout=60)
        end = ana.request("tournament", tournament=tid)
        assert end["tournament"]["status"] == "finished"
        assert [p["game"] for p in end["pairings"]] == [final.game]
        assert end["standings"][0]["rank"] == 1  # a draw ranks both 1
        record = ana.request("record", game=final.game)["record"]
        assert record["tournament"] == tid


def wait_change(player: Player, kind: str, match: Callable[[Frame], bool] = lambda c: True,
                timeout: float = 30.0) -> Frame:
    """The first pushed change of ``kind`` that ``match``es, whichever ``changes`` frame
    carries it."""
    deadline = time.monotonic() + timeout
    while True:
        for frame in list(player.pushed):
            if frame.get("type") == "changes":
                found = [c for c in frame["changes"] if c["kind"] == kind and match(c)]
                if found:
                    frame["changes"].remove(found[0])
                    return dict(found[0])
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"no {kind!r} change; pushed: {list(player.pushed)}")
        player._receive(time.monotonic() + remaining)
