"""``POST /local/token``: a name in, a token for that name out; nothing else accepted."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator

import pytest
from local_fakes import Recorder
from numbridge.auth import verify_token
from numbridge.local.functions import Function
from numbridge.local.sign_in import MAX_BODY_BYTES, PATH, requested_name
from numbridge.local.threaded import ThreadedGateway
from websockets.sync.client import connect

SECRET = "sign-in-test-secret-0123456789abcdef"


def routes(recorder: Recorder) -> dict[str, Function]:
    return {
        "$connect": Function("connect", recorder.handler("connect")),
        "$disconnect": Function("disconnect", recorder.handler("disconnect")),
        "$default": Function("lobby", recorder.handler("lobby")),
    }


@pytest.fixture
def gateway(recorder: Recorder) -> Iterator[ThreadedGateway]:
    with ThreadedGateway(routes(recorder), token_secret=SECRET) as running:
        yield running


def post(gw: ThreadedGateway, body: bytes, content_type: str | None = "application/json",
         path: str = PATH) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=10)
    try:
        headers = {"Content-Type": content_type} if content_type else {}
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def sign_in(gw: ThreadedGateway, payload: object) -> tuple[int, dict[str, object]]:
    status, headers, body = post(gw, json.dumps(payload).encode())
    assert headers["content-type"].startswith("application/json")
    return status, json.loads(body)


def test_the_path_is_under_the_local_stage() -> None:
    assert PATH == "/local/token"


def test_a_name_gets_a_token_for_that_name(gateway: ThreadedGateway) -> None:
    status, answer = sign_in(gateway, {"name": "ana"})
    assert status == 200 and set(answer) == {"token"}
    assert verify_token(str(answer["token"]), SECRET) == "ana"


def test_the_answer_is_not_cached(gateway: ThreadedGateway) -> None:
    _, headers, _ = post(gateway, b'{"name": "ana"}')
    assert headers["cache-control"] == "no-store"


def test_the_token_opens_the_websocket(gateway: ThreadedGateway, recorder: Recorder) -> None:
    _, answer = sign_in(gateway, {"name": "bob.b-2_"})
    with connect(f"{gateway.ws_url}?token={answer['token']}", open_timeout=10):
        (event,) = recorder.wait_for("connect")
    assert event["queryStringParameters"] == {"token": answer["token"]}


@pytest.mark.parametrize(
    "name", ["", "a" * 33, "ana bob", " ana", "ana!", "ünï", "a/b", "..\u0000"]
)
def test_a_name_outside_the_rule_is_400(gateway: ThreadedGateway, name: str) -> None:
    status, answer = sign_in(gateway, {"name": name})
    assert status == 400 and set(answer) == {"error"}
    assert "token" not in answer


@pytest.mark.parametrize(
    "payload", [None, [], "ana", 7, {}, {"name": 7}, {"name": None}, {"name": ["ana"]},
                {"name": "ana", "admin": True}, {"nick": "ana"}],
)
def test_anything_but_a_name_is_400(gateway: ThreadedGateway, payload: object) -> None:
    status, answer = sign_in(gateway, payload)
    assert status == 400 and isinstance(answer["error"], str)


@pytest.mark.parametrize("body", [b"", b"name=ana", b"{", b"\xff\xfe", b'{"name": "ana"'])
def test_a_body_that_is_not_json_is_400(gateway: ThreadedGateway, body: bytes) -> None:
    status, _, answer = post(gateway, body)
    assert status == 400 and "error" in json.loads(answer)


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_only_a_json_body_is_read(gateway: ThreadedGateway, content_type: str | None) -> None:
    """A cross-site form or a no-preflight fetch cannot sign anyone in."""
    status, _, answer = post(gateway, b'{"name": "ana"}', content_type=content_type)
    assert status == 415 and "token" not in json.loads(answer)


def test_a_large_body_is_refused(gateway: ThreadedGateway) -> None:
    body = json.dumps({"name": "a" * MAX_BODY_BYTES}).encode()
    status, _, answer = post(gateway, body)
    assert status == 400 and "token" not in json.loads(answer)


def test_get_is_not_a_sign_in(gateway: ThreadedGateway) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", gateway.port, timeout=10)
    try:
        conn.request("GET", PATH)
        assert conn.getresponse().status == 405
    finally:
        conn.close()


def test_without_a_secret_there_is_no_sign_in(recorder: Recorder) -> None:
    with ThreadedGateway(routes(recorder)) as gw:
        status, _, _ = post(gw, b'{"name": "ana"}')
    assert status in (404, 405)


def test_requested_name() -> None:
    assert requested_name(b'{"name": "ana"}') == "ana"
    for body in (b'{"name": "a b"}', b"[]", b"{}", b"nope"):
        with pytest.raises(ValueError):
            requested_name(body)
