from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import World, dynamodb_store
from numbridge.store.port import Store
from numbridge.store.sqlite import SqliteStore
from testkit.moto_server import client


@pytest.fixture(params=["dynamodb", "sqlite"])
def world(request: pytest.FixtureRequest, tmp_path: Path, moto_url: str) -> Iterator[World]:
    """The handlers on each store adapter: DynamoDB (moto's server, which applies each
    request atomically, as DynamoDB does) and SQLite (a file); SQS from moto."""
    store: Store
    if request.param == "dynamodb":
        store = dynamodb_store(client("dynamodb", moto_url))
    else:
        store = SqliteStore(tmp_path / "club.db")
    w = World(store, client("sqs", moto_url))
    try:
        yield w
    finally:
        w.close()
        if isinstance(store, SqliteStore):
            store.close()
