"""The ``@connections`` management API, as boto3's ``apigatewaymanagementapi`` calls it.

``POST`` sends the body to the connection as one frame, ``GET`` describes the
connection, ``DELETE`` closes it; each answers 410 ``GoneException`` when the
connection is not open.

Only the process that runs the server may call it: every request carries
``X-Numbridge-Signature``, an HMAC-SHA256 of its method, path and body under a
secret of the process (as SigV4 signs API Gateway's, without the date: the key
lives and dies with the process); any other request is refused 403
``ForbiddenException`` before it is read further. Anyone else who reaches the
port — another user of the machine, a LAN neighbour of a ``0.0.0.0`` server —
cannot post to a player, read a connection or close it, even knowing its id.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import unquote, urlsplit

from aiohttp import web

from numbridge.local.apigateway.gateway_events import STAGE
from numbridge.local.apigateway.sockets import Connection, ConnectionRegistry

log = logging.getLogger("numbridge.local")

MAX_DATA_BYTES = 128 * 1024
DELETED = 1000
SIGNATURE_HEADER = "X-Numbridge-Signature"

Closer = Callable[[Connection, int, str], Coroutine[object, object, None]]
Handler = Callable[[web.Request], Coroutine[object, object, web.Response]]


def _error(status: int, kind: str, message: str) -> web.Response:
    return web.json_response(
        {"message": message}, status=status, headers={"x-amzn-ErrorType": kind}
    )


def _forbidden() -> web.Response:
    return _error(403, "ForbiddenException", "Forbidden: not signed by this server")


def _gone(connection_id: str) -> web.Response:
    return _error(410, "GoneException", f"Connection {connection_id} is gone")


def _iso(epoch_ms: int) -> str:
    at = dt.datetime.fromtimestamp(epoch_ms / 1000, tz=dt.UTC)
    return at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"


def new_key() -> bytes:
    return secrets.token_bytes(32)


def signature(key: bytes, method: str, path: str, body: bytes) -> str:
    """The signature of one request; ``path`` decoded (``/@connections/abc=``)."""
    mac = hmac.new(key, f"{method.upper()}\n{path}\n".encode(), hashlib.sha256)
    mac.update(body)
    return mac.hexdigest()


def sign_requests(client: Any, key: bytes) -> Any:
    """``client`` (boto3's ``apigatewaymanagementapi``) signing every request for this
    server."""

    def add_signature(request: Any, **_: Any) -> None:
        body = request.body if isinstance(request.body, bytes) else (
            str(request.body or "").encode())
        path = unquote(urlsplit(request.url).path)
        request.headers[SIGNATURE_HEADER] = signature(key, request.method, path, body)

    client.meta.events.register("before-sign.apigatewaymanagementapi", add_signature)
    return client


class ManagementApi:
    """``/@connections/{connectionId}`` (also under ``/local/``, the stage), for requests
    signed with ``key``."""

    def __init__(self, registry: ConnectionRegistry, close: Closer,
                 key: bytes | None = None) -> None:
        self._registry = registry
        self._close = close
        self._closing: set[asyncio.Task[None]] = set()
        self.key = key or new_key()

    def add_routes(self, app: web.Application) -> None:
        for prefix in ("", f"/{STAGE}"):
            path = prefix + "/@connections/{connection_id}"
            app.router.add_post(path, self._signed(self.post))
            app.router.add_get(path, self._signed(self.get))
            app.router.add_delete(path, self._signed(self.delete))

    def _signed(self, handler: Handler) -> Handler:
        async def checked(request: web.Request) -> web.Response:
            body = await request.read()  # at most aiohttp's client_max_size (1 MiB)
            given = request.headers.get(SIGNATURE_HEADER, "")
            wanted = signature(self.key, request.method, request.path, body)
            if not hmac.compare_digest(given.encode(), wanted.encode()):
                return _forbidden()
            return await handler(request)

        return checked

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
