"""The open WebSocket connections, by connection id."""

from __future__ import annotations

from dataclasses import dataclass, field

from aiohttp import web

from numbridge.local.apigateway.gateway_events import Client, now_ms

GOING_AWAY = 1001


@dataclass
class Connection:
    """An open socket and what API Gateway remembers about it."""

    client: Client
    socket: web.WebSocketResponse
    last_active_ms: int = field(default_factory=now_ms)

    @property
    def id(self) -> str:
        return self.client.connection_id

    def touch(self) -> None:
        self.last_active_ms = now_ms()


class ConnectionRegistry:
    """Connections that are open: only these can be posted to (others are gone, 410)."""

    def __init__(self) -> None:
        self._open: dict[str, Connection] = {}

    def add(self, connection: Connection) -> None:
        self._open[connection.id] = connection

    def get(self, connection_id: str) -> Connection | None:
        connection = self._open.get(connection_id)
        if connection is None or connection.socket.closed:
            return None
        return connection

    def remove(self, connection_id: str) -> Connection | None:
        return self._open.pop(connection_id, None)

    def __len__(self) -> int:
        return len(self._open)

    def all(self) -> list[Connection]:
        return list(self._open.values())
