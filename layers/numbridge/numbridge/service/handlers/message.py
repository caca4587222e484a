"""Every client frame (the lobby, deal and move functions): one ``MessageHandler``
per set of services, built on first use."""

from __future__ import annotations

import time
from typing import Any

from numbridge.service import context as ctx
from numbridge.service.dispatch import MessageHandler
from numbridge.service.handlers.entry import API_CORRELATION_ID, lambda_entry
from numbridge.service.observability import MetricUnit, measure

_message_handlers: dict[int, MessageHandler] = {}


def _messages() -> MessageHandler:
    svc = ctx.services()
    handler = _message_handlers.get(id(svc))
    if handler is None or handler.svc is not svc:
        handler = _message_handlers[id(svc)] = MessageHandler(svc)
    return handler


@lambda_entry(correlation_id_path=API_CORRELATION_ID)
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        return _messages()(event, context)
    finally:
        # A frame's whole handling: its answer (ack, reply or error) is posted within.
        measure("AckLatency", (time.perf_counter() - started) * 1000, MetricUnit.Milliseconds)
