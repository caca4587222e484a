"""Logs, metrics and traces for every handler and use case: Powertools' Logger, Metrics
and Tracer, configured by their own environment variables (template.yaml's Globals).

- ``logger``: JSON lines; ``POWERTOOLS_LOG_LEVEL`` (or ``LOG_LEVEL``),
  ``POWERTOOLS_LOGGER_SAMPLE_RATE`` (the share of invocations logged at DEBUG) and
  ``POWERTOOLS_LOGGER_LOG_EVENT`` (log each incoming event) are read by Powertools.
- ``metrics``: one Embedded Metric Format record per invocation, namespace
  ``POWERTOOLS_METRICS_NAMESPACE``, dimension ``service``; the use cases go through
  :func:`count` and :func:`measure` (see there why).
- Tracing: the X-Ray SDK costs a tenth of a second at import, so Powertools' Tracer is
  imported only when tracing is on (:func:`tracing_enabled`): the stack's ``Tracing``
  parameter sets ``POWERTOOLS_TRACE_DISABLED``, and outside Lambda tracing is always off
  (the rule the Tracer itself applies).

The wrapping of a Lambda entry point is :func:`numbridge.service.handlers.entry.lambda_entry`.
"""

from __future__ import annotations

import os
import threading
import warnings
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricResolution, MetricUnit
from aws_lambda_powertools.metrics.functions import is_metrics_disabled
from aws_lambda_powertools.metrics.provider.cloudwatch_emf.cloudwatch import (
    AmazonCloudWatchEMFProvider,
)

if TYPE_CHECKING:
    from aws_lambda_powertools import Tracer

SERVICE = os.environ.get("POWERTOOLS_SERVICE_NAME") or "numbridge"
NAMESPACE = os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or "Numbridge"
TRUTHY = frozenset({"1", "true", "yes", "on", "y", "t"})

__all__ = [
    "MetricResolution", "MetricUnit", "capture_lambda_handler", "count", "is_metrics_disabled",
    "logger", "measure", "metrics", "tracing_enabled",
]

Handler = TypeVar("Handler", bound=Callable[..., Any])

logger = Logger(service=SERVICE)


class _TakingTurns(AmazonCloudWatchEMFProvider):
    """Powertools' EMF provider, its adding and flushing taking turns. One process may
    run several invocations at once (numbridge serve's workers, the tests' harness) and
    the posting threads of one invocation (aws.notifier) add metrics too; the metric set
    is a plain dict, and a flush that found it full could find it emptied by another
    flush a moment later and raise."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._turns = threading.RLock()

    def add_metric(self, *args: Any, **kwargs: Any) -> None:
        with self._turns:
            super().add_metric(*args, **kwargs)

    def flush_metrics(self, raise_on_empty_metrics: bool = False) -> None:
        with self._turns:
            super().flush_metrics(raise_on_empty_metrics=raise_on_empty_metrics)


metrics = Metrics(namespace=NAMESPACE, service=SERVICE)
# The sets Powertools shares between every Metrics of the process, as its own provider has.
metrics.provider = _TakingTurns(
    namespace=NAMESPACE, service=SERVICE, metric_set=metrics.metric_set,
    dimension_set=metrics.dimension_set, metadata_set=metrics.metadata_set,
    default_dimensions=metrics.default_dimensions)

# $connect, $disconnect and most frames emit no metric: an empty set is normal here,
# not the mistake Powertools warns about.
warnings.filterwarnings("ignore", "No application metrics to publish", UserWarning)


def measure(name: str, value: float, unit: MetricUnit = MetricUnit.Count,
            resolution: MetricResolution = MetricResolution.Standard) -> None:
    """``metrics.add_metric``, from any thread, and nothing when metrics are disabled:
    Powertools would keep collecting them (disabled, it clears nothing) and print a
    record at the 100th value anyway. ``MetricResolution.High`` for alarms on periods
    under a minute."""
    if is_metrics_disabled():
        return
    metrics.add_metric(name=name, unit=unit, value=value, resolution=resolution)


def count(name: str, value: float = 1) -> None:
    measure(name, value)


def _truthy(name: str, env: Mapping[str, str]) -> bool:
    return env.get(name, "").strip().lower() in TRUTHY


# --- traces -----------------------------------------------------------------------------

_tracer: Tracer | None = None


def tracing_enabled(env: Mapping[str, str] = os.environ) -> bool:
    """On in Lambda unless ``POWERTOOLS_TRACE_DISABLED`` is truthy; off under SAM local."""
    if _truthy("POWERTOOLS_TRACE_DISABLED", env):
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
