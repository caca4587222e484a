"""Speed of the puzzle dealer and of the solution counter.

Deal: every room setting — 9x9 regular and irregular at 22, 26, 30 and 34 clues,
6x6 regular and irregular at 10, 12 and 16 — dealt ``BENCH_DEALS`` times (default
300) with ``secrets.SystemRandom()`` as in production, after one warm-up deal
that builds the cached solver of the regular layout (its time is printed too).
Target: p99 <= 100 ms for every setting.

Graded: the same deal asked for a range of grades (a room's ``grades``, or a
proposal's ``grade``), the dealer dealing again until a board fits, beside the
same setting ungraded (``BENCH_GRADED=0`` leaves them out). Target: p99 at most
twice the ungraded p99 at the same clue count (printed for wall time, and for the
thread's CPU time, which other processes on a shared machine do not stretch), and
the CPU time of grading the board dealt (the coach's share of a graded deal; a deal
may grade more than one board when one comes off grade).

Stocked: the same narrow ask (9x9 regular 26, beyond) as a player gets it, through the
service's ``deal_board(svc, options)`` on a SQLite store: taken from the stock of boards
dealt ahead (store.board_stock) when one is there, else dealt inline. Sustained, one
request every ``STOCK_EVERY_MS`` (50 ms: far above a club's rate of rare asks) with the
refill the review worker would run (``usecases.reviewing.refill_stock``) between them,
its CPU reported per board; and in bursts of DEPTH+6 requests at once (the first DEPTH
are hits, the rest inline), the stock refilled between bursts. Each request is timed
(wall and thread CPU) beside the ungraded deal through the same function, interleaved.
Target: p99 at most twice the ungraded p99 (``BENCH_STOCK=0`` leaves it out).

Count: ``count_solutions`` on the 1000 17-clue sudokus of tests/data/sudoku17.txt
(a 9x9 regular board is a classic sudoku in row-major order), start-up and solver
construction excluded; then the same through ``numbridge puzzle count`` (stdin to
stdout, in process). Target: <= 150 us per board.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

from bench.measure import machine_speed, percentile

ROOT = Path(__file__).resolve().parents[1]
DEALS = int(os.environ.get("BENCH_DEALS", "300"))
SEVENTEEN = ROOT / "tests" / "data" / "sudoku17.txt"

SETTINGS = [
    *((9, "regular", k) for k in (22, 26, 30, 34)),
    *((9, "irregular", k) for k in (22, 26, 30, 34)),
    *((6, "regular", k) for k in (10, 12, 16)),
    *((6, "irregular", k) for k in (10, 12, 16)),
]

# (size, blocks, clues, grades): ranges a room would offer at its clue counts (each
# about nine boards in ten there), and one narrow ask (a fifth of the boards).
GRADED = [
    (9, "regular", 30, ("naked_single", "hidden_single")),
    (9, "regular", 26, ("hidden_single", "beyond")),
    (9, "irregular", 30, ("naked_single", "hidden_single")),
    (6, "regular", 12, ("naked_single", "hidden_single")),
    (9, "regular", 26, ("beyond",)),
]
GRADED_ON = os.environ.get("BENCH_GRADED", "1") != "0"
STOCK_ON = os.environ.get("BENCH_STOCK", "1") != "0"
STOCK_EVERY_MS = 50
STOCK_EXTRA = 6  # a burst: the stock's depth, and this many more at once


def row(name: str, values: list[float], unit: float) -> str:
    scaled = [v * unit for v in values]
    return (
        f"{name:<26}{len(scaled):>6}{statistics.mean(scaled):>9.1f}"
        f"{statistics.median(scaled):>9.1f}{percentile(scaled, 0.9):>9.1f}"
        f"{percentile(scaled, 0.99):>9.1f}{max(scaled):>9.1f}"
    )


def bench_deal() -> None:
    from numbridge.puzzles import deal_board

    rng = secrets.SystemRandom()
    print(f"deal_board, {DEALS} deals per setting (ms)")
    print(f"{'setting':<26}{'n':>6}{'mean':>9}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}")
    for size, kind, clues in SETTINGS:
        started = time.perf_counter()
        deal_board(size, kind, clues, rng)  # type: ignore[arg-type]
        first = time.perf_counter() - started
        times = []
        for _ in range(DEALS):
            started = time.perf_counter()
            board = deal_board(size, kind, clues, rng)  # type: ignore[arg-type]
            times.append(time.perf_counter() - started)
            assert sum(ch != "." for ch in board.givens) == clues
        name = f"{size}x{size} {kind} {clues}"
        print(row(name, times, 1000) + f"   (first deal {first * 1000:.1f})", flush=True)

def bench_graded() -> None:
    from numbridge.coach import grade
    from numbridge.puzzles import deal_board
    from numbridge.rules.seats import GRADES

    rng = secrets.SystemRandom()
    print(f"\ndeal_board with grades, {DEALS} deals per setting (ms), beside the same "
          "setting ungraded")
    print(f"{'setting':<26}{'n':>6}{'mean':>9}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}")
    for size, kind, clues, asked in GRADED:
        span = GRADES[GRADES.index(asked[0]):GRADES.index(asked[-1]) + 1]
        deal_board(size, kind, clues, rng)  # type: ignore[arg-type]
        plain, graded = [], []
        plain_cpu, graded_cpu, grading_cpu = [], [], []
        # Interleaved, so both see the same machine load.
        for _ in range(DEALS):
            started, cpu = time.perf_counter(), time.thread_time()
            deal_board(size, kind, clues, rng)  # type: ignore[arg-type]
            plain.append(time.perf_counter() - started)
            plain_cpu.append(time.thread_time() - cpu)
            started, cpu = time.perf_counter(), time.thread_time()
            board = deal_board(size, kind, clues, rng, grades=span)  # type: ignore[arg-type]
            graded.append(time.perf_counter() - started)
            graded_cpu.append(time.thread_time() - cpu)
            assert board.grade in span
            cpu = time.thread_time()
            grade(board.blocks, board.givens)  # the coach's share: the board dealt, again
            grading_cpu.append(time.thread_time() - cpu)
        name = f"{size}x{size} {kind} {clues}"
        ratio = percentile(graded, 0.99) / percentile(plain, 0.99)
        # The same ratio in this thread's CPU time: on a shared machine the wall clock's
        # tail is often another process's, and this one is not.
        cpu_ratio = percentile(graded_cpu, 0.99) / percentile(plain_cpu, 0.99)
        print(row(name + " any", plain, 1000))
        print(row(f"  {'..'.join(dict.fromkeys((asked[0], asked[-1])))}"[:26], graded, 1000)
              + f"   (p99 x{ratio:.2f}, cpu x{cpu_ratio:.2f})", flush=True)
        grading = [t * 1000 for t in grading_cpu]
        print(f"    grading the board dealt (cpu): median {statistics.median(grading):.2f}, "
              f"p99 {percentile(grading, 0.99):.2f} ms; the graded deal's cpu: median "
              f"{statistics.median(graded_cpu) * 1000:.2f}", flush=True)


def bench_stocked() -> None:
    import dataclasses
    import tempfile

    from numbridge.club.rooms import Rooms
    from numbridge.rules.options import GameOptions
    from numbridge.service.context import Services
    from numbridge.service.stock import stock_setting
    from numbridge.service.usecases.lobby import deal_board
    from numbridge.service.usecases.reviewing import REFILL_BUDGET_S, refill_stock
    from numbridge.store.board_stock import DEPTH
    from numbridge.store.sqlite import SqliteStore

    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")  # no metric lines
    asked = GameOptions(room="bench", variant="bridge", size=9, blocks="regular", clues=26,
                        take_price=1, move_ms=45_000, game_ms=None, highlighting=True,
                        rated=False, grades=("beyond", "beyond"))
    plain_options = dataclasses.replace(asked, grades=None)
    setting = stock_setting(asked)
    assert setting is not None
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "stock.db")
        svc = Services(store=store, management=None, timers=None,  # type: ignore[arg-type]
                       token_secret=lambda: None,  # type: ignore[arg-type,return-value]
                       rooms=Rooms(()), rng=secrets.SystemRandom())
        refill_cpu: list[float] = []
        refilled = [0]

        def refill() -> None:
            cpu = time.thread_time()
            refilled[0] += refill_stock(svc, setting, time.monotonic() + REFILL_BUDGET_S)
            refill_cpu.append(time.thread_time() - cpu)

        def timed(options: GameOptions) -> tuple[float, float, bool]:
            before = len(svc.board_stock.missing(setting))
            started, cpu = time.perf_counter(), time.thread_time()
            board = deal_board(svc, options)
            wall, used = time.perf_counter() - started, time.thread_time() - cpu
            assert options.grades is None or board.grade == "beyond"
            hit = options.grades is not None and len(svc.board_stock.missing(setting)) > before
            return wall, used, hit

        deal_board(svc, plain_options)  # warm-up: the cached solver
        refill()
        refill_cpu.clear()
        refilled[0] = 0
        print(f"\ndeal as a player gets it, from the stock (9x9 regular 26, beyond; depth "
              f"{DEPTH}, SQLite; ms)")
        print(f"{'requests':<26}{'n':>6}{'mean':>9}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}")
        for label in (f"one every {STOCK_EVERY_MS} ms", f"bursts of {DEPTH + STOCK_EXTRA}"):
            plain, plain_cpu, stocked, stocked_cpu, hits = [], [], [], [], 0
            requests = 0
            while requests < DEALS:
                burst = 1 if label.startswith("one") else DEPTH + STOCK_EXTRA
                for _ in range(burst):
                    started = time.perf_counter()
                    wall, used, _ = timed(plain_options)  # interleaved: the same load
                    plain.append(wall)
                    plain_cpu.append(used)
                    wall, used, hit = timed(asked)
                    stocked.append(wall)
                    stocked_cpu.append(used)
                    hits += hit
                    requests += 1
                refill()  # the review worker, between requests (or bursts)
                if burst == 1:
                    rest = STOCK_EVERY_MS / 1000 - (time.perf_counter() - started)
                    time.sleep(max(0.0, rest))
            ratio = percentile(stocked, 0.99) / percentile(plain, 0.99)
            cpu_ratio = percentile(stocked_cpu, 0.99) / percentile(plain_cpu, 0.99)
            print(row("any (inline)", plain, 1000))
            print(row(f"beyond, {label}"[:26], stocked, 1000)
                  + f"   (p99 x{ratio:.2f}, cpu x{cpu_ratio:.2f}; hits {hits / requests:.0%})")
            cpu_ms = [t * 1000 for t in stocked_cpu]
            plain_ms = [t * 1000 for t in plain_cpu]
            print(f"    cpu: median {statistics.median(cpu_ms):.2f}, p90 "
                  f"{percentile(cpu_ms, 0.9):.2f}, p99 {percentile(cpu_ms, 0.99):.2f} ms "
                  f"(any: p99 {percentile(plain_ms, 0.99):.2f})", flush=True)
        per_board = sum(refill_cpu) / max(1, refilled[0]) * 1000
        print(f"    the refill's cpu (the review worker, off the request): {per_board:.2f} ms "
              f"per board stocked, {refilled[0]} boards", flush=True)
        store.close()


def bench_count() -> None:
    from numbridge.puzzles import count_solutions, sat
    from numbridge.puzzles.puzzle_command import register

    lines = [line.strip() for line in SEVENTEEN.read_text().splitlines()]
    boards = [line for line in lines if line and not line.startswith("#")]
    started = time.perf_counter()
    count_solutions("." * 81)  # start-up: import python-sat, build the solver
    startup = time.perf_counter() - started
    print(f"machine speed: {machine_speed():.1f} ms for a fixed Python loop (lower is faster)")
    print(f"start-up (import python-sat, build the 9x9 solver): {startup * 1000:.1f} ms")
    print(f"\ncount_solutions, {len(boards)} 17-clue sudokus (us per board)")
    print(f"{'pass':<26}{'n':>6}{'mean':>9}{'median':>9}{'p90':>9}{'p99':>9}{'max':>9}")
    labels = [f"fresh solver, run {k}" for k in (1, 2, 3)] + ["same solver, again"]
    for label in labels:
        if label.startswith("fresh"):
            sat._engines.clear()
            count_solutions("." * 81)  # build (not timed)
        times = []
        gc.collect()
        for board in boards:
            started = time.perf_counter()
            result = count_solutions(board)
            times.append(time.perf_counter() - started)
            assert result == 1
        print(row(label, times, 1e6), flush=True)

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["puzzle", "count"])
    sat._engines.clear()
    count_solutions("." * 81)
    stdin, stdout = sys.stdin, sys.stdout
    sys.stdin, sys.stdout = io.StringIO("\n".join(boards) + "\n"), io.StringIO()
    try:
        started = time.perf_counter()
        args.func(args)
        elapsed = time.perf_counter() - started
        answers = sys.stdout.getvalue().split()
    finally:
        sys.stdin, sys.stdout = stdin, stdout
    assert answers == ["1"] * len(boards)
    print(
        f"numbridge puzzle count, stdin to stdout in process (fresh solver): "
        f"{elapsed / len(boards) * 1e6:.1f} us per board"
    )


def main() -> None:
    bench_count()
    print()
    bench_deal()
    if GRADED_ON:
        bench_graded()
    if STOCK_ON:
        bench_stocked()


if __name__ == "__main__":
    main()
