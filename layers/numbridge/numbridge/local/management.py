"""The ``@connections`` management API, as boto3's ``apigatewaymanagementapi`` calls it.

``POST`` sends the body to the connection as one frame, ``GET`` describes the
connection, ``DELETE`` closes it; each answers 410 ``GoneException`` when the
connection is not open. Requests are signed (SigV4); the signature is ignored.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Callable, Coroutine

from aiohttp import web

from numbridge.local.gateway_events import STAGE
from numbridge.local.sockets import Connection, ConnectionRegistry

log = logging.getLogger("numbridge.local")

MAX_DATA_BYTES = 128 * 1024
DELETED = 1000

Closer = Callable[[Connection, int, str], Coroutine[object, object, None]]


def _error(status: int, kind: str, message: str) -> web.Response:
    return web.json_response(
        {"message": message}, status=status, headers={"x-amzn-ErrorType": kind}
    )


def _gone(connection_id: str) -> web.Response:
    return _error(410, "GoneException", f"Connection {connection_id} is gone")


def _iso(epoch_ms: int) -> str:
    at = dt.datetime.fromtimestamp(epoch_ms / 1000, tz=dt.UTC)
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"


class ManagementApi:
    """``/@connections/{connectionId}`` (also under ``/local/``, the stage)."""

    def __init__(self, registry: ConnectionRegistry, close: Closer) -> None:
        self._registry = registry
        self._close = close
        self._closing: set[asyncio.Task[None]] = set()

    def add_routes(self, app: web.Application) -> None:
        for prefix in ("", f"/{STAGE}"):
            path = prefix + "/@connections/{connection_id}"
            app.router.add_post(path, self.post)
            app.router.add_get(path, self.get)
            app.router.add_delete(path, self.delete)

    def _open(self, request: web.Request) -> tuple[str, Connection | None]:
        connection_id = request.match_info["connection_id"]
        return connection_id, self._registry.get(connection_id)

    async def post(self, request: web.Request) -> web.Response:
        connection_id, connection = self._open(request)
        if connection is None:
            return _gone(connection_id)
        data = await request.read()
        if len(data) > MAX_DATA_BYTES:
            return _error(413, "PayloadTooLargeException", "Message too long")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        try:
            if text is None:
                await connection.socket.send_bytes(data)
            else:
                await connection.socket.send_str(text)
        except ConnectionError:
            return _gone(connection_id)
        connection.touch()
        return web.Response(status=200)

    async def get(self, request: web.Request) -> web.Response:
        connection_id, connection = self._open(request)
        if connection is None:
            return _gone(connection_id)
        client = connection.client
        identity = {"sourceIp": client.source_ip, "userAgent": client.user_agent or ""}
        return web.json_response(
            {
                "connectedAt": _iso(client.connected_at_ms),
                "identity": identity,
                "lastActiveAt": _iso(connection.last_active_ms),
            }
        )

    async def delete(self, request: web.Request) -> web.Response:
        connection_id, connection = self._open(request)
        if connection is None:
            return _gone(connection_id)
        # Gone from now on; the close handshake finishes in the background.
        self._registry.remove(connection_id)
        task = asyncio.create_task(self._close(connection, DELETED, "Connection deleted"))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return web.Response(status=204)
