"""The decorators every Lambda entry point wears: logging context, tracing, metrics."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from numbridge.service.observability import capture_lambda_handler, logger, metrics

API_CORRELATION_ID = "requestContext.requestId"

Handler = TypeVar("Handler", bound=Callable[..., Any])


def lambda_entry(*, correlation_id_path: str | None = None) -> Callable[[Handler], Handler]:
    """The log context (cleared per invocation), X-Ray when tracing is on, and the
    metrics written at the end of each invocation."""

    def wrap(handler: Handler) -> Handler:
        wrapped = capture_lambda_handler(metrics.log_metrics(handler))
        return logger.inject_lambda_context(
            wrapped, correlation_id_path=correlation_id_path, clear_state=True)

    return wrap
