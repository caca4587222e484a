"""Identifiers shaped like the ones API Gateway and Lambda hand out."""

from __future__ import annotations

import base64
import secrets
import uuid


def api_gateway_id() -> str:
    """An id as API Gateway hands them out — a connection id, a request or message id:
    16 URL-safe base64 characters ending in ``=``."""
    return base64.urlsafe_b64encode(secrets.token_bytes(11)).decode()


def invocation_id() -> str:
    """A Lambda ``aws_request_id`` (a UUID)."""
    return str(uuid.uuid4())
