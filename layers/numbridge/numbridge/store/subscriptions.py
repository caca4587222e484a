"""Subscriptions: which connections are pushed a topic's changes (``lobby``).

A subscription is two items, written and deleted together: ``TOPIC#t#n`` /
``SUB#c`` (the topic's subscribers, sharded by connection over
:data:`~numbridge.store.keys.TOPIC_SHARDS` partitions: one partition takes about
1,000 writes a second, and every lobby shown or left moves one) and ``CONN#c`` /
``SUB#t`` (a connection's subscriptions, deleted with the connection). Both carry
``expires_at``: a connection that vanished without ``$disconnect`` is forgotten by
the TTL, and reads skip an expired row before the TTL gets to it.

The connection's item counts its subscriptions (``subscribed``), a read-modify-write
in the same transaction conditioned on the item as read: at most
:data:`~numbridge.caps.SUBSCRIPTIONS_PER_CONNECTION`, however many requests race.

``LOBBY`` / ``SEEKS`` remembers the rooms' seekers' counts last pushed to the lobby, when,
the budget of such pushes left (``full_ms``: the instant it is whole again) and when a
later look is already due (as ``LOBBY`` / ``ONLINE`` does the online count's): the
fan-out pushes a room's count when it differs from the one last pushed, while the budget
lasts (``club.lobby_pages.seeks_due``), and two fan-outs at once — on either runtime —
neither both push it nor both spend the budget (each claims with a write conditioned on
the item as read).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from numbridge.caps import SUBSCRIPTIONS_PER_CONNECTION, TooManySubscriptions
from numbridge.store import keys
from numbridge.store.port import (
    Absent,
    ConflictError,
    Delete,
    Item,
    KeyRange,
    Present,
    Put,
    Store,
    Write,
    unchanged,
)
from numbridge.store.watches import Receiver

# As long as a connection's own item: API Gateway closes every connection after 2 h.
SUBSCRIPTION_TTL_S = 3 * 3600
ATTEMPTS = 8
SEEKS_PUSHED = "SEEKS"  # the sort key of LOBBY / SEEKS


@dataclass(frozen=True)
class Subscriber:
    receiver: Receiver
    player: str


@dataclass(frozen=True)
class SeeksPushed:
    """The rooms' seekers' counts last pushed to the lobby, when, the instant the budget
    of such pushes is whole again (0, and for an item from before the budget: whole
    now), and the instant a look again is already scheduled for (0: none)."""

    counts: Mapping[str, int] = field(default_factory=dict)
    sent_ms: int = -(10**15)
    due_ms: int = 0
    item: Item | None = None
    full_ms: int = 0


def _current(item: Mapping[str, object], now_ms: int) -> bool:
    expires = item.get("expires_at", 0)
    return isinstance(expires, int) and expires > now_ms // 1000


class Subscriptions:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, topic: str, connection_id: str, player: str, now_ms: int, *,
            batch: bool = False, token_expires_at: int | None = None) -> bool:
        """Subscribe (again: the TTL starts over); whether it is new.
        :class:`TooManySubscriptions` at the cap; :class:`ConflictError` if the
        connection's count kept changing under it; False without a connection."""
        for _ in range(ATTEMPTS):
            connection = self.store.get(keys.connection(connection_id), keys.CONN)
            if connection is None:
                raise LookupError(f"no connection {connection_id}")
            mine = self.store.get(keys.connection(connection_id), keys.subscribed(topic))
            expires = now_ms // 1000 + SUBSCRIPTION_TTL_S
            writes: list[Write] = [
                Put({"pk": keys.topic_shard(topic, connection_id),
                     "sk": keys.subscriber(connection_id), "player": player,
                     "expires_at": expires, "batch": True if batch else None,
                     "token_expires_at": token_expires_at}),
                Put({"pk": keys.connection(connection_id), "sk": keys.subscribed(topic),
                     "expires_at": expires}, Absent() if mine is None else unchanged(mine)),
            ]
            if mine is None:
                held = int(connection.get("subscribed", SUBSCRIPTIONS_PER_CONNECTION))
                if held >= SUBSCRIPTIONS_PER_CONNECTION:  # rows from before: count them
                    held = len(self.of_connection(connection_id, now_ms))
                if held >= SUBSCRIPTIONS_PER_CONNECTION:
                    raise TooManySubscriptions(
                        f"at most {SUBSCRIPTIONS_PER_CONNECTION} subscriptions on one "
                        "connection: unsubscribe one first")
                writes.append(Put({**connection, "subscribed": held + 1}, unchanged(connection)))
            try:
                self.store.transact(writes)
            except ConflictError:
                continue
            return mine is None or not _current(mine, now_ms)
        raise ConflictError(f"the subscriptions of connection {connection_id} kept changing")

    def remove(self, topic: str, connection_id: str, now_ms: int) -> bool:
        """Unsubscribe; whether the connection was subscribed."""
        for _ in range(ATTEMPTS):
            mine = self.store.get(keys.connection(connection_id), keys.subscribed(topic))
            if mine is None:
                return False
            connection = self.store.get(keys.connection(connection_id), keys.CONN)
            writes = self._deletes(topic, connection_id)
            if connection is not None and "subscribed" in connection:
                writes.append(Put({**connection,
                                   "subscribed": max(0, int(connection["subscribed"]) - 1)},
                                  unchanged(connection)))
            try:
                self.store.transact(writes)
            except ConflictError:
                continue
            return _current(mine, now_ms)
        raise ConflictError(f"the subscriptions of connection {connection_id} kept changing")

    def receivers(self, topic: str, now_ms: int) -> list[Receiver]:
        """Every connection subscribed to a topic (each shard, every page)."""
        return [s.receiver for s in self.subscribers(topic, now_ms)]

    def subscribers(self, topic: str, now_ms: int) -> list[Subscriber]:
        """Every connection subscribed to a topic, with the player it is signed in as
        (whose page of the lobby it shows: ``club.lobby_pages``)."""
        found: list[Subscriber] = []
        for shard in keys.topic_shards(topic):
            after: str | None = None
            while True:
                page = self.store.query(shard, KeyRange(prefix=keys.SUB_PREFIX), after=after)
                found += [Subscriber(Receiver.of(str(i["sk"]).removeprefix(keys.SUB_PREFIX),
                                                 i), str(i.get("player", "")))
                          for i in page.items if _current(i, now_ms)]
                after = page.next
                if after is None:
                    break
        return found

    def of_connection(self, connection_id: str, now_ms: int) -> list[str]:
        """The topics a connection subscribes to."""
        page = self.store.query(keys.connection(connection_id),
                                KeyRange(prefix=keys.SUB_PREFIX))
        return [str(i["sk"]).removeprefix(keys.SUB_PREFIX) for i in page.items
                if _current(i, now_ms)]

    def drop_connection(self, connection_id: str) -> None:
        """Forget every subscription of a connection (it closed, or a post found it
        gone); the connection's own item goes with it, so its count is not kept."""
        page = self.store.query(keys.connection(connection_id),
                                KeyRange(prefix=keys.SUB_PREFIX))
        for item in page.items:
            topic = str(item["sk"]).removeprefix(keys.SUB_PREFIX)
            self.store.transact([Delete(keys.topic_shard(topic, connection_id),
                                        keys.subscriber(connection_id)),
                                 Delete(keys.connection(connection_id), keys.subscribed(topic))])

    @staticmethod
    def _deletes(topic: str, connection_id: str) -> list[Write]:
        return [Delete(keys.topic_shard(topic, connection_id), keys.subscriber(connection_id)),
                Delete(keys.connection(connection_id), keys.subscribed(topic), Present())]

    def seeks_pushed(self) -> SeeksPushed:
        item = self.store.get(keys.LOBBY, SEEKS_PUSHED)
        if item is None:
            return SeeksPushed()
        return SeeksPushed({str(k): int(v) for k, v in json.loads(str(item["counts"])).items()},
                           int(item["sent_ms"]), int(item["due_ms"]), item,
                           int(item.get("full_ms", 0)))

    def claim_seeks(self, last: SeeksPushed, *, counts: Mapping[str, int], sent_ms: int,
                    due_ms: int, full_ms: int) -> bool:
        """Record a push of the seekers' counts and the budget it spent (or a look
        scheduled) unless another fan-out did first."""
        try:
            self.store.put({"pk": keys.LOBBY, "sk": SEEKS_PUSHED,
                            "counts": json.dumps(dict(sorted(counts.items()))),
                            "sent_ms": sent_ms, "due_ms": due_ms, "full_ms": full_ms},
                           Absent() if last.item is None else unchanged(last.item))
        except ConflictError:
            return False
        return True
