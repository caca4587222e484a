"""Races on the lobby's items that one request at a time never shows, on every store
adapter: another request commits between this one's read and its write."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import pytest
from numbridge.caps import SUBSCRIPTIONS_PER_CONNECTION, TooManySubscriptions
from numbridge.store.connections import Connections
from numbridge.store.port import Store, Write
from numbridge.store.subscriptions import Subscriptions

NOW = 1_796_000_000_000


class _Meanwhile:
    """A store whose first transaction lets ``other`` commit just before it (another
    request that read the same items as this one)."""

    def __init__(self, store: Store, other: Callable[[], object]) -> None:
        self.store = store
        self.other: Callable[[], object] | None = other

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def transact(self, writes: Sequence[Write]) -> None:
        if self.other is not None:
            other, self.other = self.other, None
            other()
        self.store.transact(writes)


def test_two_subscriptions_racing_for_the_last_place_do_not_both_commit(store: Store) -> None:
    """Catches: the connection's count written without its condition on the item as read
    (two requests that both read one place left would both subscribe, past the cap)."""
    Connections(store).add("c1", "ana", NOW)
    subs = Subscriptions(store)
    for n in range(SUBSCRIPTIONS_PER_CONNECTION - 1):
        subs.add(f"tournament:t{n}", "c1", "ana", NOW)
    racing = Subscriptions(cast(Store, _Meanwhile(
        store, lambda: subs.add("lobby", "c1", "ana", NOW))))
    with pytest.raises(TooManySubscriptions):
        racing.add("tournament:last", "c1", "ana", NOW)
    assert len(subs.of_connection("c1", NOW)) == SUBSCRIPTIONS_PER_CONNECTION
