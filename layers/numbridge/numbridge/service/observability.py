"""Structured logs and CloudWatch metrics for every handler and use case; X-Ray on demand.

Logs are one JSON object per line, metrics one line per invocation in the
Embedded Metric Format (CloudWatch turns it into metrics with no API call).
The shapes and the environment follow Powertools' Logger and Metrics —
``POWERTOOLS_SERVICE_NAME``, ``POWERTOOLS_LOG_LEVEL`` (or ``LOG_LEVEL``),
``POWERTOOLS_METRICS_NAMESPACE``, ``POWERTOOLS_METRICS_DISABLED`` — so queries
and dashboards written for those keep working; they are written here because
Powertools' two classes cost every cold start 6 to 9 ms of imports
(``typing_extensions``, jmespath, …) for what is a ``json.dumps`` per line.

Tracing is Powertools' Tracer, and the X-Ray SDK costs a tenth of a second at
import, so it is imported only when tracing is on (:func:`tracing_enabled`):
the stack's ``Tracing`` parameter sets ``POWERTOOLS_TRACE_DISABLED``, and
outside Lambda tracing is always off (the rule Powertools' own Tracer applies).
"""

from __future__ import annotations

import enum
import functools
import json
import logging
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

if TYPE_CHECKING:
    from aws_lambda_powertools import Tracer

SERVICE = os.environ.get("POWERTOOLS_SERVICE_NAME") or "numbridge"
TRUTHY = frozenset({"1", "true", "yes", "on", "y", "t"})
# CloudWatch takes at most 100 values of one metric in one EMF record.
MAX_VALUES = 100

__all__ = [
    "MetricUnit", "capture_lambda_handler", "count", "logger", "measure", "metrics",
    "tracing_enabled",
]

Handler = TypeVar("Handler", bound=Callable[..., Any])


class MetricUnit(enum.StrEnum):
    Count = "Count"
    Milliseconds = "Milliseconds"


def _truthy(name: str, env: Mapping[str, str] = os.environ) -> bool:
    return env.get(name, "").strip().lower() in TRUTHY


# --- logs -------------------------------------------------------------------------------


class _JsonLines(logging.Formatter):
    def __init__(self, keys: Callable[[], dict[str, Any]]) -> None:
        super().__init__()
        self._keys = keys

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "level": record.levelname,
            "location": f"{record.funcName}:{record.lineno}",
            "message": record.getMessage(),
            "timestamp": _iso(record.created),
            "service": SERVICE,
            **self._keys(),
            **getattr(record, "numbridge_extra", {}),
        }
        if record.exc_info and record.exc_info[0] is not None:
            line["exception_name"] = record.exc_info[0].__name__
            line["exception"] = "".join(traceback.format_exception(*record.exc_info)).rstrip()
        return json.dumps(line, default=str, separators=(",", ":"))


def _iso(created: float) -> str:
    ms = int(created * 1000) % 1000
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created)) + f".{ms:03d}Z"


