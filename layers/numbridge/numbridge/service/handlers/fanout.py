"""The lobby's changes (an SQS batch from the lobby queue): one ``changes`` frame to
each subscriber per batch, and waiting seeks tried again."""

from __future__ import annotations

from typing import Any

from numbridge.service import context as ctx
from numbridge.service.handlers.entry import lambda_entry
from numbridge.service.usecases.fanout import on_lobby_messages


@lambda_entry()
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return on_lobby_messages(ctx.services(), event)
