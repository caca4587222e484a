"""The AWS runtime's own sweep drives a tournament: the games' once-a-minute sweep (the
timeout function, on EventBridge's schedule) hands each overdue tournament's step to the
tournament queue. The other tournament tests also call the tournament function's
schedule event, which only ``numbridge serve`` sends; here nothing but the timeout
function's sweep, the queue and the games' own steps run it, on both stores."""

from __future__ import annotations

import random

import pytest
from harness import World
from numbridge.service.usecases.tournaments import create_tournament
from numbridge.store.tournaments import Tournaments
from test_tournaments import Steps, _live_games, _resign_all


@pytest.fixture(autouse=True)
def _quick_deals(world: World) -> None:
    world.svc.deal_budget_s = 20.0


def test_a_swiss_whose_steps_are_lost_is_run_by_the_games_sweep(world: World) -> None:
    """Catches a tournament left stalled in AWS when a step is lost (dead-lettered, a
    send that failed): the start and every next round must come from the timeout
    function's sweep alone, which would not happen if the sweep sent only upcoming
    tournaments, or sent nothing for a running one whose round is played out."""
    steps = Steps(world)
    tid = create_tournament(world.store, world.clock, kind="swiss", room="blitz",
                            starts_ms=world.clock(), rounds=2, rated=False)
    conns = {name: world.join(name) for name in ("ann", "bob", "cy", "dee")}
    for conn in conns.values():
        assert conn.ask("join_tournament", tournament=tid)["type"] == "ack"
    steps.spy.sent.clear()  # the joins' steps lost
    assert world.sweep().get("tournaments") == 1
    steps.drain()  # the sweep's step: started, round 1 paired
    rng = random.Random(4)
    for round_no in (1, 2):
        t = Tournaments(world.store).get(tid)
        assert t is not None and t.status == "running" and t.round == round_no
        games = _live_games(world, tid)
        assert len(games) == 2
        _resign_all(world, conns, games, rng)
        steps.spy.sent.clear()  # the games' steps lost: nothing counts them but the sweep
        assert Tournaments(world.store).get(tid).round == round_no  # type: ignore[union-attr]
        assert world.sweep().get("tournaments") == 1
        steps.drain()
    t = Tournaments(world.store).get(tid)
    assert t is not None and t.status == "finished"
    players = Tournaments(world.store).all_players(tid)
    assert sorted(p.games for p in players) == [2, 2, 2, 2]
