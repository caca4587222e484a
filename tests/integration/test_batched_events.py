"""Batched events (``batch=1``): one ``events`` frame per game for what one request,
timer or bot move produced, each event the frame it would have been alone; a sync
with ``v`` answered in ``events`` frames of at most 32 KB. Through the handlers, on
both adapters, beside connections of the same players that did not ask."""

from __future__ import annotations

import json
from typing import Any

from harness import Conn, World
from numbridge.protocol.batching import MAX_EVENTS_FRAME_BYTES
from numbridge.service.usecases.views import for_viewer
from players import choose, current, first_moves, start_game

MINUTE = 60_000


def events_of(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The game events in ``frames``, batched or not, in the order received."""
    found = []
    for frame in frames:
        if frame["type"] == "events":
            found += frame["events"]
        elif frame["type"] not in {"ack", "state", "presence", "error"}:
            found.append(frame)
    return found


def a_game(world: World) -> tuple[Conn, Conn, Conn, Conn, str]:
    """Ana and Bob each on two devices, one asking for batches; Ana blue."""
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob, colour="blue")
    ana_b, bob_b = world.join("ana", batch=True), world.join("bob", batch=True)
    for conn in (ana, bob, ana_b, bob_b):
        conn.new()
    return ana, bob, ana_b, bob_b, game


def test_a_moves_events_come_as_one_frame_to_batching_connections_only(world: World) -> None:
    ana, bob, ana_b, bob_b, game = a_game(world)
    state = current(world, game)
    fields = choose(state, __import__("random").Random(1))
    answer = ana_b.send(fields.pop("action"), game=game, id="m1", **fields)
    plain_ana, plain_bob = ana.new(), bob.new()
    batch_bob = bob_b.new()
    # The sender's own batching connection: the ack, then one frame of the move's events.
    assert [f["type"] for f in answer] == ["ack", "events"]
    assert answer[0] == {"type": "ack", "id": "m1"}
    for batch, plain in ((answer[1:], plain_ana), (batch_bob, plain_bob)):
        [frame] = batch
        assert frame["type"] == "events" and frame["game"] == game
        assert frame["events"] == plain  # exactly the frames sent one by one elsewhere
        assert len(plain) >= 2
        assert [e["v"] for e in frame["events"]] == list(range(1, len(plain) + 1))
    # Ana's hand is hers: Bob's batch holds the placeholder where hers holds the hand.
    stored = world.svc.games.events_after(game, 0)
    assert batch_bob[0]["events"] == [for_viewer(e, "red") for e in stored]
    assert answer[1]["events"] == [for_viewer(e, "blue") for e in stored]
    assert any(e["type"] == "hidden" for e in batch_bob[0]["events"])
    assert world.check_secrets()["hidden"]


def test_watchers_that_ask_get_batches_with_the_hidden_events(world: World) -> None:
    ana, _bob, _ana_b, _bob_b, game = a_game(world)
    cy, dan = world.join("cy", batch=True), world.join("dan")
    assert cy.ask("watch", game=game)["type"] == "state"
    assert dan.ask("watch", game=game)["type"] == "state"
    cy.new(), dan.new()
    assert ana.ask("exchange", game=game)["type"] == "ack"
    [frame], plain = cy.new(), dan.new()
    assert frame == {"type": "events", "game": game, "events": plain}
    assert [e["type"] for e in plain].count("hidden") == 1  # Ana's new hand


def test_a_timeout_and_a_bot_move_are_one_frame_each(world: World) -> None:
    ana, bob, ana_b, bob_b, game = a_game(world)
    first_moves(world, game, {"ana": ana, "bob": bob})
    for conn in (ana, ana_b, bob_b):
        conn.new()
    world.clock.advance(2 * MINUTE)  # blue's 45 s run out
    assert world.deliver_timers() == {"batchItemFailures": []}
    [frame] = ana_b.new()
    assert frame["type"] == "events" and frame["events"] == ana.new()
    assert "timeout" in [e["type"] for e in frame["events"]]
    assert [f["type"] for f in bob_b.new()] == ["events"]

    eve = world.join("eve", batch=True)
    frames = eve.send("propose", id="p1", room="blitz", bot="easy", colour="red")
    assert [f["type"] for f in frames] == ["ack", "state"]
    world.play_bots()  # blue, the bot, moves first
    [moved] = eve.new()
    assert moved["type"] == "events" and moved["game"] == frames[1]["game"]
    assert [e["v"] for e in moved["events"]] == list(range(1, len(moved["events"]) + 1))


def test_a_sync_answers_in_events_frames_of_at_most_32_kb(world: World) -> None:
    ana, bob, ana_b, _bob_b, game = a_game(world)
    played = 0
    while True:
        mover = ana if played % 2 == 0 else bob
        assert mover.ask("exchange", game=game)["type"] == "ack"
        played += 1
        stored = world.svc.games.events_after(game, 0)
        if sum(len(json.dumps(e.frame)) for e in stored) > 1.5 * MAX_EVENTS_FRAME_BYTES:
            break
    head = len(stored)
    replay = ana_b.send("sync", game=game, v=0, id="s")
    assert replay[-1] == {"type": "ack", "id": "s"}
    assert len(replay) >= 3 and all(f["type"] == "events" for f in replay[:-1])
    for frame in replay[:-1]:
        assert len(json.dumps(frame, separators=(",", ":")).encode()) <= MAX_EVENTS_FRAME_BYTES
        assert frame["game"] == game and "id" not in frame
    unbatched = ana.send("sync", game=game, v=0, id="s2")
    assert events_of(replay) == unbatched[:-1] == [for_viewer(e, "blue") for e in stored]
    # From inside the history: only what follows, still in order.
    later = ana_b.send("sync", game=game, v=head - 5, id="s3")
    assert events_of(later) == [for_viewer(e, "blue") for e in stored[head - 5:]]
    # Up to date: the ack alone; without v: the state, as for anyone.
    assert ana_b.send("sync", game=game, v=head, id="s4") == [{"type": "ack", "id": "s4"}]
    assert [f["type"] for f in ana_b.send("sync", game=game, id="s5")] == ["state"]


def test_a_repeated_request_is_answered_again_batched_or_not(world: World) -> None:
    ana, _bob, ana_b, _bob_b, game = a_game(world)
    assert ana_b.send("exchange", game=game, id="x")[0] == {"type": "ack", "id": "x"}
    ana_b.new(), ana.new()
    # The same id again, on the other device: the same answer, no events pushed again.
    assert ana.send("exchange", game=game, id="x") == [{"type": "ack", "id": "x"}]
    assert ana_b.new() == []


def test_a_watch_between_a_moves_decision_and_its_commit_still_gets_the_move(
        world: World) -> None:
    """A game nobody watched skips the watchers query; a watch that lands while a move is
    being decided makes that move's commit fail, and the move, decided again, reaches it."""
    ana, _bob, _ana_b, _bob_b, game = a_game(world)
    cy = world.join("cy", batch=True)
    store = world.svc.store
    real = store.transact
    watched: list[dict[str, Any]] = []
    moves: list[Any] = []

    def transact(writes: Any) -> None:
        if not moves and any(getattr(w, "item", {}).get("sk") == "STATE" for w in writes):
            moves.append(writes)
            watched.append(cy.ask("watch", game=game))  # just before the move's commit
        real(writes)

    store.transact = transact  # type: ignore[method-assign]
    try:
        assert ana.ask("exchange", game=game)["type"] == "ack"
    finally:
        store.transact = real  # type: ignore[method-assign]
    assert watched[0]["type"] == "state" and watched[0]["v"] == 0
    [frame] = cy.new()  # after its state (the answer to its watch), the move
    assert frame["type"] == "events"
    assert [e["v"] for e in frame["events"]] == list(range(1, len(frame["events"]) + 1))
    assert world.svc.games.load(game).unwatched is False  # type: ignore[union-attr]
