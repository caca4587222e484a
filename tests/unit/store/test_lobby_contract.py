"""The lobby's items on every store adapter: subscriptions (and their cap), seeks (and
their pairing's conditions), the online count (and its one push per period), the
challenges addressed to a player and made by them."""

from __future__ import annotations

from typing import cast

import pytest
from numbridge.caps import SUBSCRIPTIONS_PER_CONNECTION, TooManySubscriptions
from numbridge.club.proposals import ProposalDoc
from numbridge.store.club import PROPOSAL_TTL_MS, Proposals
from numbridge.store.connections import Connections
from numbridge.store.online import Online
from numbridge.store.port import ConflictError, Store
from numbridge.store.seeks import Seek, Seeks
from numbridge.store.subscriptions import Subscriptions

NOW = 1_796_000_000_000


def _connected(store: Store, connection: str, player: str) -> None:
    Connections(store).add(connection, player, NOW)


def _seek(sid: str, player: str, connection: str, at: int = NOW) -> Seek:
    return Seek(id=sid, room="blitz", player=player, connection=connection, rating=1500.0,
                rated=True, created_ms=at)


def test_subscribe_list_unsubscribe(store: Store) -> None:
    """Catches: subscribers lost across the topic's shards, a subscription said again
    counted as new, or one left listed after ``unsubscribe``."""
    subs = Subscriptions(store)
    for n in range(40):  # across the shards
        _connected(store, f"c{n}", f"p{n}")
        assert subs.add("lobby", f"c{n}", f"p{n}", NOW) is True
    assert subs.add("lobby", "c0", "p0", NOW) is False  # again: not new, not counted twice
    assert sorted(r.connection for r in subs.receivers("lobby", NOW)) == sorted(
        f"c{n}" for n in range(40))
    assert subs.remove("lobby", "c0", NOW) is True
    assert subs.remove("lobby", "c0", NOW) is False
    assert "c0" not in {r.connection for r in subs.receivers("lobby", NOW)}


def test_at_most_so_many_subscriptions_per_connection(store: Store) -> None:
    """Catches: the cap not held, or a subscription said again counted twice."""
    subs = Subscriptions(store)
    _connected(store, "c1", "ana")
    for n in range(SUBSCRIPTIONS_PER_CONNECTION):
        subs.add(f"tournament:t{n}", "c1", "ana", NOW)
        subs.add(f"tournament:t{n}", "c1", "ana", NOW)
    with pytest.raises(TooManySubscriptions):
        subs.add("lobby", "c1", "ana", NOW)
    subs.remove("tournament:t0", "c1", NOW)
    subs.add("lobby", "c1", "ana", NOW)


def test_a_closed_connection_takes_its_subscriptions_and_seek(store: Store) -> None:
    """Catches: the fan-out posting to connections that closed, seekers paired with
    them."""
    subs, seeks = Subscriptions(store), Seeks(store)
    _connected(store, "c1", "ana")
    subs.add("lobby", "c1", "ana", NOW)
    store.transact(seeks.put_writes(_seek("s1", "ana", "c1"), None))
    removed = Connections(store).remove_all("c1")
    assert removed.player == "ana" and removed.seek is not None and removed.seek.id == "s1"
    assert subs.receivers("lobby", NOW) == [] and subs.of_connection("c1", NOW) == []
    assert seeks.in_room("blitz") == [] and seeks.get("ana") is None
    with pytest.raises(LookupError):  # and it cannot subscribe any more
        subs.add("lobby", "c1", "ana", NOW)


def test_a_seek_of_another_connection_of_the_player_stays(store: Store) -> None:
    """Catches: a player's seek ended when another of their connections closes (the device
    that sought still waiting for nothing)."""
    seeks = Seeks(store)
    _connected(store, "c1", "ana")
    _connected(store, "c2", "ana")
    store.transact(seeks.put_writes(_seek("s2", "ana", "c2"), None))
    assert Connections(store).remove_all("c1").seek is None
    assert [s.id for s in seeks.in_room("blitz")] == ["s2"]


def test_a_second_seek_replaces_the_first(store: Store) -> None:
    """Catches: a player's earlier seek left in the room beside their new one (two seeks of
    one player waiting)."""
    seeks = Seeks(store)
    store.transact(seeks.put_writes(_seek("s1", "ana", "c1"), None))
    first = seeks.of_player("ana")
    store.transact(seeks.put_writes(_seek("s2", "ana", "c1", NOW + 5), first))
    assert [s.id for s in seeks.in_room("blitz")] == ["s2"]
    with pytest.raises(ConflictError):  # replacing what is no longer there
        store.transact(seeks.put_writes(_seek("s3", "ana", "c1", NOW + 9), first))


