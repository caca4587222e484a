"""A game against a bot seat through `numbridge serve`: propose with `bot`, play
over WebSockets while the local bot queue drives the `bot` function, archived."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from client import Seat
from e2e_server import QUICK_BOT, LocalServer


@pytest.fixture
def bot_server(tmp_path: Path) -> Iterator[LocalServer]:
    server = LocalServer(tmp_path / "data", tmp_path, env=QUICK_BOT)
    server.start()
    try:
        yield server
    finally:
        server.kill()


def play_against_the_bot(seat: Seat, max_turns: int = 300) -> None:
    for _ in range(max_turns):
        if seat.status == "finished":
            return
        if seat.turn == seat.you:
            action, fields = seat.choose()
            answer = seat.player.request(action, game=seat.game, **fields)
            assert answer["type"] == "ack", answer
        seat.catch_up(timeout=30)  # our move's frames, or the bot's whole turn
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("colour", ["blue", "red"])
def test_a_whole_game_against_the_bot(bot_server: LocalServer, colour: str) -> None:
    with bot_server.player("ana") as ana:
        rid = ana.send("propose", room="blitz", bot="normal", colour=colour)
        assert ana.answer(rid, timeout=60) == {"type": "ack", "id": rid}
        state = ana.expect(lambda f: f["type"] == "state", timeout=60)
        seat = Seat(ana, state)
        assert seat.you == colour
        assert state["view"]["players"]["red" if colour == "blue" else "blue"]["name"] \
            == "bot-normal"
        play_against_the_bot(seat)
        assert seat.result["by"] in {"goal", "agreement", "resign", "time"}
        record = ana.request("record", game=seat.game)["record"]
        assert record["result"] == seat.result
        [line] = [g for g in ana.request("games")["games"] if g["game"] == seat.game]
        assert line["status"] == "finished" and line["rated"] is False
        assert "rating" not in line
