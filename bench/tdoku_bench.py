"""The club's sudoku work beside tdoku, the fastest solver we know of (Tom Dillon's
SIMD DPLL solver, BSD-2, github.com/t-dillon/tdoku): how far our Python and python-sat
pieces are from a native one, on the 1000 17-clue sudokus of tests/data/sudoku17.txt
(a 9x9 Numbridge board with regular blocks is a classic sudoku in axial row-major
order, so tdoku reads our boards as they are).

Per board (us): tdoku counting solutions up to 2 (the uniqueness proof the dealer
needs); ``count_solutions`` (python-sat, the dealer's prover); the coach's ``grade``
(deductions in Python, the readings ladder). tdoku is compiled here from a checkout
named by ``TDOKU_SRC`` (its ``src/`` and ``include/``; g++ -O3 -march=native); without
one the bench says so and stops. Irregular blocks and 6x6 boards are ours alone: tdoku
knows only the classic 9x9.
"""

from __future__ import annotations

import ctypes
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from bench.measure import machine_speed, percentile

ROOT = Path(__file__).resolve().parents[1]
SEVENTEEN = ROOT / "tests" / "data" / "sudoku17.txt"
REGULAR9 = "".join(str((r // 3) * 3 + c // 3) for r in range(9) for c in range(9))


def build(source: Path, into: Path) -> ctypes.CDLL:
    library = into / "libtdoku.so"
    subprocess.run(["g++", "-O3", "-march=native", "-shared", "-fPIC", "-std=c++17",
                    f"-I{source / 'include'}", str(source / "src" / "solver_dpll_triad_simd.cc"),
                    str(source / "src" / "util.cc"), "-o", str(library)], check=True)
    tdoku = ctypes.CDLL(str(library))
    tdoku.TdokuSolverDpllTriadSimd.restype = ctypes.c_size_t
    tdoku.TdokuSolverDpllTriadSimd.argtypes = [
        ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint32, ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_size_t)]
    return tdoku


def row(name: str, values: list[float]) -> str:
    us = [v * 1e6 for v in values]
    return (f"{name:<34}{statistics.mean(us):>9.1f}{statistics.median(us):>9.1f}"
            f"{percentile(us, 0.99):>9.1f}{max(us):>10.1f}")


def main(argv: list[str] | None = None) -> None:
    source = os.environ.get("TDOKU_SRC")
    if not source or not (Path(source) / "src" / "solver_dpll_triad_simd.cc").exists():
        print("skipped: set TDOKU_SRC to a checkout of github.com/t-dillon/tdoku (its src/ "
              "and include/) to compare with it")
        return
    from numbridge.coach import grade
    from numbridge.puzzles import count_solutions

    lines = [ln.strip() for ln in SEVENTEEN.read_text().splitlines()]
    boards = [ln for ln in lines if ln and not ln.startswith("#")]
    print(f"machine speed: {machine_speed():.1f} ms for a fixed Python loop (lower is faster)")
    with tempfile.TemporaryDirectory() as into:
        tdoku = build(Path(source), Path(into))
        solution = ctypes.create_string_buffer(82)
        guesses = ctypes.c_size_t(0)
        count_solutions("." * 81)  # python-sat imported, its solver built
        timed: dict[str, list[float]] = {"tdoku, solutions up to 2": [],
                                         "count_solutions (python-sat)": [],
                                         "coach.grade (readings ladder)": []}
        for board in boards:
            text = board.encode()
            started = time.perf_counter()
            found = tdoku.TdokuSolverDpllTriadSimd(text, 2, 0, solution, ctypes.byref(guesses))
            timed["tdoku, solutions up to 2"].append(time.perf_counter() - started)
            started = time.perf_counter()
            ours = count_solutions(board)
            timed["count_solutions (python-sat)"].append(time.perf_counter() - started)
            assert found == ours == 1, (board, found, ours)
            started = time.perf_counter()
            grade(REGULAR9, board)
            timed["coach.grade (readings ladder)"].append(time.perf_counter() - started)
    print(f"\n{len(boards)} 17-clue sudokus (us per board)")
    print(f"{'':<34}{'mean':>9}{'median':>9}{'p99':>9}{'max':>10}")
    for name, values in timed.items():
        print(row(name, values))
    base = statistics.median(timed["tdoku, solutions up to 2"])
    for name, values in list(timed.items())[1:]:
        print(f"{name}: {statistics.median(values) / base:.0f}x tdoku's median")
