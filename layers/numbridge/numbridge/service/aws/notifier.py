"""Posting frames to connections through the API Gateway management API.

A post to a gone connection (410, ``GoneException``) forgets *that* connection
(and its watches); it never touches the sender's. API Gateway answers 410 as well to a
connection still connecting (its ``$connect`` has written its item and not returned, or
the handshake has not completed): one that connected less than :data:`CONNECTING_MS`
ago loses the frame but is not forgotten, or its first request would be answered
``unauthorized`` (after a restart every client reconnects at once, and each
``$connect`` tells the player's opponents, whose new connections are in that window).

``close`` ends a connection (``DeleteConnection``: one whose token has expired) and
forgets it. Many connections are posted to at once (a game's watchers may be many): a
small thread pool, each connection's own frames still in order.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from botocore.exceptions import ClientError

from numbridge.service.observability import count, logger
from numbridge.store.connections import Connections, Removed

# Posts at once; the management client's connection pool is as large (service.context).
CONCURRENT_POSTS = 16
# The lobby's fan-out posts one frame to every subscriber: at ~20 ms a post, 16 at once
# is 800 a second; 64 tell 2,000 subscribers in well under a second (docs/lobby-push.md).
FANOUT_POSTS = 64

# A connection younger than this may still be connecting: API Gateway's integration
# timeout (29 s) bounds its $connect.
CONNECTING_MS = 30_000

_pools: dict[int, ThreadPoolExecutor] = {}
_pool_lock = threading.Lock()


def _shared_pool(size: int = CONCURRENT_POSTS) -> ThreadPoolExecutor:
    """One pool of each size per process (a warm Lambda container keeps it between
    invocations)."""
    with _pool_lock:
        if size not in _pools:
            _pools[size] = ThreadPoolExecutor(size, thread_name_prefix=f"post{size}")
        return _pools[size]


class Notifier:
    def __init__(self, client: Any, connections: Connections, at_once: bool = True,
                 on_removed: Callable[[Removed], None] | None = None,
                 clock: Callable[[], int] | None = None) -> None:
        self.client = client
        self.connections = connections
        self.at_once = at_once
        self.clock = clock or (lambda: time.time_ns() // 1_000_000)
        # Told what a gone connection took with it (a seek: the lobby's count moved).
        self.on_removed = on_removed

    def post(self, connection_id: str, frames: Iterable[dict[str, Any]]) -> bool:
        """Send frames in order to one connection; False if it is gone (and forgotten)."""
        for frame in frames:
            try:
                self.client.post_to_connection(
                    ConnectionId=connection_id,
                    Data=json.dumps(frame, separators=(",", ":")).encode(),
                )
            except ClientError as exc:
                code = exc.response.get("Error", {}).get("Code", "")
                if code in {"GoneException", "410"}:
                    if self._connecting(connection_id):
                        logger.info("post to a connection still connecting dropped",
                                    extra={"connection": connection_id})
                        return False
                    logger.info("stale connection removed", extra={"connection": connection_id})
                    self._forget(connection_id)
                    return False
                logger.warning("post failed", extra={"connection": connection_id, "code": code})
                return False
        return True

    def close(self, connection_id: str) -> None:
        """End a connection from the server's side (``DeleteConnection``) and forget it
        and its watches; one already gone is only forgotten."""
        try:
            self.client.delete_connection(ConnectionId=connection_id)
        except ClientError as exc:
            code = exc.response.get("Error", {}).get("Code", "")
            if code not in {"GoneException", "410"}:
                logger.warning("close failed", extra={"connection": connection_id,
                                                      "code": code})
        self._forget(connection_id)

    def _connecting(self, connection_id: str) -> bool:
        """Whether a connection a post found Gone may still be connecting."""
        item = self.connections.store.get(*Connections.key(connection_id))
        connected = None if item is None else item.get("connected_ms")
        return type(connected) is int and self.clock() - connected < CONNECTING_MS

    def _forget(self, connection_id: str) -> None:
        removed = self.connections.remove_all(connection_id)
        if self.on_removed is not None:
            self.on_removed(removed)

    def post_all(self, deliveries: Mapping[str, Sequence[dict[str, Any]]],
                 at_once: int = CONCURRENT_POSTS) -> None:
        """Send each connection its frames, ``at_once`` connections at a time. A post that
        fails is logged and skipped: the change stands, and clients catch up by ``v``."""
        if len(deliveries) <= 1 or not self.at_once:
            for connection_id, frames in deliveries.items():
                self._post_or_log(connection_id, frames)
            return
        pool = _shared_pool(at_once)
        posts = [pool.submit(self._post_or_log, c, f) for c, f in deliveries.items()]
        for done in posts:
            done.result()  # re-raises only what is no Exception (the process exiting)

    def _post_or_log(self, connection_id: str, frames: Sequence[dict[str, Any]]) -> None:
        try:
            self.post(connection_id, frames)
        except Exception:
            count("PushFailures")
            logger.exception("push failed; the client catches up by v",
                             extra={"connection": connection_id})