class Logger:
    """JSON lines on stdout: the message, the keys appended during this invocation
    (player, game, …) and the ``extra`` of the call."""

    def __init__(self, service: str) -> None:
        self._keys: dict[str, Any] = {}
        self._log = logging.getLogger(service)
        self._log.propagate = False
        level = os.environ.get("POWERTOOLS_LOG_LEVEL") or os.environ.get("LOG_LEVEL") or "INFO"
        self._log.setLevel(level.upper())
        handler = logging.StreamHandler(sys.stdout)
        handler.setFormatter(_JsonLines(lambda: dict(self._keys)))
        self._log.handlers = [handler]
        self._cold = True

    def append_keys(self, **keys: Any) -> None:
        self._keys.update(keys)

    def _emit(self, level: int, message: str, extra: Mapping[str, Any] | None,
              exc_info: bool = False) -> None:
        self._log.log(level, message, exc_info=exc_info, stacklevel=3,
                      extra={"numbridge_extra": dict(extra or {})})

    def debug(self, message: str, *, extra: Mapping[str, Any] | None = None) -> None:
        self._emit(logging.DEBUG, message, extra)

    def info(self, message: str, *, extra: Mapping[str, Any] | None = None) -> None:
        self._emit(logging.INFO, message, extra)

    def warning(self, message: str, *, extra: Mapping[str, Any] | None = None) -> None:
        self._emit(logging.WARNING, message, extra)

    def error(self, message: str, *, extra: Mapping[str, Any] | None = None) -> None:
        self._emit(logging.ERROR, message, extra)

    def exception(self, message: str, *, extra: Mapping[str, Any] | None = None) -> None:
        self._emit(logging.ERROR, message, extra, exc_info=True)

    def inject_lambda_context(self, handler: Handler, *, correlation_id_path: str | None = None,
                              clear_state: bool = False) -> Handler:
        """Each invocation starts from the Lambda context's keys (and the event's
        correlation id); with ``clear_state`` the keys of the one before are dropped."""

        @functools.wraps(handler)
        def wrapped(event: Any, context: Any = None, *args: Any, **kwargs: Any) -> Any:
            if clear_state:
                self._keys.clear()
            self._keys.update(_context_keys(context, self._cold))
            self._cold = False
            if correlation_id_path is not None:
                self._keys["correlation_id"] = _at(event, correlation_id_path)
            return handler(event, context, *args, **kwargs)

        return cast(Handler, wrapped)


def _context_keys(context: Any, cold: bool) -> dict[str, Any]:
    keys: dict[str, Any] = {"cold_start": cold}
    for key, attribute in (("function_name", "function_name"),
                           ("function_memory_size", "memory_limit_in_mb"),
                           ("function_arn", "invoked_function_arn"),
                           ("function_request_id", "aws_request_id")):
        value = getattr(context, attribute, None)
        if value is not None:
            keys[key] = value
    trace = os.environ.get("_X_AMZN_TRACE_ID", "")
    if trace.startswith("Root="):
        keys["xray_trace_id"] = trace.split(";")[0].removeprefix("Root=")
    return keys


def _at(event: Any, path: str) -> Any:
    for part in path.split("."):
        if not isinstance(event, dict):
            return None
        event = event.get(part)
    return event


# --- metrics ----------------------------------------------------------------------------


class Metrics:
    """Values collected during an invocation (from any thread) and written at its end
    as EMF records, dimension ``service``."""

    def __init__(self, namespace: str, service: str) -> None:
        self.namespace = namespace
        self.service = service
        self._lock = threading.Lock()
        self._values: dict[str, tuple[MetricUnit, list[float]]] = {}

    def add_metric(self, name: str, unit: MetricUnit, value: float) -> None:
        with self._lock:
            values = self._values.setdefault(name, (unit, []))[1]
            values.append(value)
            full = len(values) >= MAX_VALUES
        if full:
            self.flush()

    def flush(self, out: Callable[[str], None] | None = None) -> None:
        """Write what was collected (nothing if nothing was) and start again."""
        with self._lock:
            collected, self._values = self._values, {}
        if not collected:
            return
        record: dict[str, Any] = {
            "_aws": {"Timestamp": int(time.time() * 1000), "CloudWatchMetrics": [{
                "Namespace": self.namespace, "Dimensions": [["service"]],
                "Metrics": [{"Name": name, "Unit": str(unit)}
                            for name, (unit, _) in collected.items()],
            }]},
            "service": self.service,
            **{name: values[0] if len(values) == 1 else values
               for name, (_, values) in collected.items()},
        }
        (out or _print)(json.dumps(record, separators=(",", ":")))

    def log_metrics(self, handler: Handler) -> Handler:
        """``handler``, its metrics written when it returns or raises."""

        @functools.wraps(handler)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            finally:
                self.flush()

        return cast(Handler, wrapped)


def _print(line: str) -> None:
    print(line, flush=True)


logger = Logger(SERVICE)
metrics = Metrics(os.environ.get("POWERTOOLS_METRICS_NAMESPACE") or "Numbridge", SERVICE)


def measure(name: str, value: float, unit: MetricUnit = MetricUnit.Count) -> None:
    if not _truthy("POWERTOOLS_METRICS_DISABLED"):
        metrics.add_metric(name, unit, value)


def count(name: str, value: float = 1) -> None:
    measure(name, value)


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
