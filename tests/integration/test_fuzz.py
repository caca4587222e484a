"""Fuzz the message handler against a live game: at least 10,000 hostile, careless and
well-formed frames per run on SQLite and 2,500 on DynamoDB (moto spends 4-5x as long on
a frame; the frames reach the same code above the store) — ``FUZZ_FRAMES`` scales
both; bench/fuzz_bench.py runs more."""

from __future__ import annotations

import os
import time

from fuzzing import Fuzzer, frame_mix
from harness import World
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from numbridge.store.sqlite import SqliteStore

FRAMES = int(os.environ.get("FUZZ_FRAMES", "10000"))
ON_MOTO = 4  # DynamoDB (moto) gets a quarter of the frames
BATCH = 24  # a multiple of the slots of the mix: slot k is frame k of every batch


def fuzz(fuzzer: Fuzzer, batches: int) -> None:
    senders = st.sampled_from(fuzzer.senders)
    slots = frame_mix(fuzzer.targets)

    # Generate only: the world moves on between examples, so a failing batch is
    # reported as it was found, not shrunk against a world that changed.
    @settings(max_examples=batches, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(data=st.data())
    def batch(data: st.DataObject) -> None:
        for k in range(BATCH):
            sender = data.draw(senders, label="sender")
            fuzzer.send(sender, data.draw(slots[k % len(slots)], label="frame"))
        fuzzer.advance()
        fuzzer.check_all()

    batch()


def test_no_frame_escapes_as_anything_but_a_typed_answer(world: World) -> None:
    fuzzer = Fuzzer(world)
    frames = FRAMES if isinstance(world.store, SqliteStore) else FRAMES // ON_MOTO
    started = time.perf_counter()
    fuzz(fuzzer, -(-frames // BATCH))
    elapsed = time.perf_counter() - started
    print(f"fuzz: {fuzzer.sent} frames in {elapsed:.1f} s; answers {dict(fuzzer.answers)}; "
          f"legal actions between batches {dict(fuzzer.advanced)}")
    assert fuzzer.sent >= frames
    # The fuzz's frames reached the rules, not just the parser; and every legal action
    # that moved the game on between batches was acknowledged.
    for code in ("malformed", "unknown_action", "unauthorized", "not_found", "illegal"):
        assert fuzzer.answers[code] > 0, fuzzer.answers
    assert set(fuzzer.advanced) == {"ack"}, fuzzer.advanced
