"""Reviews (an SQS batch from the review queue): each reviews one finished game, or deals
the free slots of a stocked setting (``usecases.reviewing``)."""

from __future__ import annotations

from typing import Any

from numbridge.service import context as ctx
from numbridge.service.handlers.entry import lambda_entry
from numbridge.service.usecases.reviewing import on_review_messages


@lambda_entry()
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return on_review_messages(ctx.services(), event)
