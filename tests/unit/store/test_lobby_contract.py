"""The lobby's items on every store adapter: subscriptions (and their cap), seeks (and
their pairing's conditions), the online count (and its one push per period)."""

from __future__ import annotations

import pytest
from numbridge.caps import SUBSCRIPTIONS_PER_CONNECTION, TooManySubscriptions
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
    seeks = Seeks(store)
    _connected(store, "c1", "ana")
    _connected(store, "c2", "ana")
    store.transact(seeks.put_writes(_seek("s2", "ana", "c2"), None))
    assert Connections(store).remove_all("c1").seek is None
    assert [s.id for s in seeks.in_room("blitz")] == ["s2"]


def test_a_second_seek_replaces_the_first(store: Store) -> None:
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
