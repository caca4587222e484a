"""Reading hostile frames (numbridge.protocol.wire): what the cheap checks cost.

The suite checks that each is refused, and that a huge integer is never
converted (tests/unit/protocol/test_wire.py); how long that takes is measured
here:

- ``too_deep`` on the worst frame for it, ``[`` repeated to the frame limit
  (128 KB): target well under 100 ms;
- ``read_request`` of a ``sync`` whose ``v`` has 100,000 digits: target well
  under 500 ms; beside it, what converting those digits would cost (the
  interpreter's limit on digits lifted for the measurement).

Prints the median, p90 and max over ``BENCH_WIRE_RUNS`` (default 30) of each.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

from numbridge.protocol import FrameRefused, read_request
from numbridge.protocol.wire import MAX_FRAME_BYTES, too_deep

from bench.measure import percentile

RUNS = int(os.environ.get("BENCH_WIRE_RUNS", "30"))
DIGITS = 100_000


def timed(work: Callable[[], object]) -> list[float]:
    samples = []
    for _ in range(RUNS):
        started = time.perf_counter()
        work()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def worst_depth() -> None:
    assert too_deep("[" * MAX_FRAME_BYTES)


def huge_integer() -> None:
    body = '{"action": "sync", "id": "big", "game": "g", "v": ' + "9" * DIGITS + "}"
    try:
        read_request(body)
    except FrameRefused as err:
        assert "16 digits" in err.message and err.request_id == "big", err.message
    else:
        raise AssertionError("a 100,000-digit integer was read")


def conversion() -> None:
    int("9" * DIGITS)


def main() -> None:
    limit = sys.get_int_max_str_digits()
    rows: list[tuple[str, list[float]]] = [
        ("too_deep, worst frame (128 KB of '[')", timed(worst_depth)),
        (f"read_request, a {DIGITS:,}-digit integer", timed(huge_integer)),
    ]
    sys.set_int_max_str_digits(0)
    try:
        rows.append((f"(int() of those {DIGITS:,} digits)", timed(conversion)))
    finally:
        sys.set_int_max_str_digits(limit)
    width = max(len(name) for name, _ in rows)
    print(f"{'ms, ' + str(RUNS) + ' runs':<{width}}  {'median':>8}  {'p90':>8}  {'max':>8}")
    for name, samples in rows:
        print(f"{name:<{width}}  {statistics.median(samples):8.2f}  "
              f"{percentile(samples, 0.9):8.2f}  {max(samples):8.2f}")
    print(f"interpreter's int_max_str_digits: {limit} (0: no limit)")


if __name__ == "__main__":
    main()
