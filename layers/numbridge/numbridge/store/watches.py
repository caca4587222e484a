"""Spectators: which connections watch which game.

A watch is two items, written and deleted together: ``GAME#g`` / ``WATCH#c``
(a game's watchers are one query of its partition, for the fan-out) and
``CONN#c`` / ``WATCH#g`` (a connection's watches, deleted with the connection
at ``$disconnect`` or when a post finds it gone). Both carry ``expires_at``: a
connection that vanished without ``$disconnect`` is forgotten by the TTL, and
reads skip an expired watch before the TTL gets to it (DynamoDB's deletes late).
The game's item carries ``batch`` when the connection takes batched events.
"""

from __future__ import annotations

from numbridge.store import keys
from numbridge.store.port import MAX_TRANSACTION_ITEMS, Delete, Item, KeyRange, Put, Store
from numbridge.values import frozen

# As long as a connection's own item: API Gateway closes every connection after 2 h.
WATCH_TTL_S = 3 * 3600


@frozen
class Audience:
    """A game's version and how many connections watch it, read together."""

    v: int
    watchers: int


@frozen
class Receiver:
    """A connection frames are posted to, and whether it takes batched events."""

    connection: str
    batch: bool


def _current(item: Item, now_ms: int) -> bool:
    return int(item.get("expires_at", 0)) > now_ms // 1000


class Watches:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, game_id: str, connection_id: str, player: str, now_ms: int,
            batch: bool = False) -> None:
        """Watch (again: the TTL starts over)."""
        expires = now_ms // 1000 + WATCH_TTL_S
        self.store.transact([
            Put({"pk": keys.game(game_id), "sk": keys.watcher(connection_id),
                 "player": player, "expires_at": expires, "batch": True if batch else None}),
            Put({"pk": keys.connection(connection_id), "sk": keys.watched(game_id),
                 "expires_at": expires}),
        ])

    def remove(self, game_id: str, connection_id: str, now_ms: int) -> bool:
        """Stop watching; whether the connection was watching the game."""
        item = self.store.get(keys.connection(connection_id), keys.watched(game_id))
        if item is None:
            return False
        self.store.transact(self._deletes(game_id, connection_id))
        return _current(item, now_ms)

    def of_game(self, game_id: str, now_ms: int) -> list[str]:
        """The connections watching a game."""
        return [r.connection for r in self.receivers(game_id, now_ms)]

    def receivers(self, game_id: str, now_ms: int) -> list[Receiver]:
        """The connections watching a game, each with whether it takes batched events."""
        page = self.store.query(keys.game(game_id), KeyRange(prefix=keys.WATCH_PREFIX))
        return [Receiver(str(i["sk"]).removeprefix(keys.WATCH_PREFIX), i.get("batch") is True)
                for i in page.items if _current(i, now_ms)]

    def audience(self, game_id: str, now_ms: int) -> Audience | None:
        """The game's version and its watchers in one query (they sort right after its
        state); None if there is no such game."""
        page = self.store.query(keys.game(game_id),
                                KeyRange(low=keys.STATE, high=keys.WATCHERS_END))
        head = next((i for i in page.items if i["sk"] == keys.STATE), None)
        if head is None:
            return None
        watchers = sum(1 for i in page.items
                       if str(i["sk"]).startswith(keys.WATCH_PREFIX) and _current(i, now_ms))
        return Audience(int(head["v"]), watchers)

    def drop_connection(self, connection_id: str) -> None:
        """Forget every watch of a connection (it closed, or a post found it gone)."""
        page = self.store.query(keys.connection(connection_id),
                                KeyRange(prefix=keys.WATCH_PREFIX))
        games = [str(i["sk"]).removeprefix(keys.WATCH_PREFIX) for i in page.items]
        per_transaction = MAX_TRANSACTION_ITEMS // 2
        for start in range(0, len(games), per_transaction):
            self.store.transact([write for game_id in games[start:start + per_transaction]
                                 for write in self._deletes(game_id, connection_id)])

    @staticmethod
    def _deletes(game_id: str, connection_id: str) -> list[Delete]:
        return [Delete(keys.game(game_id), keys.watcher(connection_id)),
                Delete(keys.connection(connection_id), keys.watched(game_id))]
