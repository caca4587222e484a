"""What a Lambda entry point writes through Powertools: the log lines (Lambda's context,
the correlation id, the keys of this invocation only) and the EMF metric records
(one per invocation, the ColdStart metric on the first)."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from aws_lambda_powertools.logging import logger as powertools_logger
from aws_lambda_powertools.metrics.provider import cold_start
from numbridge.local.lambdas.lambda_context import LambdaContext
from numbridge.service import observability as obs
from numbridge.service.handlers.entry import API_CORRELATION_ID, lambda_entry

ROOT = Path(__file__).resolve().parents[2]
Lines = Callable[[], list[dict[str, Any]]]


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch) -> None:
    """A process whose first invocation is still to come (Powertools keeps it in two flags)."""
    monkeypatch.setattr(powertools_logger, "is_cold_start", True)
    monkeypatch.setattr(cold_start, "is_cold_start", True)


@pytest.fixture
def logs() -> Iterator[Lines]:
    """The logger's JSON lines (its handler holds the stdout of import time, not capsys')."""
    handler = cast(logging.StreamHandler[Any], obs.logger.logger_handler)
    buffer = io.StringIO()
    previous = handler.setStream(buffer)
    level = obs.logger.log_level
    obs.logger.setLevel(logging.INFO)
    try:
        yield lambda: [json.loads(line) for line in buffer.getvalue().splitlines() if line]
    finally:
        handler.setStream(previous)
        obs.logger.setLevel(level)


@pytest.fixture
def records(capsys: pytest.CaptureFixture[str]) -> Iterator[Lines]:
    """The EMF records printed on stdout."""
    obs.metrics.clear_metrics()

    def read() -> list[dict[str, Any]]:
        out = capsys.readouterr().out
        return [json.loads(line) for line in out.splitlines() if line.startswith('{"_aws"')]

    yield read
    obs.metrics.clear_metrics()


def test_a_log_line_carries_the_invocation_the_keys_and_the_extra(cold: None, logs: Lines) -> None:
    @lambda_entry(correlation_id_path=API_CORRELATION_ID)
    def handler(event: dict[str, Any], context: Any) -> str:
        if event:
            obs.logger.append_keys(player="ana")
        obs.logger.warning("lost a race", extra={"game": "g-1"})
        return "done"

    context = LambdaContext("numbridge-move", memory_limit_in_mb=1024)
    assert handler({"requestContext": {"requestId": "c-9"}}, context) == "done"
    handler({}, LambdaContext("numbridge-move"))
    first, second = logs()
    assert first["message"] == "lost a race" and first["level"] == "WARNING"
    assert (first["player"], first["game"], first["correlation_id"]) == ("ana", "g-1", "c-9")
    assert (first["function_name"], first["function_request_id"]) == (
        "numbridge-move", context.aws_request_id)
    assert first["function_memory_size"] == 1024 and first["service"] == obs.SERVICE
    assert first["cold_start"] is True and second["cold_start"] is False
    # The keys of the invocation before were cleared.
    assert "player" not in second and "correlation_id" not in second
    assert first["location"].startswith("handler:")


def test_an_exception_is_logged_with_its_traceback(logs: Lines) -> None:
    try:
        raise KeyError("state")
    except KeyError:
        obs.logger.exception("request failed")
    [line] = logs()
    assert line["exception_name"] == "KeyError" and "Traceback" in line["exception"]


def test_metrics_are_one_emf_record_per_invocation_and_cold_start_once(
        cold: None, records: Lines) -> None:
    @lambda_entry()
    def handler(event: dict[str, Any], context: Any) -> None:
        for _ in range(event["moves"]):
            obs.count("Moves")
        obs.measure("DealLatency", 7.5, obs.MetricUnit.Milliseconds)
        obs.measure("Lag", 2, obs.MetricUnit.Milliseconds, obs.MetricResolution.High)

    handler({"moves": 2}, LambdaContext("numbridge-lobby"))
    started, record = records()  # the ColdStart record is written as the handler returns
    [directive] = record["_aws"]["CloudWatchMetrics"]
    assert directive["Namespace"] == obs.NAMESPACE and directive["Dimensions"] == [["service"]]
    assert directive["Metrics"] == [
        {"Name": "Moves", "Unit": "Count"}, {"Name": "DealLatency", "Unit": "Milliseconds"},
        {"Name": "Lag", "Unit": "Milliseconds", "StorageResolution": 1}]
    assert (record["Moves"], record["DealLatency"], record["Lag"], record["service"]) == (
        [1, 1], [7.5], [2], obs.SERVICE)
    [directive] = started["_aws"]["CloudWatchMetrics"]
    assert [m["Name"] for m in directive["Metrics"]] == ["ColdStart"]
    assert (started["ColdStart"], started["function_name"]) == ([1], "numbridge-lobby")

    handler({"moves": 1}, LambdaContext("numbridge-lobby"))
    [record] = records()  # warm: no ColdStart
    assert record["Moves"] == [1]


def test_an_invocation_without_metrics_writes_no_record(records: Lines) -> None:
    lambda_entry()(lambda event, context: None)({}, LambdaContext("numbridge-connect"))
    assert [r for r in records() if "ColdStart" not in r] == []


def test_a_metric_is_written_before_it_reaches_cloudwatchs_limit(records: Lines) -> None:
    for _ in range(101):  # CloudWatch takes 100 values of a metric in one record
        obs.count("Posts")
    obs.metrics.flush_metrics()
    assert [len(r["Posts"]) for r in records()] == [100, 1]


def test_invocations_on_many_threads_write_every_metric_and_never_raise(records: Lines) -> None:
    """numbridge serve runs invocations on worker threads of one process: one thread's
    flush must not empty the set under another's (Powertools would raise on it)."""
    @lambda_entry()
    def handler(event: dict[str, Any], context: Any) -> None:
        if event["counts"]:
            obs.count("Moves")

    threads, rounds = 8, 300
    start = threading.Barrier(threads)
    failures: list[BaseException] = []

    def invoke(k: int) -> None:
        start.wait()
        for i in range(rounds):
            try:
                handler({"counts": (i + k) % 2 == 0}, LambdaContext("numbridge-move"))
            except BaseException as failure:
                failures.append(failure)

    workers = [threading.Thread(target=invoke, args=(k,)) for k in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []
    assert sum(len(r.get("Moves", [])) for r in records()) == threads * rounds // 2


def test_disabled_metrics_collect_nothing_not_even_the_cold_start(
        cold: None, monkeypatch: pytest.MonkeyPatch, records: Lines) -> None:
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")

    @lambda_entry()
    def handler(event: dict[str, Any], context: Any) -> None:
        obs.count("Moves")

    handler({}, LambdaContext("numbridge-move"))
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED")
    obs.metrics.flush_metrics()
    assert records() == []


def test_sampling_and_event_logging_follow_powertools_variables() -> None:
    """In a fresh process, as Lambda starts one: a sample rate of 1 logs DEBUG at
    every invocation, POWERTOOLS_LOGGER_LOG_EVENT logs the event, and with tracing
    off the X-Ray SDK is never loaded."""
    code = (
        "from numbridge.local.lambdas.lambda_context import LambdaContext\n"
        "from numbridge.service.handlers.entry import lambda_entry\n"
        "from numbridge.service.observability import logger\n"
        "handler = lambda_entry()(lambda event, context: logger.debug('looked'))\n"
        "for n in range(2): handler({'n': n}, LambdaContext('numbridge-bot'))\n"
        "import sys; assert not any(m.startswith('aws_xray_sdk') for m in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "layers" / "numbridge"),
           "POWERTOOLS_LOG_LEVEL": "WARNING", "POWERTOOLS_LOGGER_SAMPLE_RATE": "1",
           "POWERTOOLS_LOGGER_LOG_EVENT": "true", "POWERTOOLS_METRICS_DISABLED": "true"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["message"] for line in lines] == [{"n": 0}, "looked", {"n": 1}, "looked"]
    assert {line["sampling_rate"] for line in lines} == {"1"}


def test_the_stacks_default_sample_rate_logs_no_debug() -> None:
    """LogSampleRate's default, as Lambda hands it over (a string): no DEBUG line at
    level INFO, in any of many invocations."""
    from numbridge.sam_template import load_template

    default = load_template(ROOT / "template.yaml")["Parameters"]["LogSampleRate"]["Default"]
    code = (
        "from numbridge.local.lambdas.lambda_context import LambdaContext\n"
        "from numbridge.service.handlers.entry import lambda_entry\n"
        "from numbridge.service.observability import logger\n"
        "handler = lambda_entry()(lambda event, context: logger.debug('looked'))\n"
        "for n in range(50): handler({'n': n}, LambdaContext('numbridge-bot'))\n"
        "logger.info('done')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "layers" / "numbridge"),
           "POWERTOOLS_LOG_LEVEL": "INFO", "POWERTOOLS_LOGGER_SAMPLE_RATE": str(default),
           "POWERTOOLS_METRICS_DISABLED": "true"}
    env.pop("POWERTOOLS_LOGGER_LOG_EVENT", None)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         check=True).stdout
    assert [json.loads(line)["message"] for line in out.splitlines()] == ["done"]
