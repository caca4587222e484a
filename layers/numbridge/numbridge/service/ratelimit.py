"""A request rate limit: a token bucket for each connection and each player, in this
process.

Every runtime applies it the same way, in the message handler: the connection's
bucket before any store read (a flood costs no read), the player's once the
connection's player is known (a player's devices together get no more). Each
allows a burst of :data:`BURST` requests, then :data:`PER_SECOND` a second.
Beyond that the answer is ``rate_limited`` with ``retry_after_ms``.

In AWS each Lambda container keeps its own buckets, so a player spread over
N warm containers gets up to N times the rate; API Gateway's stage throttling
(template.yaml) caps the total. A limit exact across containers would cost a
conditional write per request (docs/design.md weighs it).

A deployment sets the limit with ``NUMBRIDGE_RATE_BURST`` and
``NUMBRIDGE_RATE_PER_SECOND`` (:meth:`RateLimiter.from_env`).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Mapping

# A person sends a few requests a second; a bot answering at once, a few dozen.
BURST = 100
PER_SECOND = 50.0
MAX_PLAYERS = 50_000  # buckets kept; the least recently seen go first


class RateLimiter:
    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND,
                 max_players: int = MAX_PLAYERS) -> None:
        self.burst = burst
        self.per_second = per_second
        self.max_players = max_players
        self._buckets: OrderedDict[str, tuple[float, int]] = OrderedDict()
        self._lock = threading.Lock()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> RateLimiter:
        """The limit a deployment configured, else the defaults; a value that is not a
        positive number is refused at start, not taken as no limit."""
        env = os.environ if env is None else env
        burst = int(env.get("NUMBRIDGE_RATE_BURST", BURST))
        per_second = float(env.get("NUMBRIDGE_RATE_PER_SECOND", PER_SECOND))
        if burst < 1 or not per_second > 0:
            raise ValueError("NUMBRIDGE_RATE_BURST and NUMBRIDGE_RATE_PER_SECOND must be positive")
        return cls(burst=burst, per_second=per_second)

    def take(self, player: str, now_ms: int) -> int | None:
        """Spend one request of ``player``'s (a player's or a connection's bucket);
        None if allowed, else ms until the next."""
        with self._lock:
            tokens, at_ms = self._buckets.pop(player, (float(self.burst), now_ms))
            tokens = min(float(self.burst),
                         tokens + max(0, now_ms - at_ms) * self.per_second / 1000)
            allowed = tokens >= 1
            if allowed:
                tokens -= 1
            self._buckets[player] = (tokens, now_ms)
            if len(self._buckets) > self.max_players:
                self._buckets.popitem(last=False)
            if allowed:
                return None
            return max(1, int((1 - tokens) * 1000 / self.per_second) + 1)
