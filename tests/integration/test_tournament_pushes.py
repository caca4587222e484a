"""What a tournament's subscribers are told, through the Lambda handlers on both stores:
every pairing and bye, a join or a leave (the count and the standings), who the asking
player is in it, who withdrew, and a Swiss or round robin too small to be played."""

from __future__ import annotations

import random
from typing import Any

import pytest
from harness import Conn, World
from numbridge.service.usecases.tournament_steps import STANDINGS_EVERY_MS
from numbridge.service.usecases.tournaments import create_tournament
from numbridge.store.tournaments import Tournaments
from test_tournaments import Steps, _resign_all


@pytest.fixture(autouse=True)
def _quick_deals(world: World) -> None:
    world.svc.deal_budget_s = 20.0


def _changes(conn: Conn) -> list[dict[str, Any]]:
    """The changes pushed to ``conn`` since last asked, in order."""
    return [c for f in conn.new() if f.get("type") == "changes" for c in f["changes"]]


def test_a_swiss_pushes_each_round_s_pairings_and_its_bye(world: World) -> None:
    """Catches a Swiss (or round robin) whose games are dealt but never pushed as
    ``paired`` to the subscribers (a client then shows a round with no games until it
    asks again), a pairing pushed without its round, and a bye never announced."""
    steps = Steps(world)
    tid = create_tournament(world.store, world.clock, kind="swiss", room="blitz",
                            starts_ms=world.clock() + 60_000, rounds=2, rated=False)
    conns = {name: world.join(name) for name in ("ann", "bob", "cy")}
    for conn in conns.values():
        assert conn.ask("join_tournament", tournament=tid)["type"] == "ack"
    watcher = world.join("eve")
    watcher.ask("subscribe", topic=f"tournament:{tid}")
    steps.drain()
    watcher.new()
    world.clock.advance(60_000)
    steps.sweep()  # started, round 1 paired
    rng = random.Random(4)
    for round_no in (1, 2):
        pushed = _changes(watcher)
        paired = [c for c in pushed if c["kind"] == "paired"]
        byes = [c for c in pushed if c["kind"] == "bye"]
        pairings = Tournaments(world.store).pairings(tid, round_no)
        [game] = [p for p in pairings if p.game]
        [bye] = [p for p in pairings if p.bye]
        assert paired == [{"kind": "paired", "game": game.game, "blue": game.blue,
                           "red": game.red, "round": round_no}]
        assert byes == [{"kind": "bye", "round": round_no, "player": bye.bye}]
        _resign_all(world, conns, [str(game.game)], rng)
        steps.drain()
    assert Tournaments(world.store).get(tid).status == "finished"  # type: ignore[union-attr]


def test_a_join_and_a_leave_push_the_count_and_the_standings_coalesced(
        world: World) -> None:
    """Catches a join or a leave that pushes nothing (the subscribers' count of players
    and standings go stale until they ask again), and one pushed at each join rather
    than at most every few seconds."""
    steps = Steps(world)
    tid = create_tournament(world.store, world.clock, kind="swiss",  room="blitz",
                            starts_ms=world.clock() + 3_600_000, rounds=3, rated=False)
    watcher = world.join("eve")
    watcher.ask("subscribe", topic=f"tournament:{tid}")
    ann, bob = world.join("ann"), world.join("bob")
    assert ann.ask("join_tournament", tournament=tid)["type"] == "ack"
    steps.drain()
    pushed = _changes(watcher)
    assert {"kind": "players", "players": 1} in pushed
    [standings] = [c["standings"] for c in pushed if c["kind"] == "standings"]
    assert [row["player"] for row in standings] == ["ann"]
    assert bob.ask("join_tournament", tournament=tid)["type"] == "ack"
    steps.drain()
    assert _changes(watcher) == []  # within the few seconds: put off, not lost
    world.clock.advance(STANDINGS_EVERY_MS)
    steps.drain()  # the put-off push's timer
    pushed = _changes(watcher)
    assert {"kind": "players", "players": 2} in pushed
    [standings] = [c["standings"] for c in pushed if c["kind"] == "standings"]
    assert sorted(row["player"] for row in standings) == ["ann", "bob"]
    world.clock.advance(STANDINGS_EVERY_MS)
    assert bob.ask("leave_tournament", tournament=tid)["type"] == "ack"
    steps.drain()
    pushed = _changes(watcher)
    assert {"kind": "players", "players": 1} in pushed
    [standings] = [c["standings"] for c in pushed if c["kind"] == "standings"]
    assert {row["player"]: row.get("withdrawn") for row in standings} == {
        "ann": None, "bob": True}


