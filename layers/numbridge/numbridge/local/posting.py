"""The management port's ``post_to_connection`` as a function call into the gateway.

``numbridge serve`` holds the sockets it posts to, so a post need not be signed,
serialised and sent over HTTP back to this same process. The answers are the
HTTP endpoint's (local.management): a connection that is not open is gone (410,
``GoneException``), a frame over the limit is too large (413,
``PayloadTooLargeException``); both are raised as boto3 raises them. A caller's
frames to one connection arrive in order: each post waits for its write.
"""

from __future__ import annotations

import asyncio

from botocore.exceptions import ClientError

from numbridge.local.management import MAX_DATA_BYTES
from numbridge.local.sockets import ConnectionRegistry


def _error(status: int, code: str, message: str) -> ClientError:
    return ClientError(
        {"Error": {"Code": code, "Message": message},
         "ResponseMetadata": {"HTTPStatusCode": status}},
        "PostToConnection")


class LocalManagementClient:
    """What ``Notifier`` needs of a management client, for handler threads."""

    def __init__(self, registry: ConnectionRegistry, loop: asyncio.AbstractEventLoop) -> None:
        self._registry = registry
        self._loop = loop

    def post_to_connection(self, *, ConnectionId: str, Data: bytes) -> None:
        future = asyncio.run_coroutine_threadsafe(self._post(ConnectionId, Data), self._loop)
        future.result()

    async def _post(self, connection_id: str, data: bytes) -> None:
        connection = self._registry.get(connection_id)
        if connection is None:
            raise _error(410, "GoneException", f"Connection {connection_id} is gone")
        if len(data) > MAX_DATA_BYTES:
            raise _error(413, "PayloadTooLargeException", "Message too long")
        try:
            await connection.socket.send_str(data.decode("utf-8"))
        except ConnectionError as exc:
            raise _error(410, "GoneException",
                         f"Connection {connection_id} is gone") from exc
        connection.touch()
