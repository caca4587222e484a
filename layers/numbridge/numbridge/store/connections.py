"""WebSocket connections: which player each belongs to, and each player's devices."""

from __future__ import annotations

from numbridge.store import keys
from numbridge.store.port import KeyRange, Put, Store
from numbridge.store.watches import Watches

CONNECTION_TTL_S = 3 * 3600  # API Gateway closes connections after 2 h


class Connections:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, connection_id: str, player: str, now_ms: int) -> None:
        expires = now_ms // 1000 + CONNECTION_TTL_S
        self.store.transact([
            Put({"pk": keys.connection(connection_id), "sk": keys.CONN, "player": player,
                 "connected_ms": now_ms, "expires_at": expires}),
            Put({"pk": keys.player(player), "sk": keys.connection(connection_id),
                 "expires_at": expires}),
        ])

    def player_of(self, connection_id: str) -> str | None:
        item = self.store.get(keys.connection(connection_id), keys.CONN)
        return None if item is None else str(item["player"])

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
        page = self.store.query(keys.player(player), KeyRange(prefix=keys.CONN_PREFIX))
        return [str(item["sk"]).removeprefix(keys.CONN_PREFIX) for item in page.items]
