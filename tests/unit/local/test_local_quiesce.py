"""Snapshots wait for handlers under way, and handlers wait for a snapshot under way."""

from __future__ import annotations

import threading

from numbridge.local.quiesce import Quiesce


def test_alone_waits_for_shared_and_holds_back_new_ones() -> None:
    gate = Quiesce()
    order: list[str] = []
    handler_in, handler_release = threading.Event(), threading.Event()
    snapshot_waiting = threading.Event()

    def handler() -> None:
        with gate.shared():
            handler_in.set()
            handler_release.wait(10)
            order.append("handler done")

    def snapshot() -> None:
        snapshot_waiting.set()
        with gate.alone():
            order.append("snapshot")

    def late_handler() -> None:
        with gate.shared():
            order.append("late handler")

    first = threading.Thread(target=handler)
    first.start()
    assert handler_in.wait(10)
    saver = threading.Thread(target=snapshot)
    saver.start()
    assert snapshot_waiting.wait(10)
    # The snapshot is waiting (or about to): wait until it is counted, then start a late handler.
    with gate._changed:
        assert gate._changed.wait_for(lambda: gate._waiting_alone == 1, timeout=10)
    late = threading.Thread(target=late_handler)
    late.start()
    handler_release.set()
    for thread in (first, saver, late):
        thread.join(10)
    assert order == ["handler done", "snapshot", "late handler"]


def test_shared_holders_run_together() -> None:
    gate = Quiesce()
    barrier = threading.Barrier(3, timeout=10)

    def handler() -> None:
        with gate.shared():
            barrier.wait()  # all three inside at once

    threads = [threading.Thread(target=handler) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert not barrier.broken
