"""A fetched value kept for a bounded time: read again when it ages out, stale on failure."""

from __future__ import annotations

import pytest
from numbridge.refreshing import Refreshing


class Source:
    def __init__(self) -> None:
        self.value = "v1"
        self.calls = 0
        self.failing = False
        self.now = 0.0

    def fetch(self) -> str:
        self.calls += 1
        if self.failing:
            raise ConnectionError("down")
        return self.value

    def clock(self) -> float:
        return self.now


@pytest.fixture
def source() -> Source:
    return Source()


@pytest.fixture
def cached(source: Source) -> Refreshing[str]:
    return Refreshing(source.fetch, max_age_s=300, max_stale_s=600, retry_after_s=10,
                      clock=source.clock)


def test_fetched_on_first_use_and_kept_until_it_ages_out(
    source: Source, cached: Refreshing[str]
) -> None:
    assert source.calls == 0
    assert cached.get() == "v1"
    source.value = "v2"
    source.now = 299.9
    assert cached.get() == "v1" and source.calls == 1
    source.now = 300.0
    assert cached.get() == "v2" and source.calls == 2
    source.now = 599.0
    assert cached.get() == "v2" and source.calls == 2


def test_a_failed_refetch_serves_the_old_value_for_a_while_then_gives_up(
    source: Source, cached: Refreshing[str]
) -> None:
    cached.get()
    source.failing = True
    source.now = 300.0
    assert cached.get() == "v1" and source.calls == 2
    source.now = 305.0
    assert cached.get() == "v1" and source.calls == 2  # retried only after retry_after_s
    source.now = 311.0
    assert cached.get() == "v1" and source.calls == 3
    source.now = 300.0 + 600.0 + 1
    with pytest.raises(ConnectionError):
        cached.get()
    source.failing = False
    assert cached.get() == "v1" and cached.fetches == 2


def test_nothing_to_serve_means_the_error(source: Source, cached: Refreshing[str]) -> None:
    source.failing = True
    with pytest.raises(ConnectionError):
        cached.get()
    with pytest.raises(ConnectionError):
        cached.get()
    assert source.calls == 2


def test_refresh_fetches_unless_the_value_is_young(
    source: Source, cached: Refreshing[str]
) -> None:
    assert cached.refresh(unless_younger_than_s=60) is True  # nothing yet: fetched
    source.value = "v2"
    source.now = 59.0
    assert cached.refresh(unless_younger_than_s=60) is False
    assert cached.get() == "v1"
    source.now = 60.0
    assert cached.refresh(unless_younger_than_s=60) is True
    assert cached.get() == "v2"
    source.failing = True
    source.now = 200.0
    assert cached.refresh(unless_younger_than_s=60) is False
    assert cached.get() == "v2"
