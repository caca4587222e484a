"""Fixtures for the local runtime: a moto server, and dummy handlers that record their events."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from local_fakes import Recorder
from moto.server import ThreadedMotoServer


@pytest.fixture(scope="session")
def moto_url() -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()
