"""``$disconnect``: the connection is forgotten."""

from __future__ import annotations

from typing import Any

from numbridge.service import context as ctx
from numbridge.service.handlers.entry import API_CORRELATION_ID, lambda_entry
from numbridge.service.usecases.sessions import on_disconnect


@lambda_entry(correlation_id_path=API_CORRELATION_ID)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return on_disconnect(ctx.services(), event)
