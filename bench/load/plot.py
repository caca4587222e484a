"""docs/load.png: ack p95 against the number of games, when matplotlib is installed."""

from __future__ import annotations

from pathlib import Path

from bench.measure import percentile

from .stats import Result


def plot(curves: dict[str, list[Result]], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    for label, results in curves.items():
        ax.plot([r.games for r in results],
                [percentile(r.stats.ack_ms, 0.95) for r in results], marker="o", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("concurrent games (two bot players each)")
    ax.set_ylabel("ack p95 (ms)")
    ax.set_title("numbridge serve (SQLite), 2 cores shared with the load generator")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
