"""``numbridge tournament create|list|cancel`` on a data directory: the id on the last
line, the store as ``numbridge club`` takes it, refusals with exit 2 and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from numbridge.cli import main
from numbridge.clubfile.tournament_command import starts_at
from numbridge.store.sqlite import SqliteStore
from numbridge.store.tournaments import Tournaments


def test_create_list_and_cancel(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Catches an id not on the last line (the schedule and the benches read it there),
    a tournament listed without its settings, a cancel that leaves it running."""
    data = ["--data-dir", str(tmp_path / "data")]
    assert main(["tournament", "create", "--kind", "swiss", "--room", "blitz", "--rounds",
                 "3", "--starts", "2030-01-02T20:00:00", "--name", "New Year", *data]) == 0
    tid = capsys.readouterr().out.strip().splitlines()[-1]
    assert tid.startswith("t-")
    assert main(["tournament", "list", *data]) == 0
    listed = capsys.readouterr().out
    assert tid in listed and "upcoming" in listed and "round 0/3" in listed
    assert "2030-01-02 20:00:00 UTC" in listed and "New Year" in listed
    assert main(["tournament", "cancel", tid, *data]) == 0
    assert "cancelled" in capsys.readouterr().out
    store = SqliteStore(tmp_path / "data" / "numbridge.db")
    try:
        t = Tournaments(store).get(tid)
        assert t is not None and t.status == "finished" and t.cancelled == "by_host"
    finally:
        store.close()


def test_start_moves_an_upcoming_tournament_s_start_and_only_an_upcoming_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Catches a start that does not move (the host waiting for the players in could not
    start it then), an arena whose end does not move with its start (it would be shorter),
    and a running or finished tournament's start rewritten."""
    data = ["--data-dir", str(tmp_path / "data")]
    assert main(["tournament", "create", "--kind", "arena", "--room", "blitz", "--minutes",
                 "10", "--starts", "2030-01-02T20:00:00", *data]) == 0
    tid = capsys.readouterr().out.strip().splitlines()[-1]
    assert main(["tournament", "start", tid, "--starts", "2030-01-02T19:00:00", *data]) == 0
    assert "2030-01-02 19:00:00 UTC" in capsys.readouterr().out
    store = SqliteStore(tmp_path / "data" / "numbridge.db")
    try:
        t = Tournaments(store).get(tid)
        assert t is not None and t.status == "upcoming"
        assert t.ends_ms is not None and t.ends_ms - t.starts_ms == 10 * 60_000
        assert [x.id for x in Tournaments(store).all_in_status(
            "upcoming", until_ms=t.starts_ms)] == [tid]  # the sweep's query finds it then
    finally:
        store.close()
    assert main(["tournament", "cancel", tid, *data]) == 0
    assert main(["tournament", "start", tid, *data]) == 2
    assert "finished" in capsys.readouterr().err
    assert main(["tournament", "start", "t-nope", *data]) == 2


@pytest.mark.parametrize(("args", "reason"), [
    (["--kind", "arena", "--room", "nowhere"], "no room 'nowhere'"),
    (["--kind", "swiss", "--room", "blitz", "--minutes", "5"], "--minutes"),
    (["--kind", "arena", "--room", "blitz", "--rounds", "5"], "--rounds"),
    (["--kind", "arena", "--room", "blitz", "--starts", "tomorrow"], "--starts"),
])
def test_what_cannot_be_played_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          args: list[str], reason: str) -> None:
    """Catches a tournament made in a room that does not exist, or with settings its kind
    does not have (they would be ignored in silence)."""
    assert main(["tournament", "create", *args, "--data-dir", str(tmp_path)]) == 2
    assert reason in capsys.readouterr().err


def test_starts_in_seconds_or_at_an_instant() -> None:
    """Catches +SECONDS read as an instant, or an ISO time without a zone read as local."""
    assert starts_at("+90", 1_000) == 91_000
    assert starts_at("1970-01-01T00:00:05", 0) == 5_000
    assert starts_at("1970-01-01T02:00:05+02:00", 0) == 5_000
