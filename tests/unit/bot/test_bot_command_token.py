"""``numbridge bot``: where its token comes from (a file, the variable, the command line)
and what it says when that fails; the bot itself is replaced by a stand-in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from numbridge.botcli import client as bot_client
from numbridge.botcli.bot_command import TOKEN_VARIABLE
from numbridge.cli import main

REMOTE = "wss://club.example/"


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The options each stand-in bot was started with."""
    runs: list[Any] = []

    class StandIn:
        def __init__(self, options: Any) -> None:
            runs.append(options)

        async def run(self) -> int:
            return 0

    monkeypatch.setattr(bot_client, "BotClient", StandIn)
    monkeypatch.delenv(TOKEN_VARIABLE, raising=False)
    return runs


def test_the_token_is_read_from_a_file(tmp_path: Path, started: list[Any],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "token"
    path.write_text("  tok.en.file\n", encoding="utf-8")
    assert main(["bot", "--url", REMOTE, "--token-file", str(path)]) == 0
    assert [o.token for o in started] == ["tok.en.file"]
    assert "tok.en.file" not in capsys.readouterr().err


def test_the_token_is_read_from_the_variable(started: list[Any],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TOKEN_VARIABLE, " tok.en.var\n")
    assert main(["bot", "--url", REMOTE]) == 0
    assert [o.token for o in started] == ["tok.en.var"]


def test_a_file_comes_before_the_variable(tmp_path: Path, started: list[Any],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TOKEN_VARIABLE, "tok.en.var")
    path = tmp_path / "token"
    path.write_text("tok.en.file", encoding="utf-8")
    assert main(["bot", "--url", REMOTE, "--token-file", str(path)]) == 0
    assert [o.token for o in started] == ["tok.en.file"]


def test_an_empty_file_is_refused(tmp_path: Path, started: list[Any],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "token"
    path.write_text(" \n", encoding="utf-8")
    assert main(["bot", "--url", REMOTE, "--token-file", str(path)]) == 2
    assert f"--token-file {path} is empty" in capsys.readouterr().err
    assert started == []


def test_a_missing_or_undecodable_file_is_refused(tmp_path: Path, started: list[Any],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "--url", REMOTE, "--token-file", str(tmp_path / "none")]) == 2
    assert "No such file" in capsys.readouterr().err
    assert main(["bot", "--url", REMOTE, "--token-file", str(tmp_path)]) == 2  # root too
    assert "Is a directory" in capsys.readouterr().err
    binary = tmp_path / "binary"
    binary.write_bytes(b"\xff\xfe\x00")
    assert main(["bot", "--url", REMOTE, "--token-file", str(binary)]) == 2
    assert f"cannot read --token-file {binary}" in capsys.readouterr().err
    assert started == []


def test_token_on_the_command_line_still_works_and_warns_of_ps(
        started: list[Any], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "--url", REMOTE, "--token", "tok.en.argv"]) == 0
    assert [o.token for o in started] == ["tok.en.argv"]
    err = capsys.readouterr().err
    assert "ps" in err and "--token-file" in err
    assert "tok.en.argv" not in err


def test_token_and_token_file_together_are_refused(tmp_path: Path, started: list[Any],
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["bot", "--url", REMOTE, "--token", "a", "--token-file", str(tmp_path / "t")])
    assert exited.value.code == 2 and "not allowed with" in capsys.readouterr().err
    assert started == []


def test_a_remote_server_without_a_token_is_refused(started: list[Any],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bot", "--url", REMOTE]) == 2
    err = capsys.readouterr().err
    assert "--token-file PATH" in err and TOKEN_VARIABLE in err
    assert started == []
