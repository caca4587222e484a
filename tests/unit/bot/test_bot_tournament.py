"""``numbridge bot --tournament``: the bot joins once, refuses a rated or refused
tournament clearly, plays the games it is paired into and stops when the tournament has
finished and its own games have ended. The connection is a fake that answers requests
as a server would (no server here: the end-to-end test has one)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from bot_helpers import deal
from numbridge import rules
from numbridge.botcli.client import BotClient, BotOptions, TournamentRefused
from numbridge.cli import main

TID = "t-0001"
Frame = dict[str, Any]


class FakeServer:
    """Answers each request from ``answers`` (action → answer, or a function of the
    request), as frames pushed back into the client; records what was sent."""

    def __init__(self, client: BotClient,
                 answers: dict[str, Frame | Callable[[Frame], Frame]]) -> None:
        self.client = client
        self.answers = answers
        self.sent: list[Frame] = []

    async def send(self, raw: str) -> None:
        request = json.loads(raw)
        self.sent.append(request)
        answer = self.answers[request["action"]]
        frame = answer(request) if callable(answer) else dict(answer)
        asyncio.get_running_loop().call_soon(self.client._take, {**frame, "id": request["id"]})

    def actions(self) -> list[str]:
        return [r["action"] for r in self.sent]


def tournament(status: str = "upcoming", rated: bool = False) -> Frame:
    return {"type": "tournament", "standings": [], "pairings": [], "next": None,
            "tournament": {"id": TID, "name": "Friday arena", "kind": "arena",
                           "room": "blitz", "rated": rated, "status": status,
                           "starts_ms": 0, "players": 3}}


def bot(**answers: Frame | Callable[[Frame], Frame]) -> tuple[BotClient, FakeServer]:
    client = BotClient(BotOptions(url="ws://x/", token="t", name="robot-1", level="easy",
                                  tournament=TID))
    server = FakeServer(client, {"subscribe": tournament(), "join_tournament": {"type": "ack"},
                                 **answers})
    client._ws = server
    return client, server


def finished_change(topic: str = f"tournament:{TID}") -> Frame:
    return {"type": "changes", "topic": topic, "changes": [{"kind": "finished"}]}


def test_it_subscribes_then_joins_once_even_after_a_reconnect() -> None:
    """Catches a bot that joins again on every reconnect (a started Swiss refuses a
    join: the bot would give up mid-tournament) or joins before reading the event."""
    async def go() -> list[str]:
        client, server = bot()
        await client._enter_tournament(TID)
        assert client.joined
        await client._enter_tournament(TID)  # the next connection
        return server.actions()

    assert asyncio.run(go()) == ["subscribe", "join_tournament", "subscribe"]


@pytest.mark.parametrize(("answers", "said", "asked"), [
    ({"subscribe": tournament(rated=True)}, "is rated: bots take part only in unrated",
     ["subscribe"]),
    ({"subscribe": tournament(status="finished")}, "has finished", ["subscribe"]),
    ({"join_tournament": {"type": "error", "code": "illegal",
                          "message": "the swiss has started"}},
     "refused us: illegal: the swiss has started", ["subscribe", "join_tournament"]),
    ({"subscribe": {"type": "error", "code": "not_found", "message": "no such tournament"}},
     "not_found: no such tournament", ["subscribe"]),
])
def test_a_tournament_it_may_not_play_is_refused_with_the_reason(
        answers: dict[str, Frame], said: str, asked: list[str]) -> None:
    """Catches a bot that joins a rated tournament, or swallows the server's refusal and
    waits forever for games that never come."""
    async def go() -> list[str]:
        client, server = bot(**answers)
        with pytest.raises(TournamentRefused, match=said):
            await client._enter_tournament(TID)
        assert not client.joined
        return server.actions()

    assert asyncio.run(go()) == asked


def test_the_end_waits_for_its_games_and_other_topics_are_ignored(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches a bot that stops at the tournament's end with a game still running (an
    arena's last games finish and count), or stops on another tournament's end."""
    async def go() -> None:
        client, _ = bot()
        await client._enter_tournament(TID)
        state = deal("bridge", range(0, 81, 3))
        client._take({"type": "state", "game": state.game_id, "v": state.v,
                      "view": rules.player_view(state, "red", 0)})
        assert state.game_id in client.games
        client._take(finished_change("tournament:t-other"))
        assert not client.tournament_over
        client._take(finished_change())
        assert client.tournament_over and not client._done.is_set()
        client._finish(state.game_id)
        assert client._done.is_set()

    async def no_thinking(self: BotClient, game_id: str) -> None:
        return None  # the game's moves are not this test's

    monkeypatch.setattr(BotClient, "_think_until_quiet", no_thinking)
    asyncio.run(go())


def test_a_finished_tournament_heard_by_polling_ends_an_idle_bot() -> None:
    """Catches a bot that relies on the pushed ``finished`` alone: one pushed while it was
    reconnecting would keep it waiting forever."""
    async def go() -> None:
        client, server = bot(tournament=tournament(status="finished"))
        client.options = BotOptions(**{**_fields(client.options), "tournament_poll_s": 0.0})
        await client._enter_tournament(TID)
        await asyncio.wait_for(client._follow_tournament(), 5)
        assert client._done.is_set() and server.actions()[-1] == "tournament"

    asyncio.run(go())


def test_seek_and_tournament_together_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """Catches a command line that asks for two ways of finding games at once."""
    assert main(["bot", "--url", "wss://club.example/", "--token", "x", "--seek", "blitz",
                 "--tournament", TID]) == 2
    assert "--seek or --tournament, not both" in capsys.readouterr().err


def _fields(options: BotOptions) -> dict[str, Any]:
    return {name: getattr(options, name) for name in BotOptions.__dataclass_fields__}



def test_a_join_that_loses_a_race_is_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches a bot that gives up when its join lost the race with others joining at the
    same moment (`conflict`): a third of a crowd of bots stayed out of the tournament."""
    answers = iter([{"type": "error", "code": "conflict", "message": "retry"},
                    {"type": "error", "code": "conflict", "message": "retry"},
                    {"type": "ack"}])

    async def no_wait(seconds: float) -> None:
        return None

    async def go() -> list[str]:
        client, server = bot(join_tournament=lambda request: next(answers))
        monkeypatch.setattr(asyncio, "sleep", no_wait)
        await client._enter_tournament(TID)
        assert client.joined
        return server.actions()

    assert asyncio.run(go()) == ["subscribe"] + ["join_tournament"] * 3


@pytest.mark.parametrize("code", ["unauthorized", "internal"])
def test_a_connection_that_lost_its_sign_in_reconnects_instead_of_giving_up(
        code: str) -> None:
    """Catches a bot that quits the tournament when the server answers a request about
    it `unauthorized` (the connection not signed in, or closing) or fails: it connects
    again, and only a token refused at `$connect` ends it."""
    async def go() -> None:
        client, _ = bot(subscribe={"type": "error", "code": code, "message": "reconnect"})
        with pytest.raises(ConnectionError):
            await client._enter_tournament(TID)
        assert not client._done.is_set() and client.status == 0

    asyncio.run(go())
