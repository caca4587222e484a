"""A gate between handlers and snapshots: a snapshot sees no handler half-way through."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Quiesce:
    """Handlers pass it together (:meth:`shared`); a snapshot waits for it alone (:meth:`alone`).

    A waiting snapshot holds back handlers that have not started yet, so a
    steady stream of them cannot starve it.
    """

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._running = 0
        self._alone = False
        self._waiting_alone = 0

    @contextmanager
    def shared(self) -> Iterator[None]:
        with self._changed:
            self._changed.wait_for(lambda: not self._alone and not self._waiting_alone)
            self._running += 1
        try:
            yield
        finally:
            with self._changed:
                self._running -= 1
                self._changed.notify_all()

    @contextmanager
    def alone(self) -> Iterator[None]:
        with self._changed:
            self._waiting_alone += 1
            self._changed.wait_for(lambda: not self._alone and not self._running)
            self._waiting_alone -= 1
            self._alone = True
        try:
            yield
        finally:
            with self._changed:
                self._alone = False
                self._changed.notify_all()
