"""The WebSocket endpoint with dummy handlers: handshake, routing, ordering, limits, close."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from aws_lambda_powertools.utilities.parser.models import (
    APIGatewayWebSocketConnectEventModel,
    APIGatewayWebSocketDisconnectEventModel,
    APIGatewayWebSocketMessageEventModel,
)
from local_fakes import Recorder
from numbridge.local.apigateway.gateway import GatewaySettings
from numbridge.local.lambdas.functions import Function
from numbridge.local.threaded import ThreadedGateway
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

Event = dict[str, Any]


def check_token(event: Event) -> dict[str, Any] | None:
    token = (event.get("queryStringParameters") or {}).get("token")
    if token == "boom":
        raise RuntimeError("connect handler failed")
    if token == "silent":
        return None
    if token == "good":
        return {"statusCode": 200}
    return {"statusCode": 403 if token else 401}


def fail(event: Event) -> None:
    raise RuntimeError("handler failed")


def routes(recorder: Recorder, **extra: Any) -> dict[str, Function]:
    table = {
        "$connect": Function("connect", recorder.handler("connect", check_token)),
        "$disconnect": Function("disconnect", recorder.handler("disconnect")),
        "$default": Function("lobby", recorder.handler("lobby")),
        "place": Function("move", recorder.handler("move")),
        "crash": Function("move", recorder.handler("crash", fail)),
    }
    table.update(extra)
    return table


@pytest.fixture
def gateway(recorder: Recorder) -> Iterator[ThreadedGateway]:
    with ThreadedGateway(routes(recorder)) as running:
        yield running


def open_socket(gw: ThreadedGateway, token: str = "good") -> ClientConnection:
    return connect(f"{gw.ws_url}?token={token}", open_timeout=10)


@pytest.mark.parametrize(("token", "status"), [("", 401), ("forged", 403), ("boom", 500)])
def test_handshake_refused_with_the_connect_status(
    gateway: ThreadedGateway, recorder: Recorder, token: str, status: int
) -> None:
    url = f"{gateway.ws_url}?token={token}" if token else gateway.ws_url
    with pytest.raises(InvalidStatus) as refused:
        connect(url, open_timeout=10)
    assert refused.value.response.status_code == status
    assert gateway.server.registry.all() == []


def test_a_second_token_parameter_is_refused_before_connect(
        gateway: ThreadedGateway, recorder: Recorder) -> None:
    """Caught: the gateway passed ``token=A&token=B`` on to $connect, whose handler may read
    one token and the gateway's expiry timer the other. It is refused at the door (400)
    before any handler runs, whatever $connect would have said."""
    for query in ("token=good&token=forged", "token=good&token=good"):
        with pytest.raises(InvalidStatus) as refused:
            connect(f"{gateway.ws_url}?{query}", open_timeout=10)
        assert refused.value.response.status_code == 400
    assert recorder.events("connect") == []
    assert gateway.server.registry.all() == []


def test_connect_without_status_is_accepted(gateway: ThreadedGateway) -> None:
    with open_socket(gateway, "silent"):
        pass


def test_events_validate_against_powertools_models(
    gateway: ThreadedGateway, recorder: Recorder
) -> None:
    with open_socket(gateway) as ws:
        ws.send(json.dumps({"action": "place", "id": "1"}))
        ws.send("not json")
        recorder.wait_for("lobby")
        ws.close(code=1000, reason="bye")
    (connected,) = recorder.wait_for("connect")
    (message,) = recorder.wait_for("move")
    (default,) = recorder.wait_for("lobby")
    (disconnected,) = recorder.wait_for("disconnect")

    connect_model = APIGatewayWebSocketConnectEventModel.model_validate(connected)
    assert connected["queryStringParameters"] == {"token": "good"}
    assert connect_model.request_context.stage == "local"

    message_model = APIGatewayWebSocketMessageEventModel.model_validate(message)
    assert message_model.request_context.route_key == "place"
    assert message_model.body == json.dumps({"action": "place", "id": "1"})
    assert APIGatewayWebSocketMessageEventModel.model_validate(default).body == "not json"
    assert default["requestContext"]["routeKey"] == "$default"

    disconnect_model = APIGatewayWebSocketDisconnectEventModel.model_validate(disconnected)
    assert disconnect_model.request_context.disconnect_status_code == 1000
    assert disconnect_model.request_context.disconnect_reason == "bye"

    ids = {e["requestContext"]["connectionId"] for e in (connected, message, default, disconnected)}
    assert len(ids) == 1


def test_frames_of_one_connection_are_handled_in_order(recorder: Recorder) -> None:
    release = threading.Event()

    def first_waits(event: Event) -> None:
        if json.loads(event["body"])["n"] == 0:
            release.wait(10)

    table = routes(recorder, place=Function("move", recorder.handler("move", first_waits)))
    with ThreadedGateway(table) as gw, open_socket(gw) as ws:
        for n in range(8):
            ws.send(json.dumps({"action": "place", "n": n}))
        ws.ping().wait(10)  # the gateway has read (and queued) every frame
        release.set()
        handled = recorder.wait_for("move", 8)
    assert [json.loads(event["body"])["n"] for event in handled] == list(range(8))


def test_a_failing_handler_answers_internal_server_error(gateway: ThreadedGateway) -> None:
    with open_socket(gateway) as ws:
        ws.send(json.dumps({"action": "crash"}))
        answer = json.loads(ws.recv(timeout=10))
    assert answer["message"] == "Internal server error"
    assert answer["connectionId"] and answer["requestId"]


def test_no_matching_route_answers_forbidden(recorder: Recorder) -> None:
    table = routes(recorder)
    del table["$default"]
    with ThreadedGateway(table) as gw, open_socket(gw) as ws:
        ws.send(json.dumps({"action": "fly"}))
        assert json.loads(ws.recv(timeout=10))["message"] == "Forbidden"


def test_oversized_frame_closes_with_1009(gateway: ThreadedGateway, recorder: Recorder) -> None:
    with open_socket(gateway) as ws:
        ws.send("x" * (128 * 1024 + 1))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    (disconnected,) = recorder.wait_for("disconnect")
    assert disconnected["requestContext"]["disconnectStatusCode"] == 1009
    assert recorder.events("lobby") == []


def test_a_frame_of_128_kb_is_delivered(gateway: ThreadedGateway, recorder: Recorder) -> None:
    body = json.dumps({"action": "place", "pad": ""})
    body = body[:-2] + "x" * (128 * 1024 - len(body)) + '"}'
    assert len(body) == 128 * 1024
    with open_socket(gateway) as ws:
        ws.send(body)
        (event,) = recorder.wait_for("move")
    assert event["body"] == body


def test_frames_whose_route_cannot_be_selected_reach_default_and_the_connection_stays_open(
    gateway: ThreadedGateway, recorder: Recorder,
) -> None:
    # json.loads recurses: 5,000 levels used to raise RecursionError in route selection.
    bodies = ["[" * 5000 + "]" * 5000, '{"action": "place", "x": ' + "[" * 5000 + "]" * 5000 + "}",
              "{not json", '{"action": "place", "action": "place"', "nul\x00"]
    with open_socket(gateway) as ws:
        for body in bodies:
            ws.send(body)
        handled = recorder.wait_for("lobby", len(bodies))
        ws.send(json.dumps({"action": "place", "id": "after"}))
        (moved,) = recorder.wait_for("move")
        assert recorder.events("disconnect") == []
    assert [event["body"] for event in handled] == bodies
    assert json.loads(moved["body"])["id"] == "after"  # on the same connection, still open


def test_binary_frames_are_refused_with_1003(gateway: ThreadedGateway) -> None:
    with open_socket(gateway) as ws:
        ws.send(b"\x00\x01")
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003


def test_idle_connections_are_closed_with_1001(recorder: Recorder) -> None:
    settings = GatewaySettings(idle_timeout_s=0.3)
    with ThreadedGateway(routes(recorder), settings=settings) as gw, open_socket(gw) as ws:
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        (disconnected,) = recorder.wait_for("disconnect")
    assert disconnected["requestContext"]["disconnectStatusCode"] == 1001


def test_stopping_closes_sockets_with_1001_after_disconnect_handlers(recorder: Recorder) -> None:
    gw = ThreadedGateway(routes(recorder))
    gw.start()
    with open_socket(gw) as ws:
        gw.stop()
        # stop() returns after the $disconnect handlers ran
        assert len(recorder.events("disconnect")) == 1
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    event = recorder.events("disconnect")[0]
    APIGatewayWebSocketDisconnectEventModel.model_validate(event)
    assert event["requestContext"]["disconnectStatusCode"] == 1001


def test_plain_http_on_the_websocket_path_gets_426(gateway: ThreadedGateway) -> None:
    with pytest.raises(urllib.error.HTTPError) as answer:
        urllib.request.urlopen(gateway.url + "/", timeout=10)
    assert answer.value.code == 426


def test_connections_end_after_the_maximum_duration(recorder: Recorder) -> None:
    settings = GatewaySettings(max_connection_s=0.3, idle_timeout_s=None)
    with ThreadedGateway(routes(recorder), settings=settings) as gw, open_socket(gw) as ws:
        ws.send(json.dumps({"action": "place"}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        recorder.wait_for("disconnect")
    assert len(recorder.events("move")) == 1


def test_a_connection_sending_too_fast_is_read_at_its_pace(recorder: Recorder) -> None:
    settings = GatewaySettings(frames_per_second=20.0, frame_burst=10, max_queued=1000)
    with ThreadedGateway(routes(recorder), settings=settings) as running, connect(
        running.ws_url + "?token=good"
    ) as ws:
        started = time.monotonic()
        for n in range(30):  # 10 at once, then 20 at 20 a second
            ws.send(json.dumps({"action": "rooms", "id": str(n)}))
        recorder.wait_for("lobby", 30, timeout=10)
        elapsed = time.monotonic() - started
    # The pace is a lower bound: 20 frames past the burst need a second at 20 a second
    # (less a little of the bucket's refill). How late a busy machine lets them come is
    # no fault of the gateway's.
    assert elapsed >= 0.9, elapsed


def test_a_slow_handler_holds_back_reading_not_memory(
    recorder: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    from numbridge.local.apigateway import gateway as gateway_module

    read: list[str] = []
    real_select = gateway_module.select_route

    def counted(body: str, routes: Any) -> Any:
        read.append(body)
        return real_select(body, routes)

    monkeypatch.setattr(gateway_module, "select_route", counted)

    def slow(event: Event) -> None:
        time.sleep(0.05)

    settings = GatewaySettings(frames_per_second=None, max_queued=4)
    table = routes(recorder, rooms=Function("lobby", recorder.handler("slow", slow)))
    with ThreadedGateway(table, settings=settings) as running, connect(
        running.ws_url + "?token=good"
    ) as ws:
        for n in range(40):
            ws.send(json.dumps({"action": "rooms", "id": str(n)}))
        time.sleep(0.5)
        # Frames are read on only as the handler works through them.
        assert len(read) <= len(recorder.events("slow")) + 4 + 2
        recorder.wait_for("slow", 40, timeout=10)
    assert len(read) == 40
