"""`numbridge bot` against `numbridge serve`: it accepts an open proposal and plays
it out over WebSockets, then exits (--stop-after 1)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from client import Seat
from e2e_server import LocalServer, serving
from test_e2e_bot import play_against_the_bot


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalServer]:
    with serving(tmp_path) as local:
        yield local


def test_the_bot_command_accepts_and_plays_a_game_to_the_end(
    server: LocalServer, tmp_path: Path,
) -> None:
    with server.player("ana") as ana:
        proposed = ana.request("propose", room="blitz", colour="red", rated=False)
        assert proposed["type"] == "proposal", proposed
        log = (tmp_path / "bot.log").open("wb")
        bot = subprocess.Popen(
            [sys.executable, "-m", "numbridge", "bot", "--level", "easy", "--room", "blitz",
             "--url", server.ws_url, "--data-dir", str(server.data_dir), "--stop-after", "1",
             "--poll", "0.2"],
            stdout=log, stderr=subprocess.STDOUT,
        )
        try:
            state = ana.expect(lambda f: f["type"] == "state", timeout=60)
            seat = Seat(ana, state)
            blue = state["view"]["players"]["blue"]["name"]
            assert blue == "robot-easy" and seat.you == "red"
            play_against_the_bot(seat)
            assert bot.wait(60) == 0, (tmp_path / "bot.log").read_text()
        finally:
            if bot.poll() is None:
                bot.kill()
            log.close()
        [line] = [g for g in ana.request("games")["games"] if g["game"] == seat.game]
        assert line["status"] == "finished" and line["opponent"] == "robot-easy"


def test_the_bot_command_needs_a_token_for_a_remote_server(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "numbridge", "bot", "--url",
                           "wss://example.invalid/prod"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "--token" in done.stderr
    reserved = subprocess.run([sys.executable, "-m", "numbridge", "bot", "--name", "bot-easy",
                               "--data-dir", str(tmp_path / "data")], capture_output=True,
                              text=True, timeout=60)
    assert reserved.returncode == 2 and "club's own" in reserved.stderr


def test_the_bot_command_seeks_and_is_paired_with_a_seeker(
    server: LocalServer, tmp_path: Path,
) -> None:
    """Catches: --seek ignored (the bot would wait for proposals that never come)."""
    log = (tmp_path / "bot.log").open("wb")
    bot = subprocess.Popen(
        [sys.executable, "-m", "numbridge", "bot", "--level", "easy", "--seek", "blitz",
         "--url", server.ws_url, "--data-dir", str(server.data_dir), "--stop-after", "1",
         "--poll", "0.2", "--name", "robot-seeker"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        with server.player("ana") as ana:
            paired = False
            for _ in range(100):  # until the bot's seek and ana's meet
                answer = ana.request("seek", room="blitz")
                if answer["type"] == "ack":
                    paired = True
                    break
                time.sleep(0.2)
                cancelled = ana.request("cancel_seek", seek=answer["seek"]["id"])
                if cancelled["type"] == "error":  # the bot's seek met ana's meanwhile
                    paired = True
                    break
            assert paired, (tmp_path / "bot.log").read_text()
            state = ana.expect(lambda f: f["type"] == "state", timeout=30)
            players = {p["name"] for p in state["view"]["players"].values()}
            assert players == {"ana", "robot-seeker"}
            assert ana.request("resign", game=state["game"])["type"] == "ack"
            assert bot.wait(60) == 0, (tmp_path / "bot.log").read_text()
    finally:
        if bot.poll() is None:
            bot.kill()
        log.close()
