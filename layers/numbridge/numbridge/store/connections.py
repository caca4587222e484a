"""WebSocket connections: which player each belongs to, and each player's devices."""

from __future__ import annotations

from numbridge.store.table import Table, Write

CONNECTION_TTL_S = 3 * 3600  # API Gateway closes connections after 2 h


def _conn_pk(connection_id: str) -> str:
    return f"CONN#{connection_id}"


def _player_pk(player: str) -> str:
    return f"PLAYER#{player}"


class Connections:
    def __init__(self, table: Table) -> None:
        self.table = table

    def add(self, connection_id: str, player: str, now_ms: int) -> None:
        expires = now_ms // 1000 + CONNECTION_TTL_S
        self.table.transact([
            Write.put({"pk": _conn_pk(connection_id), "sk": "CONN", "player": player,
                       "connected_ms": now_ms, "expires_at": expires}),
            Write.put({"pk": _player_pk(player), "sk": _conn_pk(connection_id),
                       "expires_at": expires}),
        ])

    def player_of(self, connection_id: str) -> str | None:
        item = self.table.get(_conn_pk(connection_id), "CONN", consistent=False)
        return None if item is None else str(item["player"])

    def remove(self, connection_id: str) -> str | None:
        """Forget a connection; the player it belonged to, if it was known."""
        old = self.table.delete(_conn_pk(connection_id), "CONN")
        if old is None:
            return None
        player = str(old["player"])
        self.table.delete(_player_pk(player), _conn_pk(connection_id))
        return player

    def of_player(self, player: str) -> list[str]:
        return [
            item["sk"].removeprefix("CONN#")
            for item in self.table.query(_player_pk(player), "CONN#")
        ]
