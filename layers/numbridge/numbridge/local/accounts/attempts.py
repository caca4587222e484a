"""How many sign-in attempts a name, or an address, may have refused: a bucket each, in
this process (the local server is one process).

A name allows :data:`NAME_BURST` refusals, then one per :data:`NAME_REFILL_S`; an
address :data:`ADDRESS_BURST`, then one per :data:`ADDRESS_REFILL_S`. A name's
bucket keeps a guesser from one account, an address's from many; an address's
also pays for each account it creates (each costs a slow hash). Every attempt is
charged to both before any password is checked (:meth:`Attempts.spend`) and given
back when it succeeds (:meth:`Attempts.refund`): concurrent guesses cannot all pass
a check that is only charged once they are answered. When a bucket is empty the
request is refused before any work.
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

    def refund(self, key: str) -> None:
        """Give back one charge (an attempt that succeeded)."""
        with self._lock:
            now = self._clock()
            if key in self._spent:
                self._spent[key] = (max(0.0, self._level(key, now) - 1), now)

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

    def spend(self, folded_name: str, address: str) -> int | None:
        """Charge an attempt to both buckets before it is made; if either is empty, charge
        neither and say how long until both allow one. Called from one thread (the event
        loop), so no attempt slips between the check and the charge."""
        if (wait := self.wait_ms(folded_name, address)) is not None:
            return wait
        self.names.charge(folded_name)
        self.addresses.charge(address)
        return None

    def refund(self, folded_name: str, address: str, *, created: bool = False) -> None:
        """An attempt that succeeded costs nothing; a new account still costs its address."""
        self.names.refund(folded_name)
        if not created:
            self.addresses.refund(address)
