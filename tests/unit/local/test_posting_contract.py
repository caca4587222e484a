"""Both adapters of the management port answer alike: HTTP ``@connections`` and in-process."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from botocore.exceptions import ClientError
from local_fakes import Recorder, management_client
from numbridge.local.apigateway.management import DELETED, MAX_DATA_BYTES
from numbridge.local.apigateway.posting import LocalManagementClient
from numbridge.local.lambdas.functions import Function
from numbridge.local.threaded import ThreadedGateway
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


@pytest.fixture
def gateway(recorder: Recorder) -> Iterator[ThreadedGateway]:
    routes = {
        "$connect": Function("connect", recorder.handler("connect")),
        "$disconnect": Function("disconnect", recorder.handler("disconnect")),
    }
    with ThreadedGateway(routes) as running:
        yield running


@pytest.fixture(params=["http", "local"])
def client(request: pytest.FixtureRequest, gateway: ThreadedGateway) -> Any:
    if request.param == "http":
        return management_client(gateway.url, gateway.management_key)
    return LocalManagementClient(
        gateway.server.registry, gateway.loop,
        lambda connection: gateway.server.gateway.close(connection, DELETED,
                                                        "Connection deleted"))


def open_socket(gateway: ThreadedGateway, recorder: Recorder) -> tuple[ClientConnection, str]:
    ws = connect(gateway.ws_url, open_timeout=10)
    connection_id = str(recorder.wait_for("connect")[-1]["requestContext"]["connectionId"])
    # The gateway registers the connection just after its handshake's answer is out.
    deadline = time.monotonic() + 10
    while gateway.server.registry.get(connection_id) is None and time.monotonic() < deadline:
        time.sleep(0.005)
    return ws, connection_id


def code_of(exc: pytest.ExceptionInfo[ClientError]) -> str:
    return str(exc.value.response["Error"]["Code"])


def test_frames_arrive_in_order(gateway: ThreadedGateway, recorder: Recorder, client: Any) -> None:
    ws, connection_id = open_socket(gateway, recorder)
    with ws:
        for n in range(50):
            client.post_to_connection(ConnectionId=connection_id, Data=f'{{"n":{n}}}'.encode())
        assert [ws.recv(timeout=10) for _ in range(50)] == [f'{{"n":{n}}}' for n in range(50)]


def test_unknown_connection_is_gone(gateway: ThreadedGateway, client: Any) -> None:
    with pytest.raises(ClientError) as exc:
        client.post_to_connection(ConnectionId="nobody=", Data=b"{}")
    assert code_of(exc) == "GoneException"


def test_delete_closes_the_connection_after_the_frames_posted_before(
    gateway: ThreadedGateway, recorder: Recorder, client: Any
) -> None:
    ws, connection_id = open_socket(gateway, recorder)
    with ws:
        for n in range(5):
            client.post_to_connection(ConnectionId=connection_id, Data=f'{{"n":{n}}}'.encode())
        client.delete_connection(ConnectionId=connection_id)
        assert [ws.recv(timeout=10) for _ in range(5)] == [f'{{"n":{n}}}' for n in range(5)]
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == DELETED
    recorder.wait_for("disconnect")
    for call in (lambda: client.delete_connection(ConnectionId=connection_id),
                 lambda: client.post_to_connection(ConnectionId=connection_id, Data=b"{}")):
        with pytest.raises(ClientError) as exc:
            call()
        assert code_of(exc) == "GoneException"


def test_closed_connection_is_gone(
    gateway: ThreadedGateway, recorder: Recorder, client: Any
) -> None:
    ws, connection_id = open_socket(gateway, recorder)
    with ws:
        pass
    recorder.wait_for("disconnect")
    with pytest.raises(ClientError) as exc:
        client.post_to_connection(ConnectionId=connection_id, Data=b"{}")
    assert code_of(exc) == "GoneException"


def test_too_large_is_refused_and_sends_nothing(
    gateway: ThreadedGateway, recorder: Recorder, client: Any
) -> None:
    ws, connection_id = open_socket(gateway, recorder)
    with ws:
        with pytest.raises(ClientError) as exc:
            client.post_to_connection(ConnectionId=connection_id,
                                      Data=b'"' + b"x" * MAX_DATA_BYTES + b'"')
        assert code_of(exc) == "PayloadTooLargeException"
        client.post_to_connection(ConnectionId=connection_id, Data=b'{"after":1}')
        assert ws.recv(timeout=10) == '{"after":1}'


def test_each_threads_frames_arrive_in_its_order(
    gateway: ThreadedGateway, recorder: Recorder, client: Any
) -> None:
    import json
    import threading

    ws, connection_id = open_socket(gateway, recorder)

    def post(thread: int) -> None:
        for n in range(25):
            client.post_to_connection(ConnectionId=connection_id,
                                      Data=json.dumps([thread, n]).encode())

    with ws:
        threads = [threading.Thread(target=post, args=(t,)) for t in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        received = [json.loads(ws.recv(timeout=10)) for _ in range(100)]
    for thread in range(4):  # posts of two threads may cross; one thread's never do
        assert [n for t, n in received if t == thread] == list(range(25))
