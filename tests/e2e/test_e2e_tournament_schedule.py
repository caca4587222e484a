"""The club's schedule in `numbridge serve`: the entries of the file $TOURNAMENTS_CONFIG
names become upcoming tournaments, listed to the players, each event once however often
the server sweeps or restarts."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from e2e_server import LocalServer
from numbridge.tournaments.schedule import scheduled_tournament_id


def test_the_schedule_makes_its_next_events_once(tmp_path: Path) -> None:
    """Catches a schedule the local runtime never reads (it would hold no event), or
    one made again at each sweep or restart (the same evening's arena listed twice)."""
    at = (datetime.now(UTC) + timedelta(hours=2)).replace(second=0, microsecond=0)
    schedule = tmp_path / "tournaments.yaml"
    schedule.write_text(
        "schedule:\n"
        f"  - {{id: evening-arena, name: Evening arena, kind: arena, room: blitz, "
        f"at: \"{at:%H:%M}\", minutes: 30, rated: false}}\n", encoding="utf-8")
    server = LocalServer(tmp_path / "data", tmp_path, env={"TOURNAMENTS_CONFIG": str(schedule)})
    expected = scheduled_tournament_id("evening-arena", int(at.timestamp() * 1000))
    server.start()
    try:
        listed = upcoming(server, expected)
        assert listed == [expected], listed
        server.restart()  # another process, its own sweeps: the same event
        time.sleep(2.0)
        assert upcoming(server, expected) == [expected]
    finally:
        server.kill()


def upcoming(server: LocalServer, expected: str) -> list[str]:
    """The ids of the upcoming tournaments named like the entry, once the sweep made it."""
    deadline = time.monotonic() + 60
    with server.player("ana") as ana:
        while True:
            page = ana.request("tournaments", status="upcoming")
            ids = [t["id"] for t in page["tournaments"] if t["name"] == "Evening arena"]
            if expected in ids or time.monotonic() > deadline:
                return ids
            time.sleep(0.5)
