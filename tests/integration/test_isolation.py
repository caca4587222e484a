"""The sweep and the timer handler treat each game on its own: one game that fails
(here a state item whose JSON is corrupt) is logged, counted and skipped."""

from __future__ import annotations

import pytest
from harness import Conn, World
from numbridge.service.usecases import deadlines
from numbridge.store import keys
from numbridge.store.games import STATE_ATTRIBUTES
from players import current, first_moves, start_game


def three_games(world: World) -> tuple[list[str], list[Conn]]:
    conns = [world.join(name) for name in ("ana", "bob", "carl", "dan", "eve", "fay")]
    games = [start_game(world, "bridge", conns[i], conns[i + 1], colour="blue")
             for i in (0, 2, 4)]
    for i, game in zip((0, 2, 4), games, strict=True):
        # Past the first moves a timeout is a timeout, not an abort.
        first_moves(world, game, {conns[i].player: conns[i], conns[i + 1].player: conns[i + 1]})
    latest = {sent["body"]["game"]: sent for sent in world.sqs.sent}
    world.sqs.sent[:] = [latest[game] for game in games]  # each game's live timer
    return games, conns


def poison(world: World, game: str) -> None:
    item = world.store.get(keys.game(game), keys.STATE)
    assert item is not None
    kept = {k: v for k, v in item.items() if k not in STATE_ATTRIBUTES}
    world.store.put({**kept, "state": '{"schema": 1, "v": '})


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    names: list[str] = []
    monkeypatch.setattr(deadlines, "count", lambda name, value=1: names.append(name),
                        raising=False)
    return names


def test_one_poisoned_game_does_not_stop_the_sweep(world: World, counted: list[str]) -> None:
    games, conns = three_games(world)
    world.sqs.sent.clear()  # timers lost: the sweep must do it
    poison(world, games[1])
    world.clock.advance(46_000)
    assert world.sweep() == {"advanced": 2, "failed": 1}
    assert counted == ["GameAdvanceFailures"]
    for game, red in ((games[0], conns[1]), (games[2], conns[5])):
        assert current(world, game).turn == "red"
        assert any(f["type"] == "timeout" for f in red.new())
    # Every minute the others keep advancing, the poisoned one keeps being skipped.
    world.clock.advance(46_000)
    assert world.sweep() == {"advanced": 2, "failed": 1}
    assert current(world, games[0]).turn == "blue"


def test_one_poisoned_game_does_not_stop_a_timer_batch(
    world: World, counted: list[str],
) -> None:
    games, _ = three_games(world)
    poison(world, games[0])
    world.sqs.sent.append({"body": "not json", "delay": 0})
    world.clock.advance(46_000)
    answer = world.deliver_timers()
    # The poisoned game's message goes back for a retry (the dead-letter queue
    # ends it); the unreadable one is dropped; the others are applied.
    assert answer == {"batchItemFailures": [{"itemIdentifier": "t0"}]}
    assert sorted(counted) == ["GameAdvanceFailures", "TimerMessagesUnreadable"]
    for game in games[1:]:
        assert current(world, game).turn == "red"
