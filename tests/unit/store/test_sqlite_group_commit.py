"""SQLite commits the writes that queue behind a commit as one group: each as if alone
(its conditions see the writes before it, its failure undoes only itself), all on disk
before any caller returns."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from numbridge.store.port import Absent, ConflictError, Equals, Put
from numbridge.store.sqlite import SqliteStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(tmp_path / "group.db")  # FULL: the default
    yield opened
    opened.close()


def _groups(store: SqliteStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of each group committed from now on."""
    sizes: list[int] = []
    commit = SqliteStore._commit

    def counted(connection: Any, group: list[Any]) -> None:
        sizes.append(len(group))
        commit(connection, group)

    monkeypatch.setattr(SqliteStore, "_commit", staticmethod(counted))
    return sizes


def _queued_behind_a_commit(store: SqliteStore, writers: list[Any]) -> dict[int, Any]:
    """Run the writers in threads while a commit holds the write lock, so that they
    queue; each one's result or exception."""
    outcomes: dict[int, Any] = {}

    def run(n: int) -> None:
        try:
            outcomes[n] = writers[n]()
        except Exception as exc:
            outcomes[n] = exc

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(writers))]
    with store._write_lock:  # a commit in progress
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 10
        while len(store._queue) < len(writers) - 1 and time.monotonic() < deadline:
            time.sleep(0.01)  # the first leads (and waits for the lock); the rest queue
    for thread in threads:
        thread.join(10)
    return outcomes


def test_writers_that_queue_commit_together_each_as_if_alone(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.put({"pk": "G", "sk": "STATE", "v": 0})
    sizes = _groups(store, monkeypatch)
    # Ten writers race for the same move (only one may win), ten write items of their own.
    writers = [lambda: store.transact([Put({"pk": "G", "sk": "STATE", "v": 1}, Equals({"v": 0}))])
               for _ in range(10)]
    writers += [lambda n=n: store.put({"pk": f"P{n}", "sk": "X"}, Absent()) for n in range(10)]
    outcomes = _queued_behind_a_commit(store, writers)

    assert sum(isinstance(outcomes[n], ConflictError) for n in range(10)) == 9
    assert all(outcomes[n] is None for n in range(10, 20))
    assert max(sizes) > 1 and sum(sizes) == 20  # groups formed; every write in one
    reopened = SqliteStore(store.path)
    try:
        assert reopened.get("G", "STATE") == {"pk": "G", "sk": "STATE", "v": 1}
        assert all(reopened.get(f"P{n}", "X") is not None for n in range(10))
    finally:
        reopened.close()


def test_a_failing_write_in_a_group_undoes_only_itself(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    sizes = _groups(store, monkeypatch)

    def half_then_fail() -> None:
        # Its first put lands in the transaction, then its condition fails: both undone.
        store.transact([Put({"pk": "H", "sk": "1"}), Put({"pk": "H", "sk": "2"}, Equals({"v": 9}))])

    writers = [lambda n=n: store.put({"pk": f"K{n}", "sk": "X"}) for n in range(5)]
    writers.insert(2, half_then_fail)
    outcomes = _queued_behind_a_commit(store, writers)

    assert isinstance(outcomes[2], ConflictError)
    assert max(sizes) > 1
    assert store.get("H", "1") is None and store.get("H", "2") is None
    assert all(store.get(f"K{n}", "X") is not None for n in range(5))


def test_a_deletes_answer_comes_back_from_the_group(store: SqliteStore) -> None:
    store.put({"pk": "D", "sk": "X", "n": 1})
    writers = [lambda: store.delete("D", "X"), lambda: store.put({"pk": "E", "sk": "X"})]
    outcomes = _queued_behind_a_commit(store, writers)
    assert outcomes[0] == {"pk": "D", "sk": "X", "n": 1}
    assert store.get("D", "X") is None and store.get("E", "X") is not None
