"""The WebSocket endpoint: API Gateway's side of each connection.

The handshake becomes a ``$connect`` event (a status ≥ 400 from the handler
refuses it), each text frame a ``MESSAGE`` event on the route its ``action``
selects, the close a ``$disconnect`` event. The events of one connection are
handled one after another, in the order they arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Mapping
from typing import Any

from aiohttp import WSMsgType, web

from numbridge.auth import expiry_of
from numbridge.local.apigateway import ids
from numbridge.local.apigateway.gateway_events import (
    Client,
    Event,
    connect_event,
    disconnect_event,
    message_event,
    now_ms,
)
from numbridge.local.apigateway.routing import CONNECT, DISCONNECT, KEEPALIVE, select_route
from numbridge.local.apigateway.sockets import GOING_AWAY, Connection, ConnectionRegistry
from numbridge.local.lambdas.functions import Function, Invoker
from numbridge.values import frozen

log = logging.getLogger("numbridge.local")

# API Gateway's limits, mirrored: a message over 128 KB closes the connection
# with 1009 (aiohttp does that for ``max_msg_size``), a binary frame closes it
# with 1003 ("API Gateway WebSocket APIs don't currently support binary frames
# ... disconnects the client with code 1003"; the quotas page: "If a larger
# message (or larger frame size) is received, the connection is closed with
# code 1009"). Not mirrored: API Gateway's 32 KB limit on a single frame
# (aiohttp only sees whole messages), so locally a frame of 32-128 KB is
# delivered where API Gateway would close. Every frame that is delivered gets
# an answer from the handlers, never a close.
MAX_MESSAGE_BYTES = 128 * 1024
UNSUPPORTED_DATA = 1003
NO_STATUS = 1005
ABNORMAL = 1006
# A connection is closed when the token it connected with expires (API Gateway cannot
# be told to; there the next request finds out: service.dispatch).
TOKEN_EXPIRED = 4001
TOKEN_EXPIRED_REASON = "token expired"

Work = tuple[Function, Event] | None


@frozen
class GatewaySettings:
    """API Gateway's limits (``None`` turns a time limit off)."""

    max_message_bytes: int = MAX_MESSAGE_BYTES
    idle_timeout_s: float | None = 600.0
    max_connection_s: float | None = 7200.0
    # Reading pace per connection: a client sending faster is not read from (TCP
    # pushes back, at no cost to anyone else) until its bucket refills or its
    # frames in hand are down to ``max_queued``.
    frames_per_second: float | None = 50.0
    frame_burst: int = 100
    max_queued: int = 32


def status_code(response: Any) -> int:
    """The status a ``$connect`` handler answered (200 when it says none)."""
    if isinstance(response, Mapping):
        code = response.get("statusCode")
        if isinstance(code, int):
            return code
        if isinstance(code, str) and code.isdigit():
            return int(code)
    return 200


def gateway_error(message: str, connection_id: str) -> str:
    """The frame API Gateway sends when it cannot deliver a message."""
    return json.dumps(
        {"message": message, "connectionId": connection_id, "requestId": ids.request_id()}
    )


