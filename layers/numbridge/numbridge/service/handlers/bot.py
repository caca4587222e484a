"""Bot turns (an SQS batch from the bot queue): each plays one bot seat's turn."""

from __future__ import annotations

from typing import Any

from numbridge.service import context as ctx
from numbridge.service.bots.move import on_bot_messages
from numbridge.service.handlers.entry import lambda_entry


@lambda_entry()
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return on_bot_messages(ctx.services(), event)
