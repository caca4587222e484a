from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest
from harness import World, dynamodb_store
from moto import mock_aws
from numbridge.store.sqlite import SqliteStore


@pytest.fixture(params=["dynamodb", "sqlite"])
def world(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[World]:
    """The handlers on each store adapter: DynamoDB (moto) and SQLite (a file)."""
    with mock_aws():
        if request.param == "dynamodb":
            store = dynamodb_store(boto3.client("dynamodb"))
        else:
            store = SqliteStore(tmp_path / "club.db")
        w = World(store, boto3.client("sqs"))
        try:
            yield w
        finally:
            w.close()
            if isinstance(store, SqliteStore):
                store.close()
