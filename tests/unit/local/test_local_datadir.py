"""The data directory: the server's own (modes, owners, no links, a lock), its token
secret, and ``numbridge token``."""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from numbridge.auth import verify_token
from numbridge.local import serve_command as cli
from numbridge.local.data.datadir import (
    DataDirError,
    DataDirLock,
    data_dir,
    database_file,
    token_secret,
)
from numbridge.store.sqlite import SqliteStore


def run_cli(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="numbridge")
    cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


def test_secret_is_created_once_with_mode_0600(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TOKEN_SECRET", raising=False)
    directory = data_dir(tmp_path / "data")
    secret = token_secret(directory)
    assert len(secret) >= 40
    assert stat.S_IMODE((directory / "secret").stat().st_mode) == 0o600
    assert token_secret(directory) == secret


def test_token_secret_from_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOKEN_SECRET", "from-env")
    assert token_secret(data_dir(tmp_path)) == "from-env"
    assert not (tmp_path / "secret").exists()


def test_token_command_signs_with_the_data_dir_secret(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TOKEN_SECRET", raising=False)
    assert run_cli("token", "ana", "--data-dir", str(tmp_path)) == 0
    token = capsys.readouterr().out.strip()
    assert verify_token(token, token_secret(tmp_path)) == "ana"


def test_token_command_refuses_a_bad_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("TOKEN_SECRET", raising=False)
    assert run_cli("token", "not a name", "--data-dir", str(tmp_path)) == 2
    assert "player name" in capsys.readouterr().err


def test_serve_options_parse() -> None:
    parser = argparse.ArgumentParser(prog="numbridge")
    cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["serve", "--port", "0", "--dynamodb-endpoint", "http://x:8000"])
    assert (args.host, args.port, args.dynamodb_endpoint, args.data_dir) == (
        "127.0.0.1",
        0,
        "http://x:8000",
        None,
    )


# ---------------------------------------------------------------- the server's own


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def run_as_someone_else(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server runs as another user than the one who owns the test's files."""
    uid = os.geteuid() + 4242
    monkeypatch.setattr(os, "geteuid", lambda: uid)


def test_a_new_data_directory_is_0700(tmp_path: Path) -> None:
    with umask(0o022):
        assert mode(data_dir(tmp_path / "a" / "data")) == 0o700


def test_an_open_data_directory_is_tightened_to_0700(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir(mode=0o777)
    os.chmod(tmp_path / "data", 0o777)
    assert mode(data_dir(tmp_path / "data")) == 0o700


def test_a_data_directory_of_another_user_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "data").mkdir(mode=0o755)
    os.chmod(tmp_path / "data", 0o755)
    run_as_someone_else(monkeypatch)
    with pytest.raises(DataDirError, match=r"belongs to .*not to the user running the server"):
        data_dir(tmp_path / "data")
    assert mode(tmp_path / "data") == 0o755  # not touched


def test_an_open_directory_that_cannot_be_tightened_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "data").mkdir()
    os.chmod(tmp_path / "data", 0o775)

    def read_only_filesystem(*args: object, **kwargs: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(os, "chmod", read_only_filesystem)
    with pytest.raises(DataDirError, match=r"cannot be tightened to 0700.*chmod 700"):
        data_dir(tmp_path / "data")


def test_a_file_is_not_a_data_directory(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("")
    with pytest.raises((DataDirError, FileExistsError)):
        data_dir(tmp_path / "data")


@pytest.fixture
def directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("TOKEN_SECRET", raising=False)
    return data_dir(tmp_path / "data")


def test_a_planted_secret_behind_a_symlink_is_refused(directory: Path, tmp_path: Path) -> None:
    planted = tmp_path / "planted"
    planted.write_text("known-to-the-attacker-0123456789abcdef\n")
    os.chmod(planted, 0o600)
    (directory / "secret").symlink_to(planted)
    with pytest.raises(DataDirError, match="symbolic link"):
        token_secret(directory)


def test_a_secret_others_can_read_is_refused(directory: Path) -> None:
    (directory / "secret").write_text("read-by-everyone-0123456789abcdef\n")
    os.chmod(directory / "secret", 0o644)
    with pytest.raises(DataDirError, match=r"open to group or others.*0644"):
        token_secret(directory)


def test_a_secret_of_another_user_is_refused(
        directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = token_secret(directory)  # made by the server's user: fine
    assert token_secret(directory) == secret
    run_as_someone_else(monkeypatch)
    with pytest.raises(DataDirError, match=r"token secret.*belongs to"):
        token_secret(directory)


@pytest.mark.parametrize("kind", ["fifo", "directory"])
def test_a_secret_that_is_not_a_regular_file_is_refused(directory: Path, kind: str) -> None:
    if kind == "fifo":
        os.mkfifo(directory / "secret", 0o600)
    else:
        (directory / "secret").mkdir(mode=0o700)
    with pytest.raises(DataDirError, match="not a regular file"):
        token_secret(directory)


def test_the_database_and_its_wal_and_shm_are_0600(directory: Path) -> None:
    with umask(0o022):
        store = SqliteStore(database_file(directory))
        try:
            store.put({"pk": "P", "sk": "S", "n": 1})
            for name in ("numbridge.db", "numbridge.db-wal", "numbridge.db-shm"):
                assert mode(directory / name) == 0o600, name
        finally:
            store.close()


def test_an_open_database_of_an_earlier_version_is_tightened(directory: Path) -> None:
    for name in ("numbridge.db", "numbridge.db-wal"):
        (directory / name).write_bytes(b"")
        os.chmod(directory / name, 0o644)
    database_file(directory)
    assert mode(directory / "numbridge.db") == mode(directory / "numbridge.db-wal") == 0o600


def test_a_database_behind_a_symlink_is_refused(directory: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere.db").write_bytes(b"")
    (directory / "numbridge.db").symlink_to(tmp_path / "elsewhere.db")
    with pytest.raises(DataDirError, match="not a regular file"):
        database_file(directory)


def test_a_second_server_on_a_directory_is_refused_with_the_first_ones_pid(
        directory: Path) -> None:
    with DataDirLock(directory), pytest.raises(DataDirError,
                                               match=f"in use by pid {os.getpid()}"):
        DataDirLock(directory)
    with DataDirLock(directory):  # free again once released
        assert mode(directory / "lock") == 0o600


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def test_a_public_url_is_passed_on_and_a_bad_one_stops_the_server(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="numbridge")
    cli.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["serve", "--public-url", "https://club.example.org"])
    assert args.public_url == "https://club.example.org"
    assert run_cli("serve", "--port", "0", "--data-dir", str(tmp_path),
                   "--public-url", "club.example.org/play") == 1
    assert "--public-url must be http://HOST[:PORT]" in capsys.readouterr().err
    assert not (tmp_path / "lock").exists()  # refused before anything was touched


def test_a_lock_file_of_another_user_is_refused_saying_so(
        directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    planted = directory / "lock"
    planted.write_text("4242\n")
    # held by whoever planted it: still not taken for a server at work ("in use")
    with planted.open("r+") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        run_as_someone_else(monkeypatch)
        with pytest.raises(DataDirError, match=r"lock file\) belongs to .*rm ") as refused:
            DataDirLock(directory)
    assert "in use" not in str(refused.value)


def test_a_lock_file_that_cannot_be_opened_is_refused_saying_what_to_do(
        directory: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (directory / "lock").write_text("")
    real_open = os.open

    def denied(path: Any, *args: Any, **kwargs: Any) -> int:
        if Path(path).name == "lock":
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", denied)
    with pytest.raises(DataDirError, match=r"cannot be opened \(Permission denied\).*rm "):
        DataDirLock(directory)
    run_as_someone_else(monkeypatch)  # and when it is another user's, that is what it says
    with pytest.raises(DataDirError, match=r"lock file\) belongs to"):
        DataDirLock(directory)


def test_a_lock_file_that_is_a_link_or_a_fifo_is_refused(directory: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_text("")
    (directory / "lock").symlink_to(elsewhere)
    with pytest.raises(DataDirError, match="symbolic link"):
        DataDirLock(directory)
    (directory / "lock").unlink()
    os.mkfifo(directory / "lock")
    with pytest.raises(DataDirError, match="not a regular file"):
        DataDirLock(directory)


def test_a_lock_file_of_ours_left_open_is_tightened(directory: Path) -> None:
    (directory / "lock").write_text("")
    os.chmod(directory / "lock", 0o666)
    with DataDirLock(directory):
        assert mode(directory / "lock") == 0o600
