"""Posting frames to connections through the API Gateway management API.

A post to a gone connection (410, ``GoneException``) forgets *that* connection;
it never touches the sender's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from botocore.exceptions import ClientError

from numbridge.service.observability import logger
from numbridge.store.connections import Connections


class Notifier:
    def __init__(self, client: Any, connections: Connections) -> None:
        self.client = client
        self.connections = connections

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
                    logger.info("stale connection removed", extra={"connection": connection_id})
                    self.connections.remove(connection_id)
                    return False
                logger.warning("post failed", extra={"connection": connection_id, "code": code})
                return False
        return True

    def to_player(self, player: str, frames: list[dict[str, Any]]) -> None:
        """Send frames to every open connection of a player (all their devices)."""
        for connection_id in self.connections.of_player(player):
            self.post(connection_id, frames)
