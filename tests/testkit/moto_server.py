"""moto for every suite: in this process (fast: the integration harness, the
template and secret tests) or as a server on a port (for ``numbridge serve`` in a
subprocess, the store contract, the local runtime).

Both take DynamoDB's requests one at a time, each applied atomically, as
DynamoDB applies them — moto's own backend does not: it checks a transaction's
conditions and then writes without a lock, so two threads could both win a
conditional write. Nothing else is serialised: the races tests stage (two
handlers that load the same version, then write) meet in the store, as they
would in AWS. The server is ``numbridge.local.data.embedded_moto.EmbeddedMoto``, the
local runtime's own.
"""

from __future__ import annotations

import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def in_process() -> Iterator[None]:
    """``moto.mock_aws`` with DynamoDB's requests taken one at a time."""
    from moto import mock_aws
    from moto.core.botocore_stubber import BotocoreStubber
    from numbridge.local.data import moto_scaled

    moto_scaled.install()

    lock = threading.Lock()
    real = BotocoreStubber.process_request

    def one_at_a_time(self: BotocoreStubber, request: Any) -> Any:
        if "dynamodb" not in str(request.url):
            return real(self, request)
        with lock:
            return real(self, request)

    BotocoreStubber.process_request = one_at_a_time  # type: ignore[method-assign]
    try:
        with mock_aws():
            yield
    finally:
        BotocoreStubber.process_request = real  # type: ignore[method-assign]


@contextmanager
def running() -> Iterator[str]:
    """A moto server on a free port; its base URL."""
    import logging

    from numbridge.local.data.embedded_moto import EmbeddedMoto

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per request otherwise
    server = EmbeddedMoto(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


def reset(url: str) -> None:
    """Empty every backend (moto's are process-wide: one test must not see another's)."""
    request = urllib.request.Request(url + "/moto-api/reset", method="POST")
    with urllib.request.urlopen(request, timeout=10):
        pass


_sessions = threading.local()


def _session() -> Any:
    """One boto3 session per thread, kept: a new one reads botocore's models and
    endpoints again (a tenth of a second per client, and tests make hundreds)."""
    import boto3

    session = getattr(_sessions, "session", None)
    if session is None:
        session = _sessions.session = boto3.session.Session(
            region_name="us-east-1", aws_access_key_id="test", aws_secret_access_key="test")
    return session


def client(service: str, url: str | None = None) -> Any:
    """A client of moto's server at ``url``, or (None) of moto in this process."""
    return _session().client(service, endpoint_url=url)


def key_table(dynamodb: Any, name: str) -> None:
    """A table keyed as the club's (``pk``, ``sk``; strings), without its indexes."""
    dynamodb.create_table(
        TableName=name, BillingMode="PAY_PER_REQUEST",
        AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"},
                              {"AttributeName": "sk", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"},
                   {"AttributeName": "sk", "KeyType": "RANGE"}])
