"""``@connections`` through the real boto3 ``apigatewaymanagementapi`` client."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.exceptions import ClientError
from local_fakes import Recorder, aws_client, management_client
from numbridge.local.lambdas.functions import Function
from numbridge.local.threaded import ThreadedGateway
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

Event = dict[str, Any]


class Endpoint:
    url = ""
    key = b""


@pytest.fixture
def gateway(recorder: Recorder) -> Iterator[ThreadedGateway]:
    endpoint = Endpoint()

    def echo(event: Event) -> None:
        """What the real handlers do: answer through the management API."""
        client = management_client(endpoint.url, endpoint.key)
        client.post_to_connection(
            ConnectionId=event["requestContext"]["connectionId"], Data=event["body"].encode()
        )

    routes = {
        "$connect": Function("connect", recorder.handler("connect")),
        "$disconnect": Function("disconnect", recorder.handler("disconnect")),
        "echo": Function("lobby", recorder.handler("echo", echo)),
    }
    with ThreadedGateway(routes) as running:
        endpoint.url, endpoint.key = running.url, running.management_key
        yield running


@pytest.fixture
def client(gateway: ThreadedGateway) -> Any:
    return management_client(gateway.url, gateway.management_key)


def open_socket(gateway: ThreadedGateway, recorder: Recorder) -> tuple[ClientConnection, str]:
    ws = connect(gateway.ws_url, open_timeout=10)
    connection_id = recorder.wait_for("connect")[-1]["requestContext"]["connectionId"]
    return ws, str(connection_id)


def test_handler_posts_back_through_boto3(gateway: ThreadedGateway, recorder: Recorder) -> None:
    with connect(gateway.ws_url, open_timeout=10) as ws:
        frame = json.dumps({"action": "echo", "text": "héllo"})
        ws.send(frame)
        assert ws.recv(timeout=10) == frame


def test_post_get_delete(gateway: ThreadedGateway, recorder: Recorder, client: Any) -> None:
    ws, connection_id = open_socket(gateway, recorder)
    with ws:
        assert connection_id.endswith("=")  # sent URL-encoded as %3D
        client.post_to_connection(ConnectionId=connection_id, Data=b'{"type": "hello"}')
        assert ws.recv(timeout=10) == '{"type": "hello"}'

        info = client.get_connection(ConnectionId=connection_id)
        assert info["Identity"]["SourceIp"] == "127.0.0.1"
        assert "websockets" in info["Identity"]["UserAgent"]
        assert info["ConnectedAt"] <= info["LastActiveAt"]

        client.delete_connection(ConnectionId=connection_id)
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
    (disconnected,) = recorder.wait_for("disconnect")
    assert disconnected["requestContext"]["connectionId"] == connection_id
    with pytest.raises(client.exceptions.GoneException):
        client.post_to_connection(ConnectionId=connection_id, Data=b"late")


def test_gone_after_the_client_closed(
    gateway: ThreadedGateway, recorder: Recorder, client: Any
) -> None:
    ws, connection_id = open_socket(gateway, recorder)
    with ws:
        pass
    recorder.wait_for("disconnect")
    with pytest.raises(client.exceptions.GoneException):
        client.post_to_connection(ConnectionId=connection_id, Data=b"x")
    with pytest.raises(client.exceptions.GoneException):
        client.get_connection(ConnectionId=connection_id)
    with pytest.raises(client.exceptions.GoneException):
        client.delete_connection(ConnectionId=connection_id)


def test_unknown_connection_is_gone(client: Any) -> None:
    with pytest.raises(client.exceptions.GoneException) as gone:
        client.post_to_connection(ConnectionId="AAAAAAAAAAAAAAA=", Data=b"x")
    assert gone.value.response["ResponseMetadata"]["HTTPStatusCode"] == 410


def test_payload_over_128_kb_is_refused(
    gateway: ThreadedGateway, recorder: Recorder, client: Any
) -> None:
    ws, connection_id = open_socket(gateway, recorder)
    with ws:
        with pytest.raises(ClientError) as refused:
            client.post_to_connection(ConnectionId=connection_id, Data=b"x" * (128 * 1024 + 1))
        assert refused.value.response["Error"]["Code"] == "PayloadTooLargeException"
        client.post_to_connection(ConnectionId=connection_id, Data=b"y" * (128 * 1024))
        assert len(ws.recv(timeout=10)) == 128 * 1024


def test_stage_prefixed_path_works_too(
    gateway: ThreadedGateway, recorder: Recorder
) -> None:
    staged = management_client(gateway.url + "/local", gateway.management_key)
    ws, connection_id = open_socket(gateway, recorder)
    with ws:
        staged.post_to_connection(ConnectionId=connection_id, Data=b"staged")
        assert ws.recv(timeout=10) == "staged"


def test_a_request_not_signed_by_the_server_is_forbidden_and_does_nothing(
    gateway: ThreadedGateway, recorder: Recorder
) -> None:
    """Anyone else who reaches the port: another user of the machine, a LAN neighbour."""
    stranger = aws_client("apigatewaymanagementapi", gateway.url)  # SigV4, any credentials
    forger = management_client(gateway.url, b"a key of the stranger's own choosing")
    ws, connection_id = open_socket(gateway, recorder)
    with ws:
        for client in (stranger, forger):
            for call in (lambda c: c.post_to_connection(ConnectionId=connection_id, Data=b"x"),
                         lambda c: c.get_connection(ConnectionId=connection_id),
                         lambda c: c.delete_connection(ConnectionId=connection_id)):
                with pytest.raises(ClientError) as refused:
                    call(client)
                assert refused.value.response["Error"]["Code"] == "ForbiddenException"
                assert refused.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
        owner = management_client(gateway.url, gateway.management_key)
        owner.post_to_connection(ConnectionId=connection_id, Data=b"only this")
        assert ws.recv(timeout=10) == "only this"  # nothing else arrived, still open


def test_a_signature_holds_for_its_own_request_only(
    gateway: ThreadedGateway, recorder: Recorder
) -> None:
    """A signature seen once cannot carry another body, or go to another connection."""
    import urllib.error
    import urllib.request

    from numbridge.local.apigateway.management import SIGNATURE_HEADER, signature

    ws, connection_id = open_socket(gateway, recorder)
    with ws:
        path = f"/@connections/{connection_id}"
        seen = signature(gateway.management_key, "POST", path, b"hello")
        for body, to in ((b"resign", path), (b"hello", "/@connections/other=")):
            replay = urllib.request.Request(gateway.url + to, data=body, method="POST",
                                            headers={SIGNATURE_HEADER: seen})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(replay, timeout=10)
            assert refused.value.code == 403
        signed = urllib.request.Request(gateway.url + path, data=b"hello", method="POST",
                                        headers={SIGNATURE_HEADER: seen})
        assert urllib.request.urlopen(signed, timeout=10).status == 200
        assert ws.recv(timeout=10) == "hello"