class Gateway:
    """WebSocket connections in, Lambda events out."""

    def __init__(
        self,
        routes: Mapping[str, Function],
        invoker: Invoker,
        registry: ConnectionRegistry,
        settings: GatewaySettings | None = None,
    ) -> None:
        self._routes = dict(routes)
        self._invoker = invoker
        self._registry = registry
        self._settings = settings or GatewaySettings()
        self._workers: set[asyncio.Task[None]] = set()
        self._closing: dict[str, tuple[int, str]] = {}
        self._accepting = True

    async def handle(self, request: web.Request) -> web.StreamResponse:
        # permessage-deflate is negotiated when the client offers it, as API Gateway
        # does; its cost here is measured in docs/load.md (bench/compression_bench.py).
        socket: web.WebSocketResponse = web.WebSocketResponse(
            max_msg_size=self._settings.max_message_bytes, autoping=False
        )
        if not socket.can_prepare(request).ok:
            return web.Response(
                status=426,
                text="Numbridge: connect with a WebSocket client to ws://HOST:PORT/?token=TOKEN\n",
            )
        if not self._accepting:
            return web.Response(status=503, text="Shutting down")
        if len(request.query.getall("token", [])) > 1:
            # $connect reads one token and the expiry timer another: neither may choose.
            return web.Response(status=400, text="Bad Request: one token parameter at most\n")
        client = _client(request)
        status = await self._connect(client, request)
        if not self._accepting:
            status = 503
        if status >= 400:
            log.info("connection refused with %d (%s)", status, client.connection_id)
            return web.Response(status=status, text=_reason(status))
        connection = Connection(client, socket)
        work: asyncio.Queue[Work] = asyncio.Queue()
        worker = asyncio.create_task(self._work(connection, work))
        self._workers.add(worker)
        worker.add_done_callback(self._workers.discard)
        code, reason = ABNORMAL, "Connection lost"
        expiries: list[asyncio.TimerHandle] = []
        try:
            await socket.prepare(request)
            self._registry.add(connection)
            expiries = self._expire_later(connection, expiry_of(request.query.get("token")))
            code, reason = await self._read(connection, work)
        finally:
            for expiry in expiries:
                expiry.cancel()
            self._registry.remove(client.connection_id)
            code, reason = self._closing.pop(client.connection_id, (code, reason))
            disconnect = self._routes.get(DISCONNECT)
            if disconnect is not None:
                work.put_nowait((disconnect, disconnect_event(client, code, reason)))
            work.put_nowait(None)
        return socket

    async def close(self, connection: Connection, code: int, reason: str) -> None:
        """Close a connection from the server's side (``DeleteConnection``, shutdown, limits)."""
        self._closing.setdefault(connection.id, (code, reason))
        self._registry.remove(connection.id)
        await connection.socket.close(code=code, message=reason.encode())

    async def close_all(self, code: int = GOING_AWAY, reason: str = "Going away") -> None:
        """Refuse new connections, close every open one and wait for their ``$disconnect``."""
        self._accepting = False
        await asyncio.gather(
            *(self.close(connection, code, reason) for connection in self._registry.all()),
            return_exceptions=True,
        )
        await self.drain()

    async def drain(self) -> None:
        """Wait until every closed connection's queued events have been handled."""
        while self._workers:
            await asyncio.gather(*list(self._workers), return_exceptions=True)

    async def _connect(self, client: Client, request: web.Request) -> int:
        function = self._routes.get(CONNECT)
        if function is None:
            return 200
        event = connect_event(client, request.headers.items(), request.query.items())
        try:
            return status_code(await self._invoker.invoke(function, event))
        except Exception:
            return 500

    async def _read(self, connection: Connection, work: asyncio.Queue[Work]) -> tuple[int, str]:
        """Receive frames until the socket closes; the close code and reason."""
        socket = connection.socket
        pace = _Pace(self._settings.frame_burst, self._settings.frames_per_second)
        while True:
            try:
                message = await socket.receive(timeout=self._settings.idle_timeout_s)
            except TimeoutError:
                await self.close(connection, GOING_AWAY, "Going away")
                continue
            if message.type is WSMsgType.TEXT:
                connection.touch()
                await self._route(connection, message.data, work)
                await self._pace(pace, work)
            elif message.type is WSMsgType.PING:
                connection.touch()
                await socket.pong(message.data)
            elif message.type is WSMsgType.PONG:
                connection.touch()
            elif message.type is WSMsgType.BINARY:
                await self.close(connection, UNSUPPORTED_DATA, "Binary frames are not supported")
            elif message.type is WSMsgType.CLOSE:
                code = int(message.data) if message.data else NO_STATUS
                reason = message.extra or ""
                if code == NO_STATUS and not reason:
                    reason = "Client-side close frame status not set"
                return code, reason
            elif message.type is WSMsgType.ERROR:
                code = getattr(message.data, "code", None) or socket.close_code or ABNORMAL
                return int(code), str(message.data)
            elif message.type is WSMsgType.CLOSED:
                return int(socket.close_code or ABNORMAL), "Connection closed"
            # CLOSING: the server is closing it; CLOSED follows.

    async def _pace(self, pace: _Pace, work: asyncio.Queue[Work]) -> None:
        """Wait before reading the next frame if this connection is ahead of its pace."""
        while work.qsize() > self._settings.max_queued:
            await asyncio.sleep(0.01)
        wait_s = pace.spend(time.monotonic())
        if wait_s > 0:
            await asyncio.sleep(wait_s)

    async def _route(self, connection: Connection, body: str, work: asyncio.Queue[Work]) -> None:
        route = select_route(body, self._routes)
        if route is None:
            await connection.socket.send_str(gateway_error("Forbidden", connection.id))
            return
        if route == KEEPALIVE:  # answered by nobody, as API Gateway's MOCK route
            return
        work.put_nowait((self._routes[route], message_event(connection.client, route, body)))

    async def _work(self, connection: Connection, work: asyncio.Queue[Work]) -> None:
        while (item := await work.get()) is not None:
            function, event = item
            try:
                await self._invoker.invoke(function, event)
            except Exception:
                if event["requestContext"]["eventType"] == "MESSAGE":
                    error = gateway_error("Internal server error", connection.id)
                    await self._tell(connection, error)

    async def _tell(self, connection: Connection, frame: str) -> None:
        if self._registry.get(connection.id) is None:
            return
        with contextlib.suppress(ConnectionError):
            await connection.socket.send_str(frame)

    def _expire_later(self, connection: Connection,
                      token_expires_at: int | None) -> list[asyncio.TimerHandle]:
        """Timers that close the connection at its life's end and its token's expiry."""
        loop = asyncio.get_running_loop()

        def close(code: int, reason: str) -> None:
            task = asyncio.ensure_future(self.close(connection, code, reason))
            self._workers.add(task)
            task.add_done_callback(self._workers.discard)

        timers = []
        if (limit := self._settings.max_connection_s) is not None:
            timers.append(loop.call_later(limit, close, GOING_AWAY, "Going away"))
        if token_expires_at is not None:
            timers.append(loop.call_later(max(0.0, token_expires_at - time.time()), close,
                                          TOKEN_EXPIRED, TOKEN_EXPIRED_REASON))
        return timers


class _Pace:
    """A token bucket of frames for one connection."""

    def __init__(self, burst: int, per_second: float | None) -> None:
        self.burst = burst
        self.per_second = per_second
        self.tokens = float(burst)
        self.at = time.monotonic()

    def spend(self, now: float) -> float:
        """Spend one frame; how long to wait before the next may be read."""
        if self.per_second is None:
            return 0.0
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.per_second)
        self.at = now
        self.tokens -= 1
        return 0.0 if self.tokens >= 0 else -self.tokens / self.per_second


def _client(request: web.Request) -> Client:
    sockname = request.transport.get_extra_info("sockname") if request.transport else None
    port = int(sockname[1]) if sockname else 0
    return Client(
        connection_id=ids.api_gateway_id(),
        connected_at_ms=now_ms(),
        source_ip=request.remote or "127.0.0.1",
        user_agent=request.headers.get("User-Agent"),
        domain_name=request.host,
        port=port,
    )


def _reason(status: int) -> str:
    known = {401: "Unauthorized", 403: "Forbidden", 429: "Too Many Requests", 503: "Shutting down"}
    return known.get(
        status, "Internal server error" if status >= 500 else "Refused"
    )
