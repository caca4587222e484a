"""Identifiers shaped like the ones API Gateway and Lambda hand out."""

from __future__ import annotations

import base64
import secrets
import uuid


def connection_id() -> str:
    """A connection id like API Gateway's: 16 URL-safe base64 characters ending in ``=``."""
    return base64.urlsafe_b64encode(secrets.token_bytes(11)).decode()


def request_id() -> str:
    """An API Gateway request / message id (``requestId``, ``messageId``, ``extendedRequestId``)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(11)).decode()


def invocation_id() -> str:
    """A Lambda ``aws_request_id`` (a UUID)."""
    return str(uuid.uuid4())
