"""Tournament steps (an SQS batch from the tournament queue: each message one
tournament's step), and a sweep of the overdue ones (a schedule event, or the local
runtime's few seconds)."""

from __future__ import annotations

from typing import Any

from numbridge.service import context as ctx
from numbridge.service.handlers.entry import lambda_entry
from numbridge.service.usecases.tournament_steps import on_step_messages, on_sweep


@lambda_entry()
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    # The steps deal boards while this invocation has time left for one more.
    time_left = getattr(context, "get_remaining_time_in_millis", None)
    if "Records" in event:
        return on_step_messages(ctx.services(), event, time_left)
    return on_sweep(ctx.services(), time_left)
