"""The store of the contract tests: each test runs on every adapter of the port."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from numbridge.sam_template import create_tables
from numbridge.store.dynamodb import DynamoStore
from numbridge.store.port import Store
from numbridge.store.sqlite import SqliteStore
from testkit.moto_server import client as moto_client

_tables = iter(range(1_000_000))


@pytest.fixture(params=["sqlite", "dynamodb"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        sqlite = SqliteStore(tmp_path / "contract.db", synchronous="NORMAL")
        yield sqlite
        sqlite.close()
        return
    url = request.getfixturevalue("moto_url")
    client = moto_client("dynamodb", url)
    name = f"contract-{next(_tables)}"
    create_tables(client, {"GameTable": name})
    yield DynamoStore(client, name)
