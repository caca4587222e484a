from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import World, dynamodb_store
from numbridge.store.port import Store
from numbridge.store.sqlite import SqliteStore
from testkit.moto_server import client


@pytest.fixture(params=["dynamodb", "sqlite"])
def world(request: pytest.FixtureRequest, tmp_path: Path, aws: None) -> Iterator[World]:
    """The handlers on each store adapter: DynamoDB (moto, which applies each request
    atomically, as DynamoDB does) and SQLite (a file); SQS from moto."""
    store: Store
    if request.param == "dynamodb":
        store = dynamodb_store(client("dynamodb"))
    else:
        store = SqliteStore(tmp_path / "club.db")
    w = World(store, client("sqs"))
    try:
        yield w
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.passed:
            # Whatever the test did, no client learnt what it may not know.
            w.check_secrets()
    finally:
        w.close()
        if isinstance(store, SqliteStore):
            store.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item,
                              call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
