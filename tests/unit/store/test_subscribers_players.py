"""The lobby's subscribers with the player each is signed in as, on every store adapter:
the fan-out shows each subscriber its own page of the lobby by that player."""

from __future__ import annotations

from numbridge.store.connections import Connections
from numbridge.store.port import Store
from numbridge.store.subscriptions import Subscriptions

NOW = 1_796_000_000_000


def test_each_subscriber_comes_with_its_player_across_the_shards(store: Store) -> None:
    """Catches: a subscriber read without its player (every connection would be shown
    the page of one nameless player, and a player's own proposals pushed to nobody), or
    the player of another connection."""
    subs = Subscriptions(store)
    for n in range(40):  # across the shards; two connections of one player
        Connections(store).add(f"c{n}", f"p{n // 2}", NOW)
        subs.add("lobby", f"c{n}", f"p{n // 2}", NOW)
    found = {s.receiver.connection: s.player for s in subs.subscribers("lobby", NOW)}
    assert found == {f"c{n}": f"p{n // 2}" for n in range(40)}
    assert sorted(r.connection for r in subs.receivers("lobby", NOW)) == sorted(found)
