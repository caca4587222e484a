"""The Lambda entry points (decorated with Powertools); ``functions/*/app.py``
re-export them so every function is a thin shell around the service.
"""

from __future__ import annotations

from typing import Any

from numbridge.service import context as ctx
from numbridge.service.dispatch import (
    MessageHandler,
    on_connect,
    on_disconnect,
    on_sweep,
    on_timer_messages,
)
from numbridge.service.observability import logger, metrics, tracer

CORRELATION_ID = "requestContext.requestId"

_message_handlers: dict[int, MessageHandler] = {}


def _messages() -> MessageHandler:
    svc = ctx.services()
    handler = _message_handlers.get(id(svc))
    if handler is None or handler.svc is not svc:
        handler = _message_handlers[id(svc)] = MessageHandler(svc)
    return handler


@logger.inject_lambda_context(correlation_id_path=CORRELATION_ID, clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def connect(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return on_connect(ctx.services(), event)


@logger.inject_lambda_context(correlation_id_path=CORRELATION_ID, clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def disconnect(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return on_disconnect(ctx.services(), event)


@logger.inject_lambda_context(correlation_id_path=CORRELATION_ID, clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def message(event: dict[str, Any], context: Any) -> dict[str, Any]:
    return _messages()(event, context)


@logger.inject_lambda_context(clear_state=True)
@tracer.capture_lambda_handler
@metrics.log_metrics
def timeout(event: dict[str, Any], context: Any) -> dict[str, Any]:
    if "Records" in event:
        return on_timer_messages(ctx.services(), event)
    return on_sweep(ctx.services())
