"""The data directory is the server's own: private modes, and one server at a time."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from e2e_server import LocalServer, ServerFailed


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_a_second_server_on_the_same_directory_stops_at_once_and_takes_nothing(
        tmp_path: Path) -> None:
    first = LocalServer(tmp_path / "data", tmp_path / "first")
    second = LocalServer(tmp_path / "data", tmp_path / "second")
    (tmp_path / "first").mkdir()
    (tmp_path / "second").mkdir()
    first.start()
    try:
        with first.player("ana") as ana:
            assert ana.request("rooms")["type"] == "rooms"
            connections = [key for key in first.stored_keys() if key[0].startswith("CONN#")]
            assert connections

            with pytest.raises(ServerFailed, match=f"in use by pid {first.pid}"):
                second.start()

            # The first server's connection rows are still there, and it still serves.
            assert set(connections) <= set(first.stored_keys())
            assert ana.request("rooms")["type"] == "rooms"
    finally:
        second.kill()
        first.kill()


def test_the_server_keeps_its_files_private(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    os.chmod(data, 0o755)  # an existing directory, as earlier versions left it
    server = LocalServer(data, tmp_path)
    server.start()
    try:
        with server.player("ana") as ana:
            assert ana.request("rooms")["type"] == "rooms"
        assert mode(data) == 0o700
        for name in ("numbridge.db", "numbridge.db-wal", "numbridge.db-shm", "secret", "lock"):
            assert mode(data / name) == 0o600, name
    finally:
        server.kill()


def test_a_planted_secret_stops_the_server_and_says_what_to_fix(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / "secret").write_text("the-attacker-knows-this-one-0123456789\n")
    os.chmod(data / "secret", 0o644)
    with pytest.raises(ServerFailed, match=r"token secret.*open to group or others"):
        LocalServer(data, tmp_path).start()


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_lock_file_planted_by_another_user_stops_the_server_saying_so(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / "lock").write_text("1\n")
    os.chown(data / "lock", 4242, 4242)
    with pytest.raises(ServerFailed, match=r"lock file\) belongs to uid 4242") as failed:
        LocalServer(data, tmp_path).start()
    assert "in use" not in str(failed.value) and "Traceback" not in str(failed.value)
