"""One moto server for every suite that needs DynamoDB or SQS over HTTP.

It is ``numbridge.local.embedded_moto.EmbeddedMoto``: DynamoDB's requests are
taken one at a time, each atomically, as DynamoDB applies them, so races staged
against it run with the store's own concurrency and nothing else serialised.
"""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def running() -> Iterator[str]:
    """A moto server on a free port; its base URL."""
    from numbridge.local.embedded_moto import EmbeddedMoto

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


def client(service: str, url: str) -> Any:
    import boto3

    return boto3.client(service, endpoint_url=url, region_name="us-east-1",
                        aws_access_key_id="test", aws_secret_access_key="test")
