"""The structured log lines and the EMF metric records the handlers write."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from numbridge.service import observability as obs


@pytest.fixture
def lines(capsys: pytest.CaptureFixture[str]) -> Any:
    def read() -> list[dict[str, Any]]:
        return [json.loads(line) for line in capsys.readouterr().out.splitlines() if line]
    return read


def test_a_log_line_carries_the_invocation_the_keys_and_the_extra(lines: Any) -> None:
    log = obs.Logger("numbridge-test")
    context = SimpleNamespace(function_name="move", memory_limit_in_mb=512,
                              invoked_function_arn="arn:aws:lambda:x", aws_request_id="r-1")

    def handler(event: dict[str, Any], context: Any) -> str:
        log.append_keys(player="ana")
        log.warning("lost a race", extra={"game": "g-1"})
        return "done"

    wrapped = log.inject_lambda_context(handler, correlation_id_path="requestContext.requestId",
                                        clear_state=True)
    assert wrapped({"requestContext": {"requestId": "c-9"}}, context) == "done"
    wrapped({}, context)
    first, second = lines()
    assert first["message"] == "lost a race" and first["level"] == "WARNING"
    assert (first["player"], first["game"], first["correlation_id"]) == ("ana", "g-1", "c-9")
    assert (first["function_name"], first["function_request_id"]) == ("move", "r-1")
    assert first["cold_start"] is True and second["cold_start"] is False
    assert second["correlation_id"] is None  # the keys of the invocation before were cleared
    assert first["location"].startswith("handler:") and first["timestamp"].endswith("Z")


def test_an_exception_is_logged_with_its_traceback(lines: Any) -> None:
    log = obs.Logger("numbridge-test-exc")
    try:
        raise KeyError("state")
    except KeyError:
        log.exception("request failed")
    [line] = lines()
    assert line["exception_name"] == "KeyError" and "Traceback" in line["exception"]


def test_metrics_are_one_emf_record_per_invocation(lines: Any) -> None:
    metrics = obs.Metrics("Numbridge", "numbridge")
    handler = metrics.log_metrics(lambda: [metrics.add_metric("Moves", obs.MetricUnit.Count, 1),
                                           metrics.add_metric("Moves", obs.MetricUnit.Count, 1),
                                           metrics.add_metric("DealLatency",
                                                              obs.MetricUnit.Milliseconds, 7.5)])
    handler()
    [record] = lines()
    [directive] = record["_aws"]["CloudWatchMetrics"]
    assert directive["Namespace"] == "Numbridge" and directive["Dimensions"] == [["service"]]
    assert {m["Name"]: m["Unit"] for m in directive["Metrics"]} == {
        "Moves": "Count", "DealLatency": "Milliseconds"}
    assert (record["Moves"], record["DealLatency"], record["service"]) == ([1, 1], 7.5,
                                                                           "numbridge")
    metrics.flush()
    assert lines() == []  # nothing collected, nothing written


def test_a_metric_is_written_before_it_reaches_cloudwatchs_limit(lines: Any) -> None:
    metrics = obs.Metrics("Numbridge", "numbridge")
    for _ in range(obs.MAX_VALUES + 1):
        metrics.add_metric("Posts", obs.MetricUnit.Count, 1)
    metrics.flush()
    records = lines()
    assert [len(r["Posts"]) if isinstance(r["Posts"], list) else 1 for r in records] == [
        obs.MAX_VALUES, 1]


def test_disabled_metrics_collect_nothing(monkeypatch: pytest.MonkeyPatch, lines: Any) -> None:
    monkeypatch.setenv("POWERTOOLS_METRICS_DISABLED", "true")
    obs.count("Moves")
    obs.metrics.flush()
    assert lines() == []