def test_the_page_says_whether_the_asking_player_is_in_and_marks_who_withdrew(
        world: World) -> None:
    """Catches a page that cannot tell a player whether they are in (a player who left
    stays in the standings, so the client guessed from the table), and a player who left
    shown in the standings as if still playing."""
    Steps(world)
    tid = create_tournament(world.store, world.clock, kind="arena", room="blitz",
                            starts_ms=world.clock() + 60_000, minutes=5, rated=False)
    ann, bob, eve = world.join("ann"), world.join("bob"), world.join("eve")
    for conn in (ann, bob):
        assert conn.ask("join_tournament", tournament=tid)["type"] == "ack"
    assert ann.ask("tournament", tournament=tid)["you"] == {"joined": True, "left": False}
    assert eve.ask("tournament", tournament=tid)["you"] == {"joined": False, "left": False}
    assert bob.ask("leave_tournament", tournament=tid)["type"] == "ack"
    page = bob.ask("subscribe", topic=f"tournament:{tid}")
    assert page["you"] == {"joined": True, "left": True}
    rows = {row["player"]: row for row in page["standings"]}
    assert rows["bob"]["withdrawn"] is True and "withdrawn" not in rows["ann"]
    assert page["tournament"]["players"] == 1
    assert bob.ask("join_tournament", tournament=tid)["type"] == "ack"  # back in
    assert bob.ask("tournament", tournament=tid)["you"] == {"joined": True, "left": False}


@pytest.mark.parametrize("kind", ["swiss", "round_robin"])
def test_a_swiss_or_round_robin_of_one_player_is_cancelled_not_run(
        world: World, kind: str) -> None:
    """Catches a Swiss or round robin started with fewer than two players that runs (a
    round of nobody, or a 'finished' table nobody played, told as if it was played)
    instead of finishing at once, cancelled for too few players."""
    steps = Steps(world)
    rounds = 3 if kind == "swiss" else None
    tid = create_tournament(world.store, world.clock, kind=kind, room="blitz",
                            starts_ms=world.clock() + 60_000, rounds=rounds, rated=False)
    ann, eve = world.join("ann"), world.join("eve")
    assert ann.ask("join_tournament", tournament=tid)["type"] == "ack"
    eve.ask("subscribe", topic=f"tournament:{tid}")
    steps.drain()
    eve.new()
    world.clock.advance(60_000)
    steps.sweep()
    t = Tournaments(world.store).get(tid)
    assert t is not None and (t.status, t.round, t.cancelled) == (
        "finished", 0, "too_few_players")
    assert Tournaments(world.store).pairings(tid) == []
    pushed = _changes(eve)
    assert {"kind": "finished", "cancelled": "too_few_players"} in pushed
    assert not any(c["kind"] in ("started", "paired", "bye") for c in pushed)
    page = eve.ask("tournament", tournament=tid)
    assert page["tournament"]["cancelled"] == "too_few_players"
    assert page["tournament"]["players"] == 1
    listed = eve.ask("tournaments", status="finished")["tournaments"]
    assert [x.get("cancelled") for x in listed] == ["too_few_players"]


def test_a_swiss_whose_first_round_finds_one_player_connected_is_cancelled(
        world: World) -> None:
    """Catches a Swiss of two joined players, one gone by the start, that 'finishes'
    with an empty first round as if played (and withdraws the absent one), instead of
    being cancelled for too few players."""
    steps = Steps(world)
    tid = create_tournament(world.store, world.clock, kind="swiss", room="blitz",
                            starts_ms=world.clock() + 60_000, rounds=3, rated=False)
    ann, bob = world.join("ann"), world.join("bob")
    for conn in (ann, bob):
        assert conn.ask("join_tournament", tournament=tid)["type"] == "ack"
    steps.drain()
    bob.close()
    world.clock.advance(60_000)
    steps.sweep()
    t = Tournaments(world.store).get(tid)
    assert t is not None and (t.status, t.round, t.cancelled) == (
        "finished", 0, "too_few_players")
    assert Tournaments(world.store).round_plan(tid, 1) is None
    assert all(p.active for p in Tournaments(world.store).all_players(tid))
