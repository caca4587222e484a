"""CPU time of the coach's review of a finished game (numbridge.coach).

``BENCH_REVIEW_GAMES`` games (default 40) of Bridge — 9x9, regular and irregular blocks,
30 and 26 clues — dealt as in production and played to the end by the tests' player
(testkit.moves: correct tiles mostly, some mistakes, takes and exchanges), archived,
then each reviewed from its record three times; the figure is the median of the three
in CPU milliseconds (``time.process_time``: other processes' load does not count), and
the table gives the median, p95 and max over the games. Also Blitz and Domains, fewer.
Target: a Bridge review <= 200 ms of CPU. With ``--profile`` the slowest Bridge game's
review is profiled (cProfile, top 15 by cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench.measure import machine_speed, percentile

ROOT = Path(__file__).resolve().parents[1]
GAMES = int(os.environ.get("BENCH_REVIEW_GAMES", "40"))
SETTINGS = [  # (variant, size, blocks, clues, take price, share of the games)
    ("bridge", 9, "regular", 30, 1, 1.0),
    ("bridge", 9, "irregular", 26, 1, 1.0),
    ("blitz", 6, "regular", 12, 2, 0.5),
    ("domains", 9, "regular", 30, 1, 0.5),
]


def play(variant: str, size: int, blocks: str, clues: int, price: int,
         rng: random.Random) -> dict[str, Any]:
    """A finished game's archive record."""
    sys.path[:0] = [str(ROOT / "tests")]
    from numbridge import rules
    from numbridge.puzzles import deal_board
    from testkit import moves

    dealt = deal_board(size, blocks, clues, secrets.SystemRandom())  # type: ignore[arg-type]
    options = rules.GameOptions(
        room=variant, variant=variant, size=size, blocks=blocks,  # type: ignore[arg-type]
        clues=clues, take_price=price, move_ms=45_000, game_ms=None, highlighting=True,
        rated=False)
    board = rules.Board(dealt.layout, dealt.givens, dealt.solution)
    now = 1_796_000_000_000
    state = rules.new_game("g-bench", options, board, {"blue": "ana", "red": "bob"}, rng, now)
    mask = board.clue_mask()
    while state.turn is not None:
        seat = state.turn
        fields = moves.choose(size=size, digits=state.digits, solution=dealt.solution,
                              clues=mask, owners=state.owners, hand=state.hand(seat),
                              take_price=price, rng=rng)
        kind = fields.pop("action")
        action: rules.Action
        if kind == "exchange":
            action = rules.Exchange()
        elif kind == "place":
            action = rules.Place(cell=tuple(fields["cell"]), digit=fields["digit"])
        else:
            action = rules.Take(cell=tuple(fields["cell"]), digit=fields.get("digit"))
        now += 10_000
        state = rules.apply(state, seat, action, now, rng).state
    return rules.archive_record(state)


def cpu_ms(record: dict[str, Any]) -> float:
    from numbridge.coach import review, story_of

    times = []
    for _ in range(3):
        started = time.process_time()
        review(story_of(record))
        times.append((time.process_time() - started) * 1000)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench review")
    parser.add_argument("--profile", action="store_true", help="profile the slowest Bridge review")
    args = parser.parse_args(argv or [])
    rng = random.Random()
    print(f"machine speed: {machine_speed():.1f} ms for a fixed Python loop (lower is faster)")
    print(f"review CPU per game (ms; the median of 3 runs each), {GAMES} games per share")
    print(f"{'setting':<26}{'games':>6}{'moves':>7}{'median':>9}{'p95':>9}{'max':>9}")
    slowest: tuple[float, dict[str, Any]] | None = None
    bridge: list[float] = []
    for variant, size, blocks, clues, price, share in SETTINGS:
        records = [play(variant, size, blocks, clues, price, rng)
                   for _ in range(max(1, int(GAMES * share)))]
        times = [cpu_ms(r) for r in records]
        if variant == "bridge":
            bridge += times
            worst = max(range(len(times)), key=times.__getitem__)
            if slowest is None or times[worst] > slowest[0]:
                slowest = (times[worst], records[worst])
        moves = statistics.median(len(r["moves"]) for r in records)
        print(f"{variant + ' ' + blocks + ' ' + str(clues):<26}{len(times):>6}{moves:>7.0f}"
              f"{statistics.median(times):>9.1f}{percentile(times, 0.95):>9.1f}"
              f"{max(times):>9.1f}", flush=True)
    print(f"Bridge, all: median {statistics.median(bridge):.1f} ms, p95 "
          f"{percentile(bridge, 0.95):.1f} ms of CPU (target <= 200 ms)")
    if args.profile and slowest is not None:
        from numbridge.coach import review, story_of

        profile = cProfile.Profile()
        profile.runcall(review, story_of(slowest[1]))
        pstats.Stats(profile).sort_stats("cumulative").print_stats(15)
