"""events/*.json validate against the Powertools parser models the handlers use."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aws_lambda_powertools.utilities.parser import parse
from aws_lambda_powertools.utilities.parser.models import (
    APIGatewayWebSocketConnectEventModel,
    APIGatewayWebSocketDisconnectEventModel,
    APIGatewayWebSocketMessageEventModel,
    EventBridgeModel,
    SqsModel,
)
from numbridge import sam_template
from numbridge.protocol import read_request
from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
TEMPLATE = ROOT / "template.yaml"

MESSAGES = sorted(EVENTS.glob("message-*.json"))
MODELS: dict[str, type[BaseModel]] = {
    "connect.json": APIGatewayWebSocketConnectEventModel,
    "disconnect.json": APIGatewayWebSocketDisconnectEventModel,
    "timer-sqs.json": SqsModel,
    "lobby-sqs.json": SqsModel,
    "sweep.json": EventBridgeModel,
    **{path.name: APIGatewayWebSocketMessageEventModel for path in MESSAGES},
}


def load(name: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads((EVENTS / name).read_text(encoding="utf-8"))
    return event


def test_every_sample_has_a_model() -> None:
    assert {path.name for path in EVENTS.glob("*.json")} == set(MODELS)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_sample_validates_against_its_powertools_model(name: str) -> None:
    parsed = parse(event=load(name), model=MODELS[name])
    assert isinstance(parsed, MODELS[name])


def test_connect_carries_the_token_in_the_query_string() -> None:
    event = load("connect.json")
    assert event["queryStringParameters"]["token"]
    assert event["multiValueQueryStringParameters"]["token"] == [
        event["queryStringParameters"]["token"]
    ]
    parsed = APIGatewayWebSocketConnectEventModel.model_validate(event)
    assert parsed.request_context.route_key == "$connect"
    assert parsed.request_context.connection_id


def test_disconnect_has_status_and_reason() -> None:
    parsed = APIGatewayWebSocketDisconnectEventModel.model_validate(load("disconnect.json"))
    assert parsed.request_context.disconnect_status_code == 1001
    assert parsed.request_context.disconnect_reason


def test_there_is_a_message_sample_per_route_at_least_for_the_core_actions() -> None:
    actions = {path.name.removeprefix("message-").removesuffix(".json") for path in MESSAGES}
    assert {"rooms", "propose", "accept", "place", "take", "sync"} <= actions


@pytest.mark.parametrize("path", MESSAGES, ids=lambda p: p.name)
def test_message_route_key_is_the_frame_action(path: Path) -> None:
    parsed = APIGatewayWebSocketMessageEventModel.model_validate(load(path.name))
    route_key = parsed.request_context.route_key
    routes = sam_template.routes(TEMPLATE)
    assert route_key in routes
    assert isinstance(parsed.body, str)
    if route_key == "$default":
        try:
            frame = json.loads(parsed.body)
        except ValueError:
            return  # malformed on purpose
        assert frame.get("action") not in routes
        return
    frame = json.loads(parsed.body)
    assert frame["action"] == route_key
    assert isinstance(frame["id"], str) and 1 <= len(frame["id"]) <= 64
    assert read_request(parsed.body).name == route_key


def test_message_samples_share_one_connection() -> None:
    ids = {load(path.name)["requestContext"]["connectionId"] for path in MESSAGES}
    ids.add(load("connect.json")["requestContext"]["connectionId"])
    assert len(ids) == 1


def test_timer_message_body() -> None:
    parsed = SqsModel.model_validate(load("timer-sqs.json"))
    (record,) = parsed.Records
    assert isinstance(record.body, str)
    body = json.loads(record.body)
    assert set(body) == {"game", "v", "deadline_ms"}
    assert isinstance(body["game"], str)
    assert isinstance(body["v"], int) and body["v"] >= 0
    assert isinstance(body["deadline_ms"], int) and body["deadline_ms"] > 1_600_000_000_000


def test_sweep_is_a_scheduled_event() -> None:
    parsed = EventBridgeModel.model_validate(load("sweep.json"))
    assert parsed.source == "aws.events"
    assert parsed.detail_type == "Scheduled Event"
    assert parsed.detail == {}
