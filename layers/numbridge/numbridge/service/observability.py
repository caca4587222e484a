"""Powertools Logger, Tracer and Metrics shared by every handler and use case."""

from __future__ import annotations

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.metrics import MetricUnit

logger = Logger(service="numbridge")
tracer = Tracer(service="numbridge")
metrics = Metrics(namespace="Numbridge", service="numbridge")

__all__ = ["MetricUnit", "count", "logger", "metrics", "tracer"]


def count(name: str, value: float = 1) -> None:
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)
