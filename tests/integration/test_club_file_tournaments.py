"""The club file carries the club's tournaments whole: moved from one store adapter to the
other, a Swiss in the middle of a round, a running arena and a cancelled one are item
for item what they were."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from harness import World, create_tables
from numbridge.clubfile.moving import export_club, import_club
from numbridge.service.usecases import tournament_steps
from numbridge.service.usecases.tournaments import cancel_tournament, create_tournament
from numbridge.store.dynamodb import DynamoStore
from numbridge.store.sqlite import SqliteStore
from numbridge.store.tournaments import Tournaments
from test_tournaments import Steps
from testkit.moto_server import client


def _tournament_items(store: Any) -> dict[tuple[str, str], dict[str, Any]]:
    """Every item of every tournament but its pacing mark (the last standings push)."""
    return {(str(i["pk"]), str(i["sk"])): i for pk in store.partitions()
            if pk.startswith("TOURNEY#") for i in store.query(pk).items
            if i["sk"] != "PUSHED"}


def test_tournaments_move_whole_and_play_on(world: World, tmp_path: Path) -> None:
    """Catches a club file without its tournaments (a club moved to AWS loses its events,
    their standings and the rounds under way), or one that drops a part of one: a
    round's plan (it would be paired again), a game being played (its result never
    counted), a free arena player, the count of players."""
    steps = Steps(world)
    swiss = create_tournament(world.store, world.clock, kind="swiss", room="blitz",
                              starts_ms=world.clock() + 1_000, rounds=2, rated=False)
    arena = create_tournament(world.store, world.clock, kind="arena", room="blitz",
                              starts_ms=world.clock() + 1_000, minutes=30, rated=False)
    gone = create_tournament(world.store, world.clock, kind="round_robin", room="blitz",
                             starts_ms=world.clock() + 600_000, rated=False)
    conns = {name: world.join(name) for name in ("ann", "bob", "cy")}
    for name, conn in conns.items():
        assert conn.ask("join_tournament", tournament=swiss)["type"] == "ack"
        if name != "cy":
            assert conn.ask("join_tournament", tournament=arena)["type"] == "ack"
    assert conns["cy"].ask("join_tournament", tournament=gone)["type"] == "ack"
    cancel_tournament(world.store, gone)
    world.clock.advance(1_000)
    steps.sweep()  # both start: the Swiss's round 1 (a game and a bye), the arena's game
    steps.drain()
    assert len(Tournaments(world.store).live(swiss)) == 1
    assert conns["bob"].ask("leave_tournament", tournament=arena)["type"] == "ack"
    steps.drain()
    source = world.store
    assert isinstance(source, SqliteStore | DynamoStore)
    path = tmp_path / "club.jsonl"
    export_club(source, path, source="test", now_ms=world.clock())
    if isinstance(source, SqliteStore):  # to the other adapter
        dynamodb = client("dynamodb")
        create_tables(dynamodb, {"GameTable": "moved"})
        target: Any = DynamoStore(dynamodb, "moved")
    else:
        target = SqliteStore(tmp_path / "moved.db", synchronous="NORMAL")
    done = import_club(target, path)
    assert done.written["tournament"] > 0
    assert _tournament_items(target) == _tournament_items(source)
    moved = Tournaments(target)
    assert moved.get(gone).cancelled == "by_host"  # type: ignore[union-attr]
    assert moved.counted([swiss, arena]) == {swiss: 3, arena: 1}
    # A step on the new store finds the round under way as it was: nothing paired again.
    tournament_steps.step(dataclasses.replace(world.svc, store=target), swiss)
    assert _tournament_items(target) == _tournament_items(source)
