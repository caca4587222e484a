"""The error codes of the protocol and the one exception that carries them.

Every refusal, whatever layer it comes from, is translated into a
:class:`ProtocolError` at the service boundary and answered to the requester
only, as ``{"type": "error", "id": ..., "code": ..., "message": ...}``.
"""

from __future__ import annotations

from typing import Literal, get_args

ErrorCode = Literal[
    "malformed",
    "unknown_action",
    "unauthorized",
    "not_found",
    "not_your_turn",
    "illegal",
    "game_over",
    "conflict",
    "rate_limited",
    "internal",
    "too_many_games",
    "too_many_watches",
    "full",
    "too_many_subscriptions",
]
ERROR_CODES: tuple[str, ...] = get_args(ErrorCode)


class ProtocolError(Exception):
    """A request refused with a protocol error code; nothing was changed."""

    def __init__(self, code: ErrorCode, message: str,
                 retry_after_ms: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code: ErrorCode = code
        self.message = message
        self.retry_after_ms = retry_after_ms

    @classmethod
    def of(cls, code: str, message: str) -> ProtocolError:
        """From another layer's error code (the rules' codes are protocol codes)."""
        for known in ERROR_CODES:
            if known == code:
                return cls(known, message)  # type: ignore[arg-type]
        return cls("internal", message)

