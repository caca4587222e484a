"""Fixtures for the club tests."""

from __future__ import annotations

import random

import pytest
from numbridge.club.rooms import Rooms
from numbridge.club.rooms_config import load_rooms


@pytest.fixture
def rooms(monkeypatch: pytest.MonkeyPatch) -> Rooms:
    """The shipped default rooms (whatever $ROOMS_CONFIG says outside the test)."""
    monkeypatch.delenv("ROOMS_CONFIG", raising=False)
    return load_rooms()


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)
