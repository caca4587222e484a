from __future__ import annotations

from collections.abc import Iterator

import boto3
import pytest
from harness import World
from moto import mock_aws


@pytest.fixture
def world() -> Iterator[World]:
    with mock_aws():
        w = World(boto3.client("dynamodb"), boto3.client("sqs"))
        try:
            yield w
        finally:
            w.close()
