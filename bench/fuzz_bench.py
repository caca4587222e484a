"""A longer fuzz of the message handler than the suite's (tests/integration/test_fuzz.py).

The same frames and checks (tests/integration/fuzzing.py): every action model,
raw mutations and junk, from seated players, an outsider and a connection that
never signed in, against a live game over moto. Any escaped exception, bad
answer, leaked push or change on a refusal stops the run with the failing
batch. Prints the frame count, the answers by type or error code, and the
rate. ``BENCH_FUZZ_FRAMES`` (default 50,000) sizes the run.
"""

from __future__ import annotations

import os
import time

from bench.harness_env import use_integration_harness

FRAMES = int(os.environ.get("BENCH_FUZZ_FRAMES", "50000"))


def main() -> None:
    use_integration_harness("CRITICAL")
    import boto3
    from fuzzing import Fuzzer
    from harness import World, dynamodb_store
    from moto import mock_aws
    from test_fuzz import BATCH, fuzz

    with mock_aws():
        world = World(dynamodb_store(boto3.client("dynamodb")), boto3.client("sqs"))
        fuzzer = Fuzzer(world)
        started = time.perf_counter()
        try:
            fuzz(fuzzer, -(-FRAMES // BATCH))
        finally:
            elapsed = time.perf_counter() - started
            print(f"frames sent: {fuzzer.sent} in {elapsed:.1f} s "
                  f"({fuzzer.sent / max(elapsed, 1e-9):.0f} a second); "
                  f"games played: {fuzzer.games_played}")
            width = max(len(k) for k in fuzzer.answers) if fuzzer.answers else 0
            for answer, count in fuzzer.answers.most_common():
                print(f"  {answer:<{width}}  {count:>7}")
            print(f"legal actions between batches: {dict(fuzzer.advanced)}")
            world.close()
    print("no exception escaped; every answer valid; no refusal changed a game or "
          "reached anyone else")
