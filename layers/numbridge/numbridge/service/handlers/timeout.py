"""Per-turn timers (an SQS batch) and the one-minute sweep (a schedule event)."""

from __future__ import annotations

from typing import Any

from numbridge.service import context as ctx
from numbridge.service.handlers.entry import lambda_entry
from numbridge.service.usecases.deadlines import on_sweep, on_timer_messages


@lambda_entry()
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    if "Records" in event:
        return on_timer_messages(ctx.services(), event)
    return on_sweep(ctx.services())
