"""How many sign-in failures a name, or an address, may make: a bucket each, in this
process (the local server is one process).

A name allows :data:`NAME_BURST` failures, then one per :data:`NAME_REFILL_S`; an
address :data:`ADDRESS_BURST`, then one per :data:`ADDRESS_REFILL_S`. A name's
bucket keeps a guesser from one account, an address's from many; an address's
also pays for each account it creates (each costs a slow hash). When a bucket is
empty the request is refused before any password is checked.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Final

NAME_BURST: Final = 5
NAME_REFILL_S: Final = 60.0
ADDRESS_BURST: Final = 20
ADDRESS_REFILL_S: Final = 15.0
MAX_BUCKETS: Final = 10_000  # the least recently charged go first


class Buckets:
    """Failures allowed per key: ``burst`` at once, one more every ``refill_s``."""

    def __init__(self, burst: int, refill_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.refill_s = refill_s
        self._clock = clock
        self._spent: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def _level(self, key: str, now: float) -> float:
        spent, at = self._spent.get(key, (0.0, now))
        return max(0.0, spent - (now - at) / self.refill_s)

    def wait_ms(self, key: str) -> int | None:
        """None if ``key`` may try now, else how long until it may."""
        with self._lock:
            now = self._clock()
            level = self._level(key, now)
            if level + 1 <= self.burst:
                return None
            return max(1, math.ceil((level + 1 - self.burst) * self.refill_s * 1000))

    def charge(self, key: str) -> None:
        with self._lock:
            now = self._clock()
            level = self._level(key, now)
            self._spent.pop(key, None)
            self._spent[key] = (level + 1, now)
            if len(self._spent) > MAX_BUCKETS:
                self._spent.popitem(last=False)


class Attempts:
    """The two limits of sign-in together."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.names = Buckets(NAME_BURST, NAME_REFILL_S, clock)
        self.addresses = Buckets(ADDRESS_BURST, ADDRESS_REFILL_S, clock)

    def wait_ms(self, folded_name: str, address: str) -> int | None:
        waits = [w for w in (self.names.wait_ms(folded_name), self.addresses.wait_ms(address))
                 if w is not None]
        return max(waits) if waits else None

    def failed(self, folded_name: str, address: str) -> None:
        self.names.charge(folded_name)
        self.addresses.charge(address)

    def created(self, address: str) -> None:
        self.addresses.charge(address)
