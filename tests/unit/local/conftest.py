"""Fixtures for the local runtime: dummy handlers that record their events."""

from __future__ import annotations

import pytest
from local_fakes import Recorder


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()
