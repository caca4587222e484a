"""Quick pairing's crowd rule through the real handlers, on both stores: a seek pairs
before storing its own only with one that has waited a while (a crowd sees itself only
once stored), seekers who came together pair with each other in the order they came,
and a board dealt for a try that lost is the next pairing's (``service.usecases.seeking``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from harness import World
from numbridge.service.usecases import seeking
from numbridge.store import keys
from numbridge.store.port import ConflictError, Put, Write
from numbridge.store.seeks import Seek


class Writes:
    """The store, remembering every transaction that committed and each that lost;
    ``then`` runs after each commit."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.committed: list[Sequence[Write]] = []
        self.lost: list[Sequence[Write]] = []
        self.then: Callable[[Sequence[Write]], None] = lambda writes: None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def transact(self, writes: Sequence[Write]) -> None:
        try:
            self._store.transact(writes)
        except ConflictError:
            self.lost.append(writes)
            raise
        self.committed.append(writes)
        self.then(writes)

    def seeks_stored(self) -> list[str]:
        """The players whose seek was put into a room, in order."""
        return [str(w.item["player"]) for t in self.committed for w in t
                if isinstance(w, Put) and w.key[0].startswith("SEEKS#")]


def _types(frames: list[dict[str, Any]]) -> list[str]:
    return [f["type"] for f in frames]


def test_a_seek_that_has_waited_is_paired_without_storing_the_newcomers(world: World) -> None:
    """Catches: every newcomer storing its seek first (a transaction more, and a later
    answer, in the usual case of one player finding another waiting)."""
    writes = Writes(world.store)
    world.use_store(writes)
    ana, bob = world.join("ana"), world.join("bob")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    world.clock.advance(seeking.CROWD_MS)
    assert _types(bob.send("seek", room="blitz")) == ["ack", "state"]
    assert writes.seeks_stored() == ["ana"]
    assert "state" in _types(ana.new())
    assert world.svc.seeks.in_room("blitz", world.clock()) == []


@pytest.mark.parametrize("after_ms", [0, seeking.CROWD_MS - 1])
def test_a_newcomer_to_a_fresh_seek_stores_its_own_then_pairs(world: World,
                                                               after_ms: int) -> None:
    """Catches: a newcomer pairing at once with a seek made a moment before (each of a
    crowd that came together would reach for that same seek, and all but one lose
    their race), or one that stores its seek and then leaves it waiting, or answers
    ``seek`` though it was paired."""
    writes = Writes(world.store)
    world.use_store(writes)
    ana, bob = world.join("ana"), world.join("bob")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    world.clock.advance(after_ms)
    assert _types(bob.send("seek", room="blitz")) == ["ack", "state"]
    assert writes.seeks_stored() == ["ana", "bob"]
    assert "state" in _types(ana.new())
    assert world.svc.seeks.in_room("blitz", world.clock()) == []


def test_seekers_stored_together_pair_in_the_order_they_came(world: World) -> None:
    """Catches: a crowd's stored seeks all reaching for the longest waiter — the fourth
    of four who came together taking the first, whom the second takes too (one of the
    two pairings loses its race) — instead of first with second, third with fourth."""
    conns = [world.join(f"p{n}") for n in range(4)]
    # Three seeks stored a moment before, none paired yet: three requests that stored
    # theirs and have not read the room again.
    for n, conn in enumerate(conns[:3]):
        seek = Seek(id=f"s-{n}", room="blitz", player=conn.player,
                            connection=conn.id, rating=1500.0, rated=True,
                            created_ms=world.clock() - 3 + n)
        world.store.transact(world.svc.seeks.put_writes(seek, None))
    assert _types(conns[3].send("seek", room="blitz")) == ["ack", "state"]
    (game,) = world.svc.playing.in_room("blitz")[0]
    assert sorted(game["players"].values()) == ["p2", "p3"]
    # The other two, by their own requests reading again or the fan-out's retry, which
    # each seek stored sends for at once.
    assert seeking.retry_room(world.svc, "blitz") == 1
    games = world.svc.playing.in_room("blitz")[0]
    assert sorted(sorted(g["players"].values()) for g in games) == [["p0", "p1"], ["p2", "p3"]]


