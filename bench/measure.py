"""What every bench reports with: a percentile of its samples, and the machine's speed
at the time (runs on machines 3 to 7 times apart are compared by it)."""

from __future__ import annotations

import time
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The sample at quantile ``q`` (0 to 1) of ``values``, nearest rank; NaN for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def machine_speed() -> float:
    """Milliseconds for a fixed pure-Python workload: compare runs across machines/loads."""
    started = time.perf_counter()
    total = 0
    for i in range(1_000_000):
        total += i & 7
    return (time.perf_counter() - started) * 1000
