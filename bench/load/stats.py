"""What a run counts, and its row in the bench's table."""

from __future__ import annotations

from dataclasses import dataclass, field

from bench.measure import percentile


@dataclass
class Stats:
    ack_ms: list[float] = field(default_factory=list)  # action sent → its ack
    delivery_ms: list[float] = field(default_factory=list)  # action sent → the opponent's event
    think_ms: list[float] = field(default_factory=list)  # the brain, per action it chose
    requests: int = 0  # answered, syncs and listings included
    actions: int = 0  # acknowledged moves, proposals and accepts
    refused: int = 0  # error answers
    duplicated: int = 0
    out_of_order: int = 0
    lost: int = 0
    finished: int = 0  # games both players saw to the end
    flooded: int = 0  # the flooder's requests


@dataclass
class Result:
    label: str
    games: int
    seconds: float
    stats: Stats
    cpu: float  # the server's, in cores
    load_cpu: float  # the load generator's (this process), in cores
    rss_mb: float

    @property
    def cpu_ms_per_action(self) -> float:
        """The server's CPU time over the run ÷ the actions acknowledged."""
        actions = self.stats.actions
        return self.cpu * self.seconds * 1000 / actions if actions else float("nan")

    def row(self) -> str:
        s = self.stats
        return (f"{self.label:<34}{self.games:>5}{s.actions / self.seconds:>8.1f}"
                f"{self.cpu_ms_per_action:>7.2f}{s.requests / self.seconds:>8.1f}"
                + "".join(f"{percentile(values, q):>7.1f}" for values in (s.ack_ms, s.delivery_ms)
                          for q in (.5, .95, .99))
                + f"{s.lost:>5}{s.duplicated:>5}{s.out_of_order:>5}{s.refused:>5}{s.finished:>5}"
                f"{self.cpu * 100:>6.0f}%{self.load_cpu * 100:>5.0f}%{self.rss_mb:>6.0f}"
                f"{percentile(s.think_ms, .5):>6.1f}{percentile(s.think_ms, .95):>6.1f}")


HEADER = (f"{'run':<34}{'games':>5}{'act/s':>8}{'ms/act':>7}{'req/s':>8}"
          + "".join(f"{name:>7}" for name in ("ack50", "ack95", "ack99", "dlv50", "dlv95", "dlv99"))
          + f"{'lost':>5}{'dup':>5}{'ooo':>5}{'ref':>5}{'done':>5}{'cpu':>7}{'gen':>6}{'rssMB':>6}"
          f"{'bot50':>6}{'bot95':>6}")
