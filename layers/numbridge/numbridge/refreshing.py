"""A value fetched from elsewhere and kept for a bounded time: secrets, signing keys.

A Lambda container lives for hours, so "fetch once" means a rotated secret or
key is never seen; :class:`Refreshing` fetches again once the value is older
than ``max_age_s``. If that fetch fails, the old value is served for up to
``max_stale_s`` more rather than refusing everyone while a dependency
hiccups, and the fetch is retried every ``retry_after_s``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar, cast

T = TypeVar("T")

log = logging.getLogger(__name__)


class Refreshing(Generic[T]):
    """``fetch()`` on first use, and again on the first use after ``max_age_s``."""

    def __init__(
        self,
        fetch: Callable[[], T],
        *,
        max_age_s: float,
        max_stale_s: float = 3600.0,
        retry_after_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
        what: str = "value",
    ) -> None:
        self._fetch = fetch
        self.max_age_s = max_age_s
        self.max_stale_s = max_stale_s
        self.retry_after_s = retry_after_s
        self._clock = clock
        self.what = what
        self._lock = threading.Lock()  # the local runtime calls handlers from threads
        self._value: T | None = None
        self._has_value = False
        self._fetched_at = 0.0
        self._due = 0.0
        self.fetches = 0

    def get(self) -> T:
        """The value, fetched anew if it has aged out (or stale if that fetch fails)."""
        with self._lock:
            now = self._clock()
            if self._has_value and now < self._due:
                return self._current()
            return self._refetch(now)

    def refresh(self, *, unless_younger_than_s: float) -> bool:
        """Fetch now unless the value is younger than that; True if a new value was fetched."""
        with self._lock:
            now = self._clock()
            if self._has_value and now - self._fetched_at < unless_younger_than_s:
                return False
            fetches = self.fetches
            try:
                self._refetch(now)
            except Exception:
                log.warning("refresh of %s failed", self.what, exc_info=True)
                return False
            return self.fetches > fetches

    def _current(self) -> T:
        return cast(T, self._value)

    def _refetch(self, now: float) -> T:
        try:
            value = self._fetch()
        except Exception:
            stale_for = now - self._fetched_at - self.max_age_s
            if not self._has_value or stale_for > self.max_stale_s:
                raise
            log.warning("fetching %s failed; serving the previous one", self.what, exc_info=True)
            self._due = now + self.retry_after_s
            return self._current()
        self.fetches += 1
        self._value, self._has_value = value, True
        self._fetched_at, self._due = now, now + self.max_age_s
        return value
