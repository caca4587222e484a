"""Exactly once: a repeated request id is applied at most once and answered the same,
whatever fails after the commit — a timer not sent, a lost answer, a dead process."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from harness import Conn, World
from numbridge.service.usecases.seeking import CROWD_MS
from numbridge.store import keys
from numbridge.store.club import Ratings
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


def after_commit(world: World, failure: Callable[[], None],
                 nth: int = 1) -> Callable[[], None]:
    """Make the store fail once right after a commit has landed (the ``nth`` from now);
    undo with the result."""
    store = world.svc.store
    real = store.transact
    left = [nth]

    def transact(writes: Sequence[Write]) -> None:
        real(writes)
        left[0] -= 1
        if left[0] == 0:
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


# ---------------------------------------------------------------- quick pairing


def killed() -> None:
    raise SystemExit("killed between the commit and the answer")


def games_of(conn: Conn) -> list[str]:
    return [g["game"] for g in conn.ask("games")["games"]]


def waiting_seekers(world: World) -> list[str]:
    return sorted(s.player for s in world.svc.seeks.in_room("blitz", world.clock()))


def two_waiting(world: World) -> tuple[Conn, Conn, Conn]:
    """Ana (1400) and Cy (1600) seek Blitz, too far apart for each other; Bob (new: 1500)
    fits either."""
    for player, rating in [("ana", 1400.0), ("cy", 1600.0)]:
        world.store.transact([Ratings.put_write(
            player, "blitz", {"rating": rating, "rd": 60.0, "volatility": 0.06}, games=30,
            expected_rv=None, provisional=False)])
    ana, cy, bob = world.join("ana"), world.join("cy"), world.join("bob")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    assert cy.ask("seek", room="blitz")["type"] == "seek"
    assert waiting_seekers(world) == ["ana", "cy"]
    return ana, cy, bob


def test_a_seek_killed_after_its_pairing_is_answered_from_its_receipt_and_pairs_no_more(
    world: World,
) -> None:
    """Catches: a seek's receipt written after its pairing, not with it — the retry
    pairs the seeker again, with the next who waits (a second game)."""
    bob = two_waiting(world)[2]
    world.clock.advance(CROWD_MS)  # they have waited: bob pairs before storing his seek
    undo = after_commit(world, killed)  # bob's first commit: the pairing
    try:
        with pytest.raises(SystemExit):
            bob.send("seek", room="blitz", id="k-1")
    finally:
        undo()
    [game] = games_of(bob)  # the pairing landed
    [partner] = set(current(world, game).players.values()) - {"bob"}
    assert waiting_seekers(world) == sorted({"ana", "cy"} - {partner})
    # The retry is answered as the pairing answers (its state was pushed, not remembered:
    # the game is in bob's `games`), and bob plays one game.
    retry = bob.send("seek", room="blitz", id="k-1")
    assert games_of(bob) == [game]
    assert retry == [{"type": "ack", "id": "k-1"}]
    assert waiting_seekers(world) == sorted({"ana", "cy"} - {partner})  # not taken


def test_a_seek_killed_after_it_was_stored_is_answered_with_that_seek(world: World) -> None:
    """Catches: the retry storing a second seek in place of the first, answered with
    another seek than the one stored."""
    ana = world.join("ana")
    undo = after_commit(world, killed)  # the seek stored: nobody else waits
    try:
        with pytest.raises(SystemExit):
            ana.send("seek", room="blitz", id="k-2")
    finally:
        undo()
    stored = world.svc.seeks.get("ana")
    assert stored is not None
    retry = ana.ask("seek", room="blitz", id="k-2")
    assert retry == {"type": "seek", "id": "k-2", "seek": stored.public()}
    [again] = world.svc.seeks.in_room("blitz", world.clock())
    assert again.id == stored.id


def test_a_seek_paired_just_after_it_was_stored_then_killed_is_answered_ack(
    world: World, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Catches: a seek stored (its answer `seek` remembered), then paired in the same
    request — two seekers who came at one instant — whose receipt still says `seek`,
    or is not there: the retry pairs again, or answers `seek` after a pairing."""
    bob = two_waiting(world)[2]
    seeks = world.svc.seeks
    real = seeks.in_room
    reads = [0]

    def in_room(room: str, now_ms: int | None = None) -> list[Any]:
        reads[0] += 1  # bob's first read misses them: they came at his instant
        return [] if reads[0] == 1 else real(room, now_ms)

    monkeypatch.setattr(seeks, "in_room", in_room)
    undo = after_commit(world, killed, nth=2)  # bob's seek stored, then his pairing
    try:
        with pytest.raises(SystemExit):
            bob.send("seek", room="blitz", id="k-3")
    finally:
        undo()
    monkeypatch.undo()
    [game] = games_of(bob)
    [partner] = set(current(world, game).players.values()) - {"bob"}
    retry = bob.send("seek", room="blitz", id="k-3")
    assert games_of(bob) == [game]
    assert retry == [{"type": "ack", "id": "k-3"}]
    assert waiting_seekers(world) == sorted({"ana", "cy"} - {partner})


@pytest.mark.parametrize("action", ["cancel_seek", "propose to", "decline"])
def test_seeks_and_challenges_killed_after_the_commit_are_answered_from_the_receipt(
    world: World, action: str,
) -> None:
    """These commit their receipt with their change (``settle``): the retry is answered
    as the request was, not `not_found`, and makes no second challenge."""
    ana, bob = world.join("ana"), world.join("bob")
    fields: dict[str, Any]
    if action == "cancel_seek":
        conn = ana
        fields = {"seek": ana.ask("seek", room="blitz")["seek"]["id"]}
    elif action == "propose to":
        conn, action = ana, "propose"
        fields = {"room": "blitz", "to": "bob"}
    else:
        proposal = ana.ask("propose", room="blitz", to="bob")["proposal"]["id"]
        conn, fields = bob, {"proposal": proposal}
    undo = after_commit(world, killed)
    try:
        with pytest.raises(SystemExit):
            conn.send(action, id="x-1", **fields)
    finally:
        undo()
    retry = conn.ask(action, id="x-1", **fields)
    assert retry["type"] != "error", retry
    assert conn.ask(action, id="x-1", **fields) == retry
    if action == "propose":
        assert retry["proposal"]["to"] == "bob"
        slots = world.svc.proposals.slots("ana")
        assert len([s for s in slots if s.expires_ms > world.clock()]) == 1
    if action == "cancel_seek":
        assert waiting_seekers(world) == []
