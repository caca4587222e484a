"""E2E fixtures: the real ``numbridge serve`` in a subprocess, on a temp data dir and a port
it binds itself (``--port 0``).

``local_server`` is running when the test starts and stopped after it, once on
each store adapter: SQLite (the default) and DynamoDB (the session's moto
server, emptied for the test, which outlives the restarts a test makes).
``local_server.restart()`` stops it (SIGTERM) and starts it again on the same
port and data directory; ``local_server.kill()`` is SIGKILL;
``local_server.token(name)`` signs a player token;
``local_server.player(name)`` connects a player.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e_server import LocalServer


def store_args(request: pytest.FixtureRequest) -> list[str]:
    if request.param == "sqlite":
        return []
    return ["--store", "dynamodb", "--dynamodb-endpoint",
            request.getfixturevalue("moto_url")]


@pytest.fixture(params=["sqlite", "dynamodb"])
def local_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[LocalServer]:
    server = LocalServer(tmp_path / "data", tmp_path, args=store_args(request))
    server.start()
    try:
        yield server
    finally:
        server.kill()
        report = getattr(request.node, "rep_call", None)
        if report is not None and report.failed:
            print(f"--- numbridge serve log ({server.log_path}) ---\n{server.log()}")


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report
