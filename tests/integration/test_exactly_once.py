"""Exactly once: a repeated request id is applied at most once and answered the same,
whatever fails after the commit — a timer not sent, a lost answer, a dead process."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from harness import Conn, World
from numbridge.store import keys
from numbridge.store.port import Write
from numbridge.store.sqlite import SqliteStore
from players import current, start_game


def domains_game(world: World) -> tuple[Conn, Conn, str]:
    ana, bob = world.join("ana"), world.join("bob")
    return ana, bob, start_game(world, "domains", ana, bob, colour="blue")


def to_red_pair(world: World, ana: Conn, game: str) -> None:
    """Blue's opening single move: red is then to move twice."""
    assert ana.ask("exchange", game=game)["type"] == "ack"
    state = current(world, game)
    assert (state.turn, state.moves_left_in_pair) == ("red", 2)


def after_commit(world: World, failure: Callable[[], None]) -> Callable[[], None]:
    """Make the store fail once right after a commit has landed; undo with the result."""
    store = world.svc.store
    real = store.transact
    armed = [True]

    def transact(writes: list[Write]) -> None:
        real(writes)
        if armed[0]:
            armed[0] = False
            failure()

    store.transact = transact  # type: ignore[method-assign]
    return lambda: setattr(store, "transact", real)


def test_a_timer_that_cannot_be_sent_does_not_make_a_move_apply_twice(world: World) -> None:
    ana, bob, game = domains_game(world)
    to_red_pair(world, ana, game)
    v = current(world, game).v

    def unavailable(**kwargs: Any) -> Any:
        raise ConnectionError("SQS is unavailable")

    world.sqs.send_message = unavailable  # type: ignore[method-assign]
    first = bob.ask("exchange", game=game, id="b-1")
    del world.sqs.send_message
    assert first == {"type": "ack", "id": "b-1"}  # committed: answered as committed
    after = current(world, game)
    assert after.v > v and (after.turn, after.moves_left_in_pair) == ("red", 1)

    retry = bob.ask("exchange", game=game, id="b-1")
    assert retry == first
    assert current(world, game).v == after.v  # the red pair still has its second move

    # The timer that was never sent is repaired by the sweep.
    world.clock.advance(45_001)
    assert world.sweep() == {"advanced": 1}
    assert current(world, game).turn == "blue"


@pytest.mark.parametrize("failure", ["timeout after the write", "process killed"])
def test_a_failure_after_the_commit_is_answered_from_the_receipt(
    world: World, failure: str
) -> None:
    ana, bob, game = domains_game(world)
    to_red_pair(world, ana, game)

    def fail() -> None:
        if failure == "process killed":
            raise SystemExit("killed between the commit and the answer")
        raise TimeoutError("read timeout after the write landed")

    undo = after_commit(world, fail)
    try:
        if failure == "process killed":
            with pytest.raises(SystemExit):
                bob.send("exchange", game=game, id="b-2")
        else:
            answer = bob.ask("exchange", game=game, id="b-2")
            assert (answer["type"], answer["code"]) == ("error", "internal")
    finally:
        undo()
    committed = current(world, game)
    assert committed.moves_left_in_pair == 1  # the exchange landed
    retry = bob.ask("exchange", game=game, id="b-2")
    assert retry == {"type": "ack", "id": "b-2"}  # not not_your_turn, not a second move
    assert current(world, game).v == committed.v


def test_a_repeat_is_not_pushed_again_and_a_repeated_accept_sends_no_stale_state(
    world: World,
) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    proposal = ana.ask("propose", room="domains", colour="blue", id="p")["proposal"]
    assert bob.ask("accept", proposal=proposal["id"], id="acc") == {"type": "ack", "id": "acc"}
    [state] = [f for f in ana.new() if f["type"] == "state"]
    game = state["game"]
    bob.new()
    again = bob.send("accept", proposal=proposal["id"], id="acc")
    assert again == [{"type": "ack", "id": "acc"}]
    assert ana.new() == []

    assert ana.ask("exchange", game=game, id="x") == {"type": "ack", "id": "x"}
    bob.new()
    assert ana.send("exchange", game=game, id="x") == [{"type": "ack", "id": "x"}]
    assert bob.new() == []  # the opponent is not told twice


def test_ids_belong_to_one_player_and_one_request(world: World) -> None:
    ana, bob, game = domains_game(world)
    shared = ana.ask("propose", room="bridge", id="same-id")
    assert shared["type"] == "proposal"
    # Bob's "same-id" is his own request, not a repeat of Ana's.
    theirs = bob.ask("propose", room="bridge", id="same-id")
    assert theirs["type"] == "proposal" and theirs["proposal"]["id"] != shared["proposal"]["id"]
    # The same id with another body is refused and changes nothing.
    v = current(world, game).v
    other = ana.ask("exchange", game=game, id="same-id")
    assert (other["type"], other["code"]) == ("error", "illegal")
    assert "already used" in other["message"]
    assert current(world, game).v == v
    assert ana.ask("propose", room="bridge", id="same-id") == shared


def test_a_refusal_is_remembered_but_a_conflict_is_not(world: World) -> None:
    ana, bob, game = domains_game(world)
    refused = bob.ask("exchange", game=game, id="early")
    assert refused["code"] == "not_your_turn"
    assert ana.ask("exchange", game=game)["type"] == "ack"
    # Now it is Bob's turn, but "early" was answered: the same answer again.
    assert bob.ask("exchange", game=game, id="early") == refused
    assert current(world, game).turn == "red"


def test_a_receipt_lasts_an_hour_then_the_id_is_free(world: World) -> None:
    ana = world.join("ana")
    first = ana.ask("propose", room="bridge", id="hourly")
    item = world.store.get(keys.receipts("ana"), keys.receipt("hourly"))
    assert item is not None
    assert int(item["expires_at"]) - world.clock.now // 1000 == 3600
    assert json.loads(str(item["replies"])) == [first]
    # What the store's TTL does an hour later (SQLite purges it; DynamoDB's TTL deletes it).
    if isinstance(world.store, SqliteStore):
        assert world.store.purge_expired(int(item["expires_at"]) + 1) >= 1
    else:
        world.store.delete(keys.receipts("ana"), keys.receipt("hourly"))
    second = ana.ask("propose", room="bridge", id="hourly")
    assert second["type"] == "proposal"
    assert second["proposal"]["id"] != first["proposal"]["id"]
