"""Powertools Logger and Metrics shared by every handler and use case; X-Ray on demand.

The X-Ray SDK costs a tenth of a second at import, so it is imported only when
tracing is on (:func:`tracing_enabled`): the stack's ``Tracing`` parameter sets
``POWERTOOLS_TRACE_DISABLED``, and outside Lambda tracing is always off (the
rule Powertools' own Tracer applies).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.metrics.functions import is_metrics_disabled

if TYPE_CHECKING:
    from aws_lambda_powertools import Tracer

SERVICE = "numbridge"
TRUTHY = frozenset({"1", "true", "yes", "on", "y", "t"})

logger = Logger(service=SERVICE)
metrics = Metrics(namespace="Numbridge", service=SERVICE)

__all__ = [
    "MetricUnit", "capture_lambda_handler", "count", "logger", "measure", "metrics",
    "tracing_enabled",
]

Handler = TypeVar("Handler", bound=Callable[..., Any])

_tracer: Tracer | None = None


def measure(name: str, value: float, unit: MetricUnit = MetricUnit.Count) -> None:
    # Powertools prints a full metric set even when metrics are disabled (every 100
    # values, never flushed otherwise): with them off, nothing is collected.
    if not is_metrics_disabled():
        metrics.add_metric(name=name, unit=unit, value=value)


def count(name: str, value: float = 1) -> None:
    measure(name, value)


def tracing_enabled(env: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """On in Lambda unless ``POWERTOOLS_TRACE_DISABLED`` is truthy; off under SAM local."""
    if env.get("POWERTOOLS_TRACE_DISABLED", "false").strip().lower() in TRUTHY:
        return False
    in_lambda = bool(env.get("LAMBDA_TASK_ROOT"))
    emulated = bool(env.get("AWS_SAM_LOCAL") or env.get("AWS_CHALICE_CLI_MODE"))
    return in_lambda and not emulated


def tracer() -> Tracer:
    """The process's Powertools Tracer (imports the X-Ray SDK: only call when tracing)."""
    global _tracer
    if _tracer is None:
        from aws_lambda_powertools import Tracer

        _tracer = Tracer(service=SERVICE)
    return _tracer


def capture_lambda_handler(handler: Handler) -> Handler:
    """``handler`` traced with X-Ray when tracing is on; ``handler`` itself otherwise."""
    if not tracing_enabled():
        return handler
    return cast(Handler, tracer().capture_lambda_handler(handler))
