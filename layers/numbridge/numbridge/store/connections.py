"""WebSocket connections: which player each belongs to, and each player's devices.

Both items of a connection carry ``batch`` when it asked for batched events
(``batch=1``); rows written before had no such attribute and read as not batched.
"""

from __future__ import annotations

from numbridge.store import keys
from numbridge.store.port import Item, KeyRange, Put, Store
from numbridge.store.watches import Receiver, Watches
from numbridge.values import frozen

CONNECTION_TTL_S = 3 * 3600  # API Gateway closes connections after 2 h


@frozen
class Connection:
    player: str
    batch: bool


class Connections:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, connection_id: str, player: str, now_ms: int, batch: bool = False) -> None:
        expires = now_ms // 1000 + CONNECTION_TTL_S
        flag = True if batch else None
        self.store.transact([
            Put({"pk": keys.connection(connection_id), "sk": keys.CONN, "player": player,
                 "connected_ms": now_ms, "expires_at": expires, "batch": flag}),
            Put({"pk": keys.player(player), "sk": keys.connection(connection_id),
                 "expires_at": expires, "batch": flag}),
        ])

    @staticmethod
    def key(connection_id: str) -> tuple[str, str]:
        return keys.connection(connection_id), keys.CONN

    @staticmethod
    def parse(item: Item | None) -> Connection | None:
        """The connection in its stored item (``None``: no such connection)."""
        if item is None:
            return None
        return Connection(str(item["player"]), item.get("batch") is True)

    def get(self, connection_id: str) -> Connection | None:
        return self.parse(self.store.get(*self.key(connection_id)))

    def player_of(self, connection_id: str) -> str | None:
        found = self.get(connection_id)
        return None if found is None else found.player

    def remove(self, connection_id: str) -> str | None:
        """Forget a connection and its watches; the player it belonged to, if it was known."""
        Watches(self.store).drop_connection(connection_id)
        old = self.store.delete(keys.connection(connection_id), keys.CONN)
        if old is None:
            return None
        player = str(old["player"])
        self.store.delete(keys.player(player), keys.connection(connection_id))
        return player

    def of_player(self, player: str) -> list[str]:
        return [r.connection for r in self.receivers(player)]

    def receivers(self, player: str) -> list[Receiver]:
        """The player's connections, each with whether it takes batched events."""
        page = self.store.query(keys.player(player), KeyRange(prefix=keys.CONN_PREFIX))
        return [Receiver(str(item["sk"]).removeprefix(keys.CONN_PREFIX),
                         item.get("batch") is True) for item in page.items]
