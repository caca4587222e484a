"""Every request the protocol declares has exactly one use case, and it can be imported."""

from __future__ import annotations

from numbridge.protocol.requests import REQUEST_KINDS
from numbridge.service.dispatch import USE_CASES, use_case


def test_every_declared_request_is_served_and_nothing_else() -> None:
    assert set(USE_CASES) == {kind.request for kind in REQUEST_KINDS.values()}


def test_every_use_case_resolves_to_a_function() -> None:
    for request in USE_CASES:
        assert callable(use_case(request)), request
