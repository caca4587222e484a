"""Move deadlines on the real ``numbridge serve``: how late a timeout reaches the players.

The suite checks that a deadline nobody meets fires, for both players, and never
before it is due, also across a restart (tests/e2e/test_e2e_runtime.py,
test_e2e_durability.py); how late it comes is measured here, since that is
the machine's load as much as the code's. Target: both players told within
2 s of the deadline.

- ``running``: ``BENCH_TIMER_GAMES`` (default 5) games one after another in a room
  of 2 s moves, nobody moving: each player's ``timeout`` frame, ms after the deadline;
- ``restarted``: one game in a room of 8 s moves, the server killed (SIGKILL) and
  started again, the deadline left pending: the same, and how long the restart took.

Prints the median, p90 and max of each (the server's log is printed if a run
fails).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.harness_env import ROOT
from bench.measure import percentile

GAMES = int(os.environ.get("BENCH_TIMER_GAMES", "5"))


def _use_e2e_helpers() -> None:
    sys.path[:0] = [str(ROOT / "tests" / "e2e"), str(ROOT / "tests")]


def _late_ms(player: Any, game: str, deadline_ms: int) -> float:
    """When ``player`` (an e2e_server.Player) is told its game timed out."""
    frame = player.expect(lambda f: f["type"] == "timeout", timeout=30)
    late = time.time() * 1000 - deadline_ms
    assert frame["game"] == game, frame
    return late


def running(root: Path) -> list[float]:
    from test_e2e_runtime import FAST_ROOMS, deal_fast_game, fast_room_server

    server = fast_room_server(root, FAST_ROOMS)
    late: list[float] = []
    try:
        for _ in range(GAMES):
            with server.player("ana") as ana, server.player("bob") as bob:
                game, deadline_ms = deal_fast_game(ana, bob)
                late += [_late_ms(player, game, deadline_ms) for player in (ana, bob)]
    except Exception:
        print(server.log(), file=sys.stderr)
        raise
    finally:
        server.kill()
    return late


def restarted(root: Path) -> tuple[list[float], float]:
    from test_e2e_runtime import FAST_ROOMS, deal_fast_game, fast_room_server

    server = fast_room_server(root, FAST_ROOMS.replace("move_ms: 2000", "move_ms: 8000"))
    try:
        with server.player("ana") as ana, server.player("bob") as bob:
            game, deadline_ms = deal_fast_game(ana, bob)
            server.kill()
        started = time.monotonic()
        server.start()
        restart_s = time.monotonic() - started
        if time.time() * 1000 >= deadline_ms:
            print(f"the restart took {restart_s:.1f} s, past the deadline: nothing pending")
            return [], restart_s
        with server.player("ana") as ana, server.player("bob") as bob:
            late = [_late_ms(player, game, deadline_ms) for player in (ana, bob)]
    except Exception:
        print(server.log(), file=sys.stderr)
        raise
    finally:
        server.kill()
    return late, restart_s


def main() -> None:
    _use_e2e_helpers()
    with tempfile.TemporaryDirectory(prefix="timers-bench-") as tmp:
        for run in ("running", "restarted"):
            (Path(tmp) / run).mkdir()
        late = running(Path(tmp) / "running")
        after, restart_s = restarted(Path(tmp) / "restarted")
    print(f"{'ms after the deadline':<26}  {'n':>3}  {'median':>7}  {'p90':>7}  {'max':>7}")
    for name, samples in (("running", late), ("restarted", after)):
        if samples:
            print(f"{name:<26}  {len(samples):>3}  {statistics.median(samples):7.0f}  "
                  f"{percentile(samples, 0.9):7.0f}  {max(samples):7.0f}")
    print(f"restart (SIGKILL, then ready): {restart_s:.1f} s")
    early = [ms for ms in late + after if ms < 0]
    if early:
        raise AssertionError(f"told before the deadline: {early}")


if __name__ == "__main__":
    main()