def test_a_seek_is_paired_once_and_never_with_a_closed_connection(store: Store) -> None:
    """Catches: two pairings of one waiting seek both committed, or one committed after
    the waiting seeker's connection went."""
    seeks = Seeks(store)
    for c, p in (("c1", "ana"), ("c2", "bob"), ("c3", "cy")):
        _connected(store, c, p)
    store.transact(seeks.put_writes(_seek("s1", "ana", "c1"), None))
    [waiting] = seeks.in_room("blitz")
    by_bob = seeks.pair_writes([waiting], "bob", None, ["c1", "c2"], NOW)
    by_cy = seeks.pair_writes([waiting], "cy", None, ["c1", "c3"], NOW)
    store.transact(by_bob)
    with pytest.raises(ConflictError):
        store.transact(by_cy)
    store.transact(seeks.put_writes(_seek("s2", "bob", "c2", NOW + 1), seeks.of_player("bob")))
    [again] = seeks.in_room("blitz")
    late = seeks.pair_writes([again], "cy", None, ["c2", "c3"], NOW)
    store.delete("CONN#c2", "CONN")  # bob's connection went after the pairing was read
    with pytest.raises(ConflictError):
        store.transact(late)


def test_two_pairings_of_one_player_cannot_both_commit(store: Store) -> None:
    """Catches: a player on two devices paired twice by two requests at one instant (a
    condition on an absent item would not conflict; the player's item is written)."""
    seeks = Seeks(store)
    for c, p in (("c1", "ana"), ("c2", "bob"), ("c3", "dee"), ("c4", "dee")):
        _connected(store, c, p)
    store.transact(seeks.put_writes(_seek("s1", "ana", "c1"), None))
    store.transact(seeks.put_writes(_seek("s2", "bob", "c2", NOW + 1), None))
    ana, bob = seeks.in_room("blitz")
    first = seeks.pair_writes([ana], "dee", None, ["c1", "c3"], NOW)
    second = seeks.pair_writes([bob], "dee", None, ["c2", "c4"], NOW)
    store.transact(first)
    with pytest.raises(ConflictError):
        store.transact(second)


def test_the_online_count_and_its_one_push_per_period(store: Store) -> None:
    """Catches: the online count going below zero, losing a player across its shards, or
    two fan-outs at once both claiming the push."""
    online = Online(store)
    online.change("ana", -1)  # never below zero
    assert online.count() == 0
    for n in range(30):
        online.change(f"p{n}", 1)
    online.change("p0", -1)
    assert online.count() == 29
    last = online.last_pushed()
    assert online.claim(last, players=29, sent_ms=NOW, due_ms=0) is True
    assert online.claim(last, players=29, sent_ms=NOW, due_ms=0) is False  # one wins
    assert online.last_pushed().players == 29


def _proposal(pid: str, by: str, at: int, to: str | None = None) -> ProposalDoc:
    doc = {"id": pid, "room": "blitz", "by": by, "variant": "blitz", "blocks": "regular",
           "clues": 12, "highlighting": True, "rated": True, "colour": "random",
           "created_ms": at, **({"to": to} if to else {})}
    return cast(ProposalDoc, doc)


def test_the_challenges_to_a_player_are_one_query_of_the_index(store: Store) -> None:
    """Catches: a challenge listed to anyone but its player (or in the room's list), one
    that lapsed, was declined or is past the page listed, a name that folds alike missed."""
    proposals = Proposals(store)
    made = [
        _proposal("p-old", "ana", NOW - PROPOSAL_TTL_MS, to="Bob"),  # lapsed at NOW
        _proposal("p-1", "ana", NOW - PROPOSAL_TTL_MS + 1, to="Bob"),
        _proposal("p-2", "cy", NOW - 10, to="bob"),
        _proposal("p-3", "cy", NOW - 5, to="BOB"),
        _proposal("p-cy", "ana", NOW - 5, to="cy"),
        _proposal("p-open", "dee", NOW - 5),
    ]
    slot = {"ana": 0, "cy": 0, "dee": 0}
    for doc in made:
        store.transact(Proposals.add_writes(doc, slot[doc["by"]], None))
        slot[doc["by"]] += 1
    assert [p["id"] for p in proposals.challenges_to("bob", NOW, limit=20)] == [
        "p-3", "p-2", "p-1"]  # newest first
    assert [p["id"] for p in proposals.challenges_to("bob", NOW, limit=2)] == ["p-3", "p-2"]
    assert [p["id"] for p in proposals.challenges_to("cy", NOW, limit=20)] == ["p-cy"]
    assert proposals.challenges_to("dee", NOW, limit=20) == []
    assert [p["id"] for p in proposals.in_room("blitz")[0]] == ["p-open"]
    # What each made: their own challenges, not those that lapsed, not open proposals.
    assert [p["id"] for p in proposals.challenges_by("ana", NOW)] == ["p-1", "p-cy"]
    assert [p["id"] for p in proposals.challenges_by("cy", NOW)] == ["p-2", "p-3"]
    assert proposals.challenges_by("dee", NOW) == []
    stored = proposals.get("p-2")
    assert stored is not None
    store.transact(proposals.remove_writes(stored))  # declined, accepted or withdrawn
    assert [p["id"] for p in proposals.challenges_to("bob", NOW, limit=20)] == ["p-3", "p-1"]
    assert [p["id"] for p in proposals.challenges_by("cy", NOW)] == ["p-3"]
