"""The data directory's token secret, and ``numbridge token``."""

from __future__ import annotations

import argparse
import stat
from pathlib import Path

import pytest
from numbridge.auth import verify_token
from numbridge.local import serve_command as cli
from numbridge.local.datadir import data_dir, token_secret


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
