"""One player's sign-in while a guesser sends wrong passwords at once: the real
``numbridge serve`` with its real Argon2 (64 MiB, 3 passes), over HTTP on loopback.

Each round starts a server afresh (the limits live in its memory) on an account
``yara`` and an account ``xeno``, signs ``yara`` in alone (the baseline), then sends
:data:`GUESSES` wrong passwords for ``xeno`` at once and, once they are sent, ``yara``'s
right one: from another address (127.0.0.2; the guesser is 127.0.0.3), and from the
guesser's own address (127.0.0.1 both). It prints ``yara``'s time and answer, and what
the guesses got. The target: ``yara`` answered within about one hash's time of the
baseline, never behind the burst's queue.

``python -m bench sign_in_burst --base DIR`` measures a second checkout too (its
``layers/numbridge``, its ``template.yaml``), round for round with this one, in the same
run: before and after a change. ``--rounds N`` (3).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUESSES = 60
PASSWORDS = {"yara": "yara's own long password", "xeno": "xeno's own long password"}
SCENARIOS = {"another address": ("127.0.0.3", "127.0.0.2"),
             "same address": ("127.0.0.1", "127.0.0.1")}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def server(tree: Path, data: Path) -> Iterator[int]:
    """``numbridge serve`` of ``tree`` on a free port, its log in ``data``'s parent."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(tree / "layers" / "numbridge"),
           "NUMBRIDGE_ROOT": str(tree)}
    with (data.parent / "serve.log").open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "numbridge", "serve", "--port", str(port),
             "--data-dir", str(data)], stdout=log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"numbridge serve of {tree} did not start") from None
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(30)


def sign_in(port: int, name: str, password: str, source: str) -> tuple[int, float]:
    """The status and the seconds it took."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300,
                                      source_address=(source, 0))
    started = time.perf_counter()
    try:
        conn.request("POST", "/local/token", body=json.dumps(
            {"name": name, "password": password}),
            headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        conn.close()


def burst(port: int, guesser: str, player: str) -> tuple[int, float, Counter[int], float]:
    """``player``'s sign-in once :data:`GUESSES` guesses from ``guesser`` are sent: its
    status and time, the guesses' statuses and how long until the last was answered."""
    ready = threading.Barrier(GUESSES + 1)
    answers: list[int] = []
    started = time.perf_counter()

    def guess() -> None:
        ready.wait()
        answers.append(sign_in(port, "xeno", "a wrong guess of a password", guesser)[0])

    threads = [threading.Thread(target=guess) for _ in range(GUESSES)]
    for t in threads:
        t.start()
    ready.wait()
    time.sleep(0.05)  # the guesses are on the wire
    status, took = sign_in(port, "yara", PASSWORDS["yara"], player)
    for t in threads:
        t.join()
    return status, took, Counter(answers), time.perf_counter() - started


def measure(tree: Path, work: Path, rounds: int) -> dict[str, list[tuple[int, float, str]]]:
    data = work / "data"
    shutil.rmtree(data, ignore_errors=True)
    with server(tree, data) as port:
        for name, password in PASSWORDS.items():
            assert sign_in(port, name, password, "127.0.0.9")[0] == 200
    runs: dict[str, list[tuple[int, float, str]]] = {"alone": []}
    for _ in range(rounds):
        for scenario, (guesser, player) in SCENARIOS.items():
            with server(tree, data) as port:
                status, took = sign_in(port, "yara", PASSWORDS["yara"], "127.0.0.8")
                runs["alone"].append((status, took, ""))
                status, took, guesses, total = burst(port, guesser, player)
                said = ", ".join(f"{n} x {s}" for s, n in sorted(guesses.items()))
                runs.setdefault(scenario, []).append(
                    (status, took, f"guesses: {said} in {total:.1f} s"))
    return runs


def report(label: str, runs: dict[str, list[tuple[int, float, str]]]) -> None:
    print(f"  {label}")
    for scenario, rows in runs.items():
        times = [took for _, took, _ in rows]
        statuses = Counter(status for status, _, _ in rows)
        print(f"    {scenario:<16} yara: median {statistics.median(times):6.2f} s, "
              f"max {max(times):6.2f} s, answers "
              + ", ".join(f"{n} x {s}" for s, n in sorted(statuses.items())))
        for _, _, said in rows:
            if said:
                print(f"      {said}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench sign_in_burst")
    parser.add_argument("--base", type=Path, help="a second checkout, measured alongside")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv or [])
    trees = {"this tree": ROOT} | ({f"base ({args.base})": args.base.resolve()}
                                   if args.base else {})
    results: dict[str, dict[str, list[tuple[int, float, str]]]] = {}
    with tempfile.TemporaryDirectory(prefix="sign-in-burst-") as tmp:
        for n in range(args.rounds):  # round for round, the trees alternating
            for label, tree in trees.items():
                work = Path(tmp) / label.split()[0] / str(n)
                work.mkdir(parents=True)
                for scenario, rows in measure(tree, work, 1).items():
                    results.setdefault(label, {}).setdefault(scenario, []).extend(rows)
    print(f"yara's sign-in, {GUESSES} wrong guesses for xeno sent at once "
          f"({args.rounds} rounds)")
    for label, runs in results.items():
        report(label, runs)


if __name__ == "__main__":
    main(sys.argv[1:])
