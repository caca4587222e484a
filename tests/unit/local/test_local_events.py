"""The events the local gateway builds validate against Powertools' models, and route like AWS."""

from __future__ import annotations

import json

import pytest
from aws_lambda_powertools.utilities.parser.models import (
    APIGatewayWebSocketConnectEventModel,
    APIGatewayWebSocketDisconnectEventModel,
    APIGatewayWebSocketMessageEventModel,
    EventBridgeModel,
    SqsModel,
)
from numbridge.local.apigateway import ids
from numbridge.local.apigateway.gateway_events import (
    Client,
    connect_event,
    disconnect_event,
    message_event,
    request_time,
)
from numbridge.local.apigateway.routing import select_route
from numbridge.local.lambdas.aws_events import (
    failed_message_ids,
    queue_arn,
    scheduled_event,
    sqs_event,
)
from numbridge.local.lambdas.lambda_context import LambdaContext

CLIENT = Client(
    connection_id="L0SM9cOFvHcCIhw=",
    connected_at_ms=1_707_502_303_419,
    source_ip="127.0.0.1",
    user_agent="pytest",
    domain_name="127.0.0.1:8080",
    port=8080,
)


def test_connect_event_validates_and_carries_the_query_string() -> None:
    event = connect_event(
        CLIENT,
        [("Host", "127.0.0.1:8080"), ("Sec-WebSocket-Version", "13")],
        [("token", "abc"), ("tag", "1"), ("tag", "2")],
    )
    model = APIGatewayWebSocketConnectEventModel.model_validate(event)
    assert model.request_context.route_key == "$connect"
    assert model.request_context.connection_id == CLIENT.connection_id
    assert event["queryStringParameters"] == {"token": "abc", "tag": "2"}
    assert event["multiValueQueryStringParameters"]["tag"] == ["1", "2"]
    assert event["headers"]["X-Forwarded-For"] == "127.0.0.1"
    assert event["requestContext"]["identity"] == {"sourceIp": "127.0.0.1", "userAgent": "pytest"}


def test_connect_event_without_query_string_leaves_it_out() -> None:
    event = connect_event(CLIENT, [("Host", "x")], [])
    APIGatewayWebSocketConnectEventModel.model_validate(event)
    assert "queryStringParameters" not in event


def test_message_event_validates_and_keeps_the_raw_body() -> None:
    body = '{"action": "place", "id": "1"}'
    event = message_event(CLIENT, "place", body)
    model = APIGatewayWebSocketMessageEventModel.model_validate(event)
    assert model.body == body
    assert model.request_context.route_key == "place"
    assert model.request_context.event_type == "MESSAGE"
    assert event["requestContext"]["messageId"]
    assert event["isBase64Encoded"] is False


def test_message_ids_differ_per_message() -> None:
    first = message_event(CLIENT, "$default", "x")["requestContext"]
    second = message_event(CLIENT, "$default", "x")["requestContext"]
    assert first["messageId"] != second["messageId"]
    assert first["requestId"] != second["requestId"]


def test_disconnect_event_validates_with_code_and_reason() -> None:
    event = disconnect_event(CLIENT, 1001, "Going away")
    model = APIGatewayWebSocketDisconnectEventModel.model_validate(event)
    assert model.request_context.disconnect_status_code == 1001
    assert model.request_context.disconnect_reason == "Going away"


def test_ids_look_like_api_gateway_ones() -> None:
    connection_id = ids.api_gateway_id()
    assert len(connection_id) == 16 and connection_id.endswith("=")
    assert "/" not in connection_id and "+" not in connection_id
    assert ids.api_gateway_id() != connection_id
    request_ids = [ids.request_id() for _ in range(1000)]
    assert len(set(request_ids)) == 1000
    assert all(len(r) == 16 and r.endswith("=") and not {"/", "+"} & set(r)
               for r in request_ids)


