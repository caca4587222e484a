"""Identifiers shaped like the ones API Gateway and Lambda hand out."""

from __future__ import annotations

import base64
import itertools
import secrets

# Request, message and invocation ids only need to be unique: a random prefix for
# this process and a counter, instead of the OS's random source three or four times
# an event. Connection ids stay unpredictable: @connections is addressed by them.
_PREFIX = secrets.token_bytes(5)
_UUID_BASE = int.from_bytes(secrets.token_bytes(16), "big")
_serial = itertools.count(1)  # next() is atomic: handler threads share it


def api_gateway_id() -> str:
    """An id as API Gateway hands them out — a connection id, a request or message id:
    16 URL-safe base64 characters ending in ``=``."""
    return base64.urlsafe_b64encode(secrets.token_bytes(11)).decode()


def request_id() -> str:
    """A request or message id in API Gateway's shape (see :func:`api_gateway_id`),
    unique in this process but not secret."""
    return base64.urlsafe_b64encode(_PREFIX + next(_serial).to_bytes(6, "big")).decode()


_VERSION_4 = 4 << 76  # the version nibble and the RFC 4122 variant bits
_VARIANT = 0x8000 << 48
_KEPT = ((1 << 128) - 1) & ~(0xF << 76) & ~(0xC000 << 48)


def invocation_id() -> str:
    """A Lambda ``aws_request_id`` (a version 4 UUID), unique in this process."""
    # As uuid.UUID(int=..., version=4) would spell it, without its checks (a third as long).
    n = ((_UUID_BASE + next(_serial)) & _KEPT) | _VERSION_4 | _VARIANT
    h = f"{n:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"
