"""Helpers of the local runtime's tests: AWS clients for moto, dummy handlers that record."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from numbridge.local.apigateway.management import sign_requests
from testkit.moto_server import client

Event = dict[str, Any]


def aws_client(service: str, endpoint: str) -> Any:
    return client(service, endpoint)


def management_client(endpoint: str, key: bytes) -> Any:
    """boto3's ``apigatewaymanagementapi`` for a local gateway, signing as its server does."""
    return sign_requests(client("apigatewaymanagementapi", endpoint), key)


class Recorder:
    """Dummy Lambda handlers: each records ``(function, event)`` and may act on it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Event]] = []
        self._changed = threading.Condition()

    def handler(
        self, name: str, action: Callable[[Event], Any] | None = None
    ) -> Callable[[Event, Any], Any]:
        def handle(event: Event, context: Any) -> Any:
            assert context.get_remaining_time_in_millis() > 0
            result = action(event) if action is not None else None
            with self._changed:
                self.calls.append((name, event))
                self._changed.notify_all()
            return result

        return handle

    def events(self, name: str) -> list[Event]:
        with self._changed:
            return [event for called, event in self.calls if called == name]

    def wait_for(self, name: str, count: int = 1, timeout: float = 10.0) -> list[Event]:
        """The first ``count`` events of function ``name``, waiting for them up to ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = [event for called, event in self.calls if called == name]
                if len(found) >= count:
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"{name}: {len(found)} of {count} events after {timeout}s")
                self._changed.wait(remaining)
