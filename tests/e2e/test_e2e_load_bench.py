"""The load bench's players are the bot: a tiny run per variant against `numbridge serve`
finishes real games with every ack and every event accounted for, without a `sync`;
a refused bot is counted and plays on, and so does one that misses a push."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from numbridge.botcli.client import BotClient

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository's bench/

from bench.load.player import Player
from bench.load.runs import run_games
from bench.load.server import Server

LIMIT_S = 120.0  # a game of two normal bots lasts about a second; a loaded machine, longer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    local = Server(tmp_path_factory.mktemp("load") / "data")
    local.start()
    try:
        yield local
    finally:
        local.stop()


@pytest.mark.parametrize("room", ["blitz", "bridge", "domains"])
def test_bot_players_play_real_games_to_the_end(server: Server, room: str) -> None:
    stats = run_games(server, "smoke", 1, 0.0, LIMIT_S, room, until_finished=1).stats
    assert stats.finished >= 1 and stats.ack_ms and stats.think_ms
    assert (stats.lost, stats.duplicated, stats.refused) == (0, 0, 0)
    assert stats.requests == stats.actions  # every view came from the pushes


def test_a_refused_bot_is_counted_and_plays_on(
    server: Server, monkeypatch: pytest.MonkeyPatch,
) -> None:
    spoiled: set[str] = set()
    choose = Player.choose

    def first_one_wrong(self: Player, view: dict[str, Any], knowledge: Any) -> Any:
        frame = choose(self, view, knowledge)
        if frame is None or frame["action"] != "place" or self.options.name in spoiled:
            return frame
        spoiled.add(self.options.name)
        missing = next(d for d in range(1, 10) if d not in view["hand"])
        return {**frame, "digit": missing}  # a tile this player does not hold

    monkeypatch.setattr(Player, "choose", first_one_wrong)
    stats = run_games(server, "refused", 1, 0.0, LIMIT_S, until_finished=1).stats
    assert stats.refused == len(spoiled) >= 1
    assert stats.finished >= 1 and stats.lost == 0


def test_a_bot_that_misses_a_push_catches_up_by_v_and_plays_on(
    server: Server, monkeypatch: pytest.MonkeyPatch,
) -> None:
    missed: set[str] = set()
    pushed = BotClient._pushed

    def first_hidden_lost(self: BotClient, frame: dict[str, Any]) -> None:
        if frame.get("type") == "hidden" and self.options.name not in missed:
            missed.add(self.options.name)  # the bench saw it come; the client never does
            return
        pushed(self, frame)

    monkeypatch.setattr(BotClient, "_pushed", first_hidden_lost)
    stats = run_games(server, "missed", 1, 0.0, LIMIT_S, until_finished=1).stats
    assert missed and stats.finished >= 1 and (stats.lost, stats.refused) == (0, 0)
    # A sync by v sent the missing event again (the bench counts it twice).
    assert stats.requests > stats.actions and stats.duplicated >= len(missed)


def test_a_baseline_checkout_runs_beside_this_one(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    from bench.load.compare import compare

    root = Path(__file__).resolve().parents[2]  # this checkout, as its own baseline
    results = compare(tmp_path, root, 1, 0.0, 1.0, "blitz", "normal", 1)
    for side in ("before", "after"):
        (result,) = results[side]
        assert result.stats.actions > 0 and result.cpu_ms_per_action > 0
        assert (result.stats.lost, result.stats.duplicated) == (0, 0)
    table = capsys.readouterr().out
    assert "server CPU ms/action" in table and "after/before" in table
