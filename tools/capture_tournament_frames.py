"""A tournament's frames as a real ``numbridge serve`` sends them, recorded for the web
client's Node tests (web/test/tournaments-frames.json, read by
web/test/tournaments.test.js).

The host makes a two-round Swiss with ``numbridge tournament create``, and starts it
(``numbridge tournament start``) once ana, bob and dee have joined it (one has a bye
each round; each game's blue resigns); cy subscribes to ``tournament:TID`` as a
spectator. Kept: the ``tournaments`` lists (upcoming, then running and finished), cy's
first page, every ``changes`` frame pushed to cy in order, the ``state`` frames of the
games dealt (a view carries ``tournament``), and the ``tournament`` page asked once it
finished: the first page with the changes applied must agree with it. Then a one-minute
arena, the same way.

    PYTHONPATH=layers/numbridge .venv/bin/python tools/capture_tournament_frames.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "e2e"))

from e2e_server import LocalServer  # noqa: E402

OUT = REPO / "web" / "test" / "tournaments-frames.json"


def create(server: LocalServer, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "numbridge", "tournament", "create", *args,
         *server.store_args()], check=True, capture_output=True, text=True)
    return done.stdout.strip().splitlines()[-1]


def start(server: LocalServer, tournament: str) -> None:
    subprocess.run([sys.executable, "-m", "numbridge", "tournament", "start", tournament,
                    *server.store_args()], check=True, capture_output=True, text=True)


def drained(player: Any, kind: str) -> list[dict[str, Any]]:
    """The pushed frames of ``kind`` that came to ``player`` within a moment."""
    got: list[dict[str, Any]] = []
    while True:
        try:
            got.append(player.expect(lambda f: f.get("type") == kind, timeout=0.3))
        except TimeoutError:
            return got


def play_arena(server: LocalServer, ana: Any, bob: Any, cy: Any) -> dict[str, Any]:
    """A one-minute arena of ana and bob, cy subscribed: each game's blue resigns at once
    twice (each time the two are paired again), the third game once the arena has
    ended (it still counts)."""
    tid = create(server, "--kind", "arena", "--room", "blitz", "--minutes", "1",
                 "--name", "Blitz arena", "--unrated")
    ana.request("join_tournament", tournament=tid)
    bob.request("join_tournament", tournament=tid)
    first = cy.request("subscribe", topic=f"tournament:{tid}")
    ends_ms = first["tournament"]["ends_ms"]
    pushed: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    deadline = time.monotonic() + 120
    while not any(c["kind"] == "finished" for f in pushed for c in f["changes"]):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the arena did not finish; pushed: {pushed}")
        for player in (ana, bob):
            for state in drained(player, "state"):
                if state["view"].get("you") == "blue" and state["v"] == 0:
                    games.append(state)
        if games and games[-1].get("resigned") is None:
            last_ms = games[-1]["view"]["now_ms"]
            if len(games) < 3 or last_ms > ends_ms or time.time() * 1000 > ends_ms + 1000:
                blue = ana if games[-1]["view"]["players"]["blue"]["name"] == "ana" else bob
                blue.request("resign", game=games[-1]["game"])
                games[-1]["resigned"] = True
        pushed += drained(cy, "changes")
    time.sleep(3)
    pushed += drained(cy, "changes")
    last = cy.request("tournament", tournament=tid)
    cy.request("unsubscribe", topic=f"tournament:{tid}")
    return {"tournament": tid, "first": first, "pushed": pushed, "last": last}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = LocalServer(Path(tmp) / "data", Path(tmp))
        server.start()
        try:
            tid = create(server, "--kind", "swiss", "--room", "bridge", "--rounds", "2",
                         "--name", "Friday Swiss", "--starts", "+3600")
            with server.player("ana") as ana, server.player("bob") as bob, \
                    server.player("dee") as dee, server.player("cy") as cy:
                upcoming = cy.request("tournaments", status="upcoming")
                for player in (ana, bob, dee):
                    player.request("join_tournament", tournament=tid)
                time.sleep(1)  # the joins' pushes (count, standings) go before cy comes
                first = cy.request("subscribe", topic=f"tournament:{tid}")
                start(server, tid)
                pushed: list[dict[str, Any]] = []
                states: list[dict[str, Any]] = []
                deadline = time.monotonic() + 90
                # Each game dealt: its blue player resigns. Until cy is told it finished.
                while not any(c["kind"] == "finished" for f in pushed for c in f["changes"]):
                    if time.monotonic() > deadline:
                        raise TimeoutError(f"not finished; pushed: {pushed}")
                    for player in (ana, bob, dee):
                        for state in drained(player, "state"):
                            if state["view"].get("you") == "blue" and state["v"] == 0:
                                states.append(state)
                                player.send("resign", game=state["game"])
                    pushed += drained(cy, "changes")
                time.sleep(3)  # a standings push after the finish
                pushed += drained(cy, "changes")
                last = cy.request("tournament", tournament=tid)
                running = cy.request("tournaments", status="running")
                done = cy.request("tournaments", status="finished")
                arena = play_arena(server, ana, bob, cy)
        finally:
            server.stop()
    OUT.write_text(json.dumps({
        "tournament": tid, "upcoming": upcoming, "first": first, "pushed": pushed,
        "states": states, "last": last, "running": running, "finished": done,
        "arena": arena,
    }, indent=1) + "\n")
    print(f"wrote {OUT}: {len(pushed)} changes frames")


if __name__ == "__main__":
    main()
