"""Test-wide settings: no real AWS ever, quiet Powertools, hypothesis profiles."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings
from testkit import moto_server as moto_server_module

os.environ.update(
    AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing",
    AWS_SESSION_TOKEN="testing", AWS_DEFAULT_REGION="us-east-1",
    POWERTOOLS_TRACE_DISABLED="true", POWERTOOLS_METRICS_NAMESPACE="Numbridge",
    POWERTOOLS_LOG_LEVEL="WARNING", POWERTOOLS_DEV="false",
)
for var in ("AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL_SQS",
            "AWS_PROFILE"):
    os.environ.pop(var, None)

# Tests of a minute or more of one core: started first, since one started last keeps a
# worker busy after the other has run out of work.
LONG = (
    "tests/unit/rules/test_rules_properties.py::",
    "tests/integration/test_club_move.py::test_a_club_moves_to_dynamodb_and_back",
    "tests/integration/test_fuzz.py::test_no_frame_escapes",
    "tests/integration/test_batched_events.py::test_a_sync_answers_in_events_frames",
    "tests/unit/bot/test_bot_legal.py::test_every_action_the_bot_returns_is_legal",
)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """One worker more than cores: the browser and server tests spend a third of their
    time waiting, and another worker's CPU-bound tests fill it (on 2 cores the suite
    took 408 s with 3 workers, 464 s with 2)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(LONG))  # stable: the rest as found


settings.register_profile("ci", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def aws() -> Iterator[None]:
    """moto in this process for the test (testkit.moto_server): clients made without
    an endpoint reach it."""
    with moto_server_module.in_process():
        yield


@pytest.fixture(scope="session")
def moto_server() -> Iterator[str]:
    """moto's server, once per session (testkit.moto_server); its URL."""
    with moto_server_module.running() as url:
        yield url


@pytest.fixture
def moto_url(moto_server: str) -> str:
    """The moto server, emptied for this test."""
    moto_server_module.reset(moto_server)
    return moto_server
