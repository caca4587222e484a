"""The decorators every Lambda entry point wears: Powertools' logging context, tracing
(when on) and metrics."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from numbridge.service.observability import (
    capture_lambda_handler,
    is_metrics_disabled,
    logger,
    metrics,
)

# API Gateway's request id (WebSocket events carry it where REST events do).
API_CORRELATION_ID = "requestContext.requestId"

Handler = TypeVar("Handler", bound=Callable[..., Any])


def lambda_entry(*, correlation_id_path: str | None = None) -> Callable[[Handler], Handler]:
    """The log context (Lambda's context, cold start, the correlation id; cleared per
    invocation), X-Ray when tracing is on, and the metrics written at the end of each
    invocation with a ``ColdStart`` metric on the first."""

    def wrap(handler: Handler) -> Handler:
        # Powertools writes the ColdStart record even with metrics disabled (numbridge
        # serve disables them): asked for only when metrics are on.
        measured = metrics.log_metrics(
            handler, capture_cold_start_metric=not is_metrics_disabled())
        wrapped = capture_lambda_handler(measured)
        return cast(Handler, logger.inject_lambda_context(
            wrapped, correlation_id_path=correlation_id_path, clear_state=True))

    return wrap
