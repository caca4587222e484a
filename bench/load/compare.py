"""Before and after in one run: the same load on a second checkout's server and on this
one's, run after run, alternating (the machine is shared: its load comes and goes,
and both sides see the same share of it), then one table of both with the ratio."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from numbridge.bot import Level

from bench.measure import percentile

from .runs import run_games
from .server import Server
from .stats import HEADER, Result

SIDES = ("before", "after")


def _load_average() -> float:
    return os.getloadavg()[0]


def compare(work: Path, baseline: Path, games: int, think_s: float, seconds: float,
            room: str, level: Level, rounds: int) -> dict[str, list[Result]]:
    """``rounds`` runs a side, before and after in turns; each run's row as it ends."""
    servers = {"before": Server(work / "before", checkout=baseline),
               "after": Server(work / "after")}
    results: dict[str, list[Result]] = {side: [] for side in SIDES}
    print(f"before: {baseline}; after: this checkout; {games} {room} games, {rounds} runs "
          "each, alternating; load = the load average (1 min) as the run started")
    print(HEADER, flush=True)
    try:
        for side in SIDES:
            servers[side].start()
            # No longer than a run: a short comparison stays short.
            run_games(servers[side], "warm-up", min(games, 10), 0.0, min(5.0, seconds), room,
                      level)
        for n in range(rounds):
            for side in (SIDES if n % 2 == 0 else SIDES[::-1]):
                mode = f"thinking {think_s:g} s" if think_s else "at once"
                label = f"{side}, {mode}, load {_load_average():.1f}"
                result = run_games(servers[side], label, games, think_s, seconds, room, level)
                results[side].append(result)
                print(result.row(), flush=True)
    finally:
        for server in servers.values():
            server.stop()
    print()
    print(summary(results["before"], results["after"]))
    return results


def _pooled(results: Sequence[Result], values: Callable[[Result], list[float]],
            q: float) -> float:
    return percentile([v for r in results for v in values(r)], q)


def _metrics(results: Sequence[Result]) -> dict[str, float]:
    seconds = sum(r.seconds for r in results)
    actions = sum(r.stats.actions for r in results)
    cpu_s = sum(r.cpu * r.seconds for r in results)
    return {
        "actions/s": actions / seconds if seconds else float("nan"),
        "ack p50 ms": _pooled(results, lambda r: r.stats.ack_ms, .5),
        "ack p95 ms": _pooled(results, lambda r: r.stats.ack_ms, .95),
        "ack p99 ms": _pooled(results, lambda r: r.stats.ack_ms, .99),
        "delivery p95 ms": _pooled(results, lambda r: r.stats.delivery_ms, .95),
        "server CPU ms/action": cpu_s * 1000 / actions if actions else float("nan"),
        "server CPU (cores)": cpu_s / seconds if seconds else float("nan"),
        "lost": float(sum(r.stats.lost for r in results)),
        "duplicated": float(sum(r.stats.duplicated for r in results)),
        "refused": float(sum(r.stats.refused for r in results)),
    }


def summary(before: Sequence[Result], after: Sequence[Result]) -> str:
    """Every run of a side pooled: rates over the total time, percentiles over every
    sample; the ratio after ÷ before."""
    b, a = _metrics(before), _metrics(after)
    lines = [f"{'':<22}{'before':>10}{'after':>10}{'after/before':>14}"]
    for name in b:
        ratio = f"{a[name] / b[name]:.2f}x" if b[name] else "-"
        lines.append(f"{name:<22}{b[name]:>10.2f}{a[name]:>10.2f}{ratio:>14}")
    return "\n".join(lines)
