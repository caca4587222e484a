"""The metrics the alarms and the dashboard read, as the handlers really print them: the
Embedded Metric Format records Powertools' Metrics flushes on stdout at the end of each
invocation (template.yaml's TimerLagAlarm and the dashboard read exactly these)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import World
from numbridge.service import observability as obs
from numbridge.store.sqlite import SqliteStore
from players import start_game
from testkit.moto_server import client

LATE_MS = 7_000


@pytest.fixture
def club(tmp_path: Path, aws: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    monkeypatch.delenv("POWERTOOLS_METRICS_DISABLED", raising=False)
    store = SqliteStore(tmp_path / "club.db")
    world = World(store, client("sqs"))
    obs.metrics.clear_metrics()
    yield world
    obs.metrics.clear_metrics()
    world.close()
    store.close()


def emitted(out: str) -> list[dict[str, Any]]:
    """Each EMF record printed: one JSON line with ``_aws``."""
    return [json.loads(line) for line in out.splitlines() if line.startswith('{"_aws"')]


def values(records: list[dict[str, Any]], name: str) -> list[tuple[float, dict[str, Any]]]:
    """Every value of metric ``name``, with its declaration (unit, resolution)."""
    found = []
    for record in records:
        for directive in record["_aws"]["CloudWatchMetrics"]:
            assert directive["Namespace"] == "Numbridge"
            for declared in directive["Metrics"]:
                if declared["Name"] == name:
                    raw = record[name]
                    found += [(float(v), declared) for v in (raw if isinstance(raw, list)
                                                             else [raw])]
    return found


def test_a_frame_emits_ack_latency_and_a_late_timer_its_lag(
        club: World, capsys: pytest.CaptureFixture[str]) -> None:
    ana, bob = club.join("ana"), club.join("bob")
    capsys.readouterr()
    game = start_game(club, "blitz", ana, bob, colour="blue")
    framed = emitted(capsys.readouterr().out)
    # propose and accept: two frames, two invocations of the message handler
    latencies = values(framed, "AckLatency")
    assert len(latencies) == 2 and all(v >= 0 for v, _ in latencies)
    assert latencies[0][1]["Unit"] == "Milliseconds"
    assert values(framed, "TimerLag") == []

    [timer] = [m["body"] for m in club.sqs.sent if m["body"]["game"] == game]
    club.clock.now = timer["deadline_ms"] + LATE_MS  # handled 7 s after its deadline
    assert club.deliver_timers() == {"batchItemFailures": []}
    timed = emitted(capsys.readouterr().out)
    [(lag, declared)] = values(timed, "TimerLag")
    assert lag == LATE_MS
    # What the alarm needs: milliseconds (its threshold, 5000, is 5 s) at high
    # resolution (StorageResolution 1: a period under a minute).
    assert declared == {"Name": "TimerLag", "Unit": "Milliseconds", "StorageResolution": 1}
    assert all(r["service"] == "numbridge" for r in timed)


def test_connects_and_disconnects_are_counted_for_the_dashboard(
        club: World, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    ana = club.join("ana")
    assert club.connect(None, token="not-a-token")[0] == 403  # refused: not counted
    ana.close()
    club.disconnect("never-bound=")  # a socket that never was bound: not counted
    records = emitted(capsys.readouterr().out)
    assert [v for v, _ in values(records, "Connects")] == [1.0]
    assert [v for v, _ in values(records, "Disconnects")] == [1.0]


def test_a_refused_sign_up_is_counted_as_a_refusal_for_the_alarm_to_subtract(
        club: World, capsys: pytest.CaptureFixture[str]) -> None:
    """Cognito refuses a sign-up only when the trigger raises (the refusal is one of
    Lambda's Errors): the refusal's own count is still written, so SignUpErrorsAlarm can
    take it away from the errors and fire on the rest only."""
    from cognito_fakes import sign_up_event
    from harness import LambdaContext, function

    club.join("ana")
    sign_up = function("signup")
    capsys.readouterr()
    with pytest.raises(ValueError, match="taken"):
        sign_up(sign_up_event("Ana"), LambdaContext())
    assert sign_up(sign_up_event("cy"), LambdaContext())["userName"] == "cy"
    records = emitted(capsys.readouterr().out)
    assert [v for v, _ in values(records, "SignUpRefused")] == [1.0]
