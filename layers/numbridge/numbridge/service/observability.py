"""Powertools Logger, Tracer and Metrics shared by every handler and use case."""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit
from aws_lambda_powertools.metrics.functions import is_metrics_disabled

logger = Logger(service="numbridge")
tracer = Tracer(service="numbridge")
metrics = Metrics(namespace="Numbridge", service="numbridge")

__all__ = ["MetricUnit", "count", "logger", "measure", "metrics", "tracer"]


def measure(name: str, value: float, unit: MetricUnit = MetricUnit.Count) -> None:
    # Powertools prints a full metric set even when metrics are disabled (every 100
    # values, never flushed otherwise): with them off, nothing is collected.
    if not is_metrics_disabled():
        metrics.add_metric(name=name, unit=unit, value=value)


def count(name: str, value: float = 1) -> None:
    measure(name, value)