def test_invocation_ids_are_distinct_version_4_uuids() -> None:
    import uuid

    seen = {ids.invocation_id() for _ in range(1000)}
    assert len(seen) == 1000
    assert all(uuid.UUID(i).version == 4 for i in seen)


def test_request_time_format() -> None:
    assert request_time(1_707_502_303_419) == "09/Feb/2024:18:11:43 +0000"


ROUTES = {"$connect", "$disconnect", "$default", "place", "rooms"}


@pytest.mark.parametrize(
    ("body", "route"),
    [
        ('{"action": "place", "game": "g"}', "place"),
        ('{"action": "rooms"}', "rooms"),
        ('{"action": "fly"}', "$default"),
        ("not json", "$default"),
        ("[1, 2]", "$default"),
        ('"place"', "$default"),
        ('{"action": 5}', "$default"),
        ('{"action": ["place"]}', "$default"),
        ('{"id": "x"}', "$default"),
        ('{"action": "$connect"}', "$default"),
        ('{"action": "$disconnect"}', "$default"),
    ],
)
def test_route_selection(body: str, route: str) -> None:
    assert select_route(body, ROUTES) == route


def test_no_route_without_default() -> None:
    assert select_route('{"action": "fly"}', {"place"}) is None
    assert select_route('{"action": "place"}', {"place"}) == "place"


QUEUE_URL = "http://127.0.0.1:5000/123456789012/numbridge-timers"
MESSAGE = {
    "MessageId": "059f36b4-87a3-44ab-83d2-661975830a7d",
    "ReceiptHandle": "AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a",
    "MD5OfBody": "e4e68fb7bd0e697a0ae8f1bb342846b3",
    "Body": json.dumps({"game": "g-1", "v": 3, "deadline_ms": 1}),
    "Attributes": {
        "SenderId": "AIDAIENQZJOLO23YVJ4VO",
        "SentTimestamp": "1545082649183",
        "ApproximateReceiveCount": "1",
        "ApproximateFirstReceiveTimestamp": "1545082649185",
    },
    "MessageAttributes": {"kind": {"StringValue": "turn", "DataType": "String"}},
}


def test_sqs_event_validates() -> None:
    event = sqs_event([MESSAGE], queue_arn(QUEUE_URL))
    model = SqsModel.model_validate(event)
    record = model.Records[0]
    assert record.eventSourceARN == "arn:aws:sqs:us-east-1:123456789012:numbridge-timers"
    assert record.body == MESSAGE["Body"]
    assert record.messageAttributes["kind"].stringValue == "turn"
    assert event["Records"][0]["receiptHandle"] == MESSAGE["ReceiptHandle"]


def test_batch_item_failures() -> None:
    response = {"batchItemFailures": [{"itemIdentifier": "a"}, {"itemIdentifier": "b"}]}
    assert failed_message_ids(response) == {"a", "b"}
    assert failed_message_ids({"batchItemFailures": []}) == set()
    assert failed_message_ids(None) == set()


def test_scheduled_event_validates() -> None:
    event = scheduled_event(now=1_700_000_000)
    model = EventBridgeModel.model_validate(event)
    assert model.source == "aws.events"
    assert model.detail_type == "Scheduled Event"
    assert model.resources == ["arn:aws:events:us-east-1:123456789012:rule/numbridge-sweep"]
    assert event["time"] == "2023-11-14T22:13:20Z"


def test_lambda_context() -> None:
    context = LambdaContext("numbridge-move", timeout_s=15, memory_limit_in_mb=1024)
    assert context.invoked_function_arn.endswith(":function:numbridge-move")
    assert 14_000 < context.get_remaining_time_in_millis() <= 15_000
    assert context.memory_limit_in_mb == 1024
    assert context.function_version == "$LATEST"
    assert context.log_group_name == "/aws/lambda/numbridge-move"
    assert context.aws_request_id != LambdaContext("x").aws_request_id
