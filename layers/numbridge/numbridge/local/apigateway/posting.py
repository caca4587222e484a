"""The management port's ``post_to_connection`` as a function call into the gateway.

``numbridge serve`` holds the sockets it posts to, so a post need not be signed,
serialised and sent over HTTP back to this same process. The answers are the
HTTP endpoint's (local.management): a connection that is not open is gone (410,
``GoneException``), a frame over the limit is too large (413,
``PayloadTooLargeException``); both are raised as boto3 raises them, at once,
in the caller's thread.

A post that is accepted is queued for the event loop that owns the sockets and
the caller goes on, as API Gateway answers a post before the client has read
it: waiting for each write would cost the handler thread and the loop a wake-up
each per frame. A caller's frames to one connection are written in the order
they were posted (one queue, one writer per connection); a connection that
closes meanwhile loses what was still queued for it, as it would in AWS.

``delete_connection`` closes a connection (``DeleteConnection``) after the frames
posted to it before: with the close code and reason it was made with (the server's
gateway passes 4001 "token expired": the one reason the server closes a socket).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import deque
from collections.abc import Callable, Coroutine

from botocore.exceptions import ClientError

from numbridge.local.apigateway.management import MAX_DATA_BYTES
from numbridge.local.apigateway.sockets import Connection, ConnectionRegistry

log = logging.getLogger("numbridge.local")


def _error(status: int, code: str, message: str) -> ClientError:
    return ClientError(
        {"Error": {"Code": code, "Message": message},
         "ResponseMetadata": {"HTTPStatusCode": status}},
        "PostToConnection")


Closer = Callable[[Connection], Coroutine[object, object, None]]


class LocalManagementClient:
    """What ``Notifier`` needs of a management client, for any thread."""

    def __init__(self, registry: ConnectionRegistry, loop: asyncio.AbstractEventLoop,
                 close: Closer) -> None:
        self._registry = registry
        self._loop = loop
        self._close = close
        self._lock = threading.Lock()
        # under the lock: frames to write, and None for a close after them
        self._posted: list[tuple[Connection, str | None]] = []
        self._wake_pending = False  # under the lock: the loop will take ``_posted``
        # On the loop only: each connection's frames not yet written, and its writer.
        self._outboxes: dict[str, deque[str | None]] = {}
        self._writers: set[asyncio.Task[None]] = set()

    def post_to_connection(self, *, ConnectionId: str, Data: bytes) -> None:
        connection = self._registry.get(ConnectionId)
        if connection is None:
            raise _error(410, "GoneException", f"Connection {ConnectionId} is gone")
        if len(Data) > MAX_DATA_BYTES:
            raise _error(413, "PayloadTooLargeException", "Message too long")
        self._queue(connection, Data.decode("utf-8"))

    def delete_connection(self, *, ConnectionId: str) -> None:
        connection = self._registry.get(ConnectionId)
        if connection is None:
            raise _error(410, "GoneException", f"Connection {ConnectionId} is gone")
        self._queue(connection, None)

    def _queue(self, connection: Connection, text: str | None) -> None:
        with self._lock:
            self._posted.append((connection, text))
            if self._wake_pending:
                return  # the loop has yet to take the posts: it takes this one too
            self._wake_pending = True
        self._loop.call_soon_threadsafe(self._take_posted)

    def _take_posted(self) -> None:
        with self._lock:
            posted, self._posted = self._posted, []
            self._wake_pending = False
        for connection, text in posted:
            outbox = self._outboxes.get(connection.id)
            if outbox is not None:
                outbox.append(text)  # its writer is running: it writes this after the rest
                continue
            self._outboxes[connection.id] = deque([text])
            writer = self._loop.create_task(self._write(connection))
            self._writers.add(writer)
            writer.add_done_callback(self._writers.discard)

    async def _write(self, connection: Connection) -> None:
        outbox = self._outboxes[connection.id]
        try:
            while outbox:
                text = outbox.popleft()
                if text is None:
                    await self._close(connection)
                    return
                await connection.socket.send_str(text)
                connection.touch()
        except Exception as exc:  # closed meanwhile: its $disconnect forgets it
            log.debug("post to %s dropped (%s)", connection.id, exc)
        finally:
            del self._outboxes[connection.id]
