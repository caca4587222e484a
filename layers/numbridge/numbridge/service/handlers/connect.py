"""``$connect``: the token is checked (401/403 otherwise) and the connection bound."""

from __future__ import annotations

from typing import Any

import jwt  # noqa: F401  (token checks load it: at init, not in the first connect)

from numbridge.service import context as ctx
from numbridge.service.handlers.entry import API_CORRELATION_ID, lambda_entry
from numbridge.service.usecases.sessions import on_connect


@lambda_entry(correlation_id_path=API_CORRELATION_ID)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return on_connect(ctx.services(), event)