def test_a_board_dealt_for_a_try_that_lost_is_the_next_pairings(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches: a deal thrown away with the try that lost its race (a crowd deals a
    board for every try, most of them lost), or a board kept and also played."""
    monkeypatch.setattr(seeking, "_kept_boards", {})
    dealt: list[Any] = []

    def deal_board(svc: Any, options: Any) -> Any:
        dealt.append(real(svc, options))
        return dealt[-1]

    real = seeking.deal_board
    monkeypatch.setattr(seeking, "deal_board", deal_board)
    ana, bob, cy = world.join("ana"), world.join("bob"), world.join("cy")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    # Ana's socket closes; her $disconnect (which ends her seek) has not come yet.
    world.store.delete(keys.connection(ana.id), keys.CONN)
    world.clock.advance(seeking.CROWD_MS)
    assert bob.ask("seek", room="blitz")["type"] == "seek"  # the try with Ana lost
    assert len(dealt) == 1
    world.clock.advance(seeking.CROWD_MS)
    assert _types(cy.send("seek", room="blitz")) == ["ack", "state"]
    assert len(dealt) == 1, "the pairing dealt again"
    (game,) = world.svc.playing.in_room("blitz")[0]
    assert sorted(game["players"].values()) == ["bob", "cy"]
    assert world.stored_state(game["game"])["board"] == dealt[0].to_dict()
    assert not any(seeking._kept_boards.values()), "a board both played and kept"


def test_a_seek_whose_connection_closed_unseen_holds_back_no_one(world: World) -> None:
    """Catches: a seek whose connection closed without its $disconnect (lost, or not
    yet come) left waiting: the rule pairs it with whoever comes next, each of whom
    then waits alone (Bob, then Cy, each waiting instead of meeting the other)."""
    ana, bob, cy = world.join("ana"), world.join("bob"), world.join("cy")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    world.store.delete(keys.connection(ana.id), keys.CONN)  # no $disconnect
    world.clock.advance(seeking.CROWD_MS)
    assert bob.ask("seek", room="blitz")["type"] == "seek"
    assert [s.player for s in world.svc.seeks.in_room("blitz", world.clock())] == ["bob"]
    assert _types(cy.send("seek", room="blitz")) == ["ack", "state"]
    (game,) = world.svc.playing.in_room("blitz")[0]
    assert sorted(game["players"].values()) == ["bob", "cy"]


def test_a_seek_paired_by_another_before_it_read_again_answers_ack(world: World) -> None:
    """Catches: a seeker whose stored seek another's pairing took, before it read the
    room again, answering ``seek`` (as if it waited, though its game's state comes) or
    trying a pairing that can only lose."""
    ana, bob = world.join("ana"), world.join("bob")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    writes = Writes(world.store)

    def then(batch: Sequence[Write]) -> None:
        if any(isinstance(w, Put) and w.key[0].startswith("SEEKS#") for w in batch):
            # Bob's seek stored: Ana's request (the fan-out here) pairs the two first.
            writes.then = lambda writes: None
            assert seeking.retry_room(world.svc, "blitz") == 1

    writes.then = then
    world.use_store(writes)
    assert _types(bob.send("seek", room="blitz")) == ["state", "ack"]  # the state first
    assert writes.lost == []
    assert world.svc.seeks.in_room("blitz", world.clock()) == []


def test_of_two_stored_seekers_the_later_pairs_them(world: World) -> None:
    """Catches: both seekers of a pair trying it (each saw the other once stored: one
    pairing commits and the other loses its race, a try for nothing each game), or the
    earlier one left waiting once the later pairs (no state, or a second pairing)."""
    ana = world.join("ana")
    bob = world.join("bob")
    writes = Writes(world.store)

    def then(batch: Sequence[Write]) -> None:
        if any(isinstance(w, Put) and w.key[0].startswith("SEEKS#") for w in batch):
            # Ana's seek stored; Bob's request stores his, later, before she reads again.
            writes.then = lambda writes: None
            later = Seek(id="s-bob", room="blitz", player="bob", connection=bob.id,
                         rating=1500.0, rated=True, created_ms=world.clock() + 1)
            world.store.transact(world.svc.seeks.put_writes(later, None))

    writes.then = then
    world.use_store(writes)
    assert _types(ana.send("seek", room="blitz")) == ["seek"]  # Bob's to pair them
    assert writes.lost == [] and not _games(writes)
    assert seeking.retry_room(world.svc, "blitz") == 1  # as Bob's request would
    assert "state" in _types(ana.new())
    assert len(_games(writes)) == 1 and writes.lost == []


def _games(writes: Writes) -> list[Sequence[Write]]:
    """The transactions that dealt a game."""
    return [t for t in writes.committed
            if any(isinstance(w, Put) and w.key[1] == "STATE" for w in t)]


def test_a_board_whose_try_ended_unknown_is_not_kept(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches: the board of a try that failed other than by losing its race (the
    process stopped after the commit: the game may be dealt with it) kept for the next
    pairing, which would deal the same board twice."""
    monkeypatch.setattr(seeking, "_kept_boards", {})
    ana, bob = world.join("ana"), world.join("bob")
    assert ana.ask("seek", room="blitz")["type"] == "seek"
    world.clock.advance(seeking.CROWD_MS)
    writes = Writes(world.store)

    def then(batch: Sequence[Write]) -> None:
        raise SystemExit("killed between the commit and the answer")

    writes.then = then
    world.use_store(writes)
    with pytest.raises(SystemExit):
        bob.send("seek", room="blitz")
    assert len(_games(writes)) == 1
    assert not any(seeking._kept_boards.values())
