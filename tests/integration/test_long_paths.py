"""Paths only a long game, a slow player or a big partition takes: ``sync`` from
more than 500 events back, a store query past one page, the 15-minute cap on a
timer message and the early wake-up that sends the rest, and the answers
``conflict`` and ``internal``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from harness import World
from numbridge.club.rooms_config import parse_rooms_yaml
from numbridge.service.aws.sqs_timers import MAX_DELAY_S
from numbridge.service.usecases.play import MAX_SYNC_EVENTS
from numbridge.store import keys
from numbridge.store.games import Games, StoredEvent
from numbridge.store.port import ConflictError, Write
from players import start_game

SLOW_ROOMS = """\
rooms:
  - id: slow
    title: Correspondence
    variants:
      bridge: {size: 9, clues: {min: 26, max: 34, default: 30}, take_price: 1}
    move_ms: 1800000
    game_ms: null
    highlighting: true
    blocks: [regular]
"""


def test_sync_from_more_than_500_events_back_gets_the_whole_view(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "study", ana, bob, colour="blue", variant="bridge")
    bob.new()
    bob.close()  # Bob's phone is off while Ana and his other device play on
    desk = world.join("bob")
    played = 0
    while ana.v.get(game, 0) <= MAX_SYNC_EVENTS + 2:  # the v of the events Ana received
        mover = ana if played % 2 == 0 else desk
        assert mover.ask("exchange", game=game)["type"] == "ack"
        ana.new()
        played += 1
    head = ana.ask("sync", game=game)["v"]
    assert head == ana.v[game]
    phone = world.join("bob")
    # Exactly 500 behind: the events themselves, in order, then the ack.
    replay = phone.send("sync", game=game, v=head - MAX_SYNC_EVENTS, id="near")
    assert replay[-1] == {"type": "ack", "id": "near"}
    assert [f["v"] for f in replay[:-1]] == list(range(head - MAX_SYNC_EVENTS + 1, head + 1))
    assert all(f["game"] == game and "id" not in f for f in replay[:-1])
    # One more: the whole view instead, at the head, as the answer to that request.
    [far] = phone.send("sync", game=game, v=head - MAX_SYNC_EVENTS - 1, id="far")
    assert (far["type"], far["id"], far["v"], far["view"]["v"]) == ("state", "far", head, head)
    assert far["view"]["you"] == "red" and far["view"]["moves"] == played
    [start] = phone.send("sync", game=game, v=0, id="start")
    assert (start["type"], start["v"]) == ("state", head)


def test_events_are_read_past_one_page_of_the_store(world: World) -> None:
    """DynamoDB answers a query 1 MB at a time (moto too); SQLite has no pages."""
    games = Games(world.store)
    pad = "x" * 150_000
    events = [StoredEvent(v, None, {"type": "exchanged", "game": "g-big", "v": v,
                                    "seat": "blue", "count": 3, "pad": pad})
              for v in range(1, 13)]  # 12 events of ~150 KB: 1.8 MB
    for event in events:
        world.store.transact(games.event_puts("g-big", [event]))
    if world.store.__class__.__name__ == "DynamoStore":
        raw = world.store.client.query(  # type: ignore[attr-defined]
            TableName="games", KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": {"S": keys.game("g-big")}})
        assert "LastEvaluatedKey" in raw and len(raw["Items"]) < 12  # more than one page
    got = games.events_after("g-big", 0)
    assert [e.v for e in got] == list(range(1, 13))
    assert [e.v for e in games.events_after("g-big", 9)] == [10, 11, 12]
    assert all(e.frame["pad"] == pad for e in got)


@pytest.fixture
def slow_room(world: World) -> World:
    world.svc.rooms = parse_rooms_yaml(SLOW_ROOMS, "(test)")
    return world


def test_a_long_move_limit_is_waited_for_in_15_minute_timer_messages(slow_room: World) -> None:
    world = slow_room
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "slow", ana, bob, colour="blue")
    dealt = ana.ask("sync", game=game)
    deadline = dealt["view"]["deadline_ms"]
    assert deadline == world.clock.now + 1_800_000
    [timer] = world.sqs.sent
    assert timer["delay"] == MAX_DELAY_S  # SQS waits at most 15 minutes
    assert timer["body"] == {"game": game, "v": 0, "deadline_ms": deadline}

    world.clock.advance(MAX_DELAY_S * 1000)  # the message arrives with 15 minutes to go
    ana.new()
    bob.new()
    assert world.deliver_timers() == {"batchItemFailures": []}
    assert ana.new() == [] and bob.new() == []  # early: nothing happens...
    [again] = world.sqs.sent  # ...but the rest of the wait is sent again
    assert again["body"] == {"game": game, "v": 0, "deadline_ms": deadline}
    assert again["delay"] == (deadline - world.clock.now) // 1000 == 900

    world.clock.advance(again["delay"] * 1000)
    assert world.deliver_timers() == {"batchItemFailures": []}
    for conn in (ana, bob):
        assert [f.get("seat") for f in conn.new() if f["type"] == "timeout"] == ["blue"]


def test_a_change_that_keeps_losing_its_race_is_answered_conflict_and_may_be_retried(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob, colour="blue")
    real = world.store.transact
    lost: list[int] = []

    def always_lost(writes: list[Write]) -> None:
        lost.append(len(writes))
        raise ConflictError("someone else changed the game first")

    bob.new()
    monkeypatch.setattr(world.store, "transact", always_lost)
    answer = ana.ask("exchange", game=game, id="busy")
    assert (answer["type"], answer["code"]) == ("error", "conflict")
    assert len(lost) == 5  # decided again each time, then gave up
    assert bob.new() == []  # nothing happened, nobody was told
    monkeypatch.setattr(world.store, "transact", real)
    # A conflict is not remembered: the same id is applied now, once.
    assert ana.ask("exchange", game=game, id="busy") == {"type": "ack", "id": "busy"}
    assert [f["type"] for f in bob.new()] == ["exchanged", "hidden", "turn"]
    assert ana.ask("exchange", game=game, id="busy") == {"type": "ack", "id": "busy"}
    assert bob.new() == []


def test_a_store_that_fails_before_the_write_is_answered_internal_and_may_be_retried(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob, colour="blue")
    real = world.store.transact

    def unavailable(writes: list[Write]) -> None:
        raise ConnectionError("the database is unreachable")

    bob.new()
    monkeypatch.setattr(world.store, "transact", unavailable)
    answer: dict[str, Any] = ana.ask("exchange", game=game, id="down")
    assert (answer["type"], answer["code"]) == ("error", "internal")
    assert "retry" in answer["message"] and "unreachable" not in json.dumps(answer)
    assert bob.new() == []
    monkeypatch.setattr(world.store, "transact", real)
    assert ana.ask("exchange", game=game, id="down") == {"type": "ack", "id": "down"}
    assert [f["type"] for f in bob.new()] == ["exchanged", "hidden", "turn"]
