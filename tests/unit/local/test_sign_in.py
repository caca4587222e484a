"""``POST /local/token`` and ``POST /local/password``: local accounts over HTTP, every answer
and every refusal with its status and code."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from local_fakes import Recorder
from numbridge.auth import verify_operator
from numbridge.local.accounts.attempts import NAME_BURST, Attempts
from numbridge.local.accounts.sign_in import MAX_BODY_BYTES, PASSWORD_PATH, PATH, read_fields
from numbridge.local.accounts.signing import SignInRefused
from numbridge.local.lambdas.functions import Function
from numbridge.local.server import ServeOptions, check_open_sign_in
from numbridge.local.threaded import ThreadedGateway
from numbridge.store import keys
from numbridge.store.accounts import Account, Accounts
from numbridge.store.sqlite import SqliteStore
from testkit.accounts import PASSWORD, local_sign_in
from websockets.sync.client import connect

SECRET = "sign-in-test-secret-0123456789abcdef"
NEW = "a river of lanterns"  # a new password the server takes


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def routes(recorder: Recorder) -> dict[str, Function]:
    return {
        "$connect": Function("connect", recorder.handler("connect")),
        "$disconnect": Function("disconnect", recorder.handler("disconnect")),
        "$default": Function("lobby", recorder.handler("lobby")),
    }


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(tmp_path / "accounts.db", synchronous="NORMAL")
    yield opened
    opened.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def gateway(recorder: Recorder, store: SqliteStore, clock: Clock) -> Iterator[ThreadedGateway]:
    sign_in = local_sign_in(store, SECRET, attempts=Attempts(clock))
    with ThreadedGateway(routes(recorder), sign_in=sign_in) as running:
        yield running


def post(gw: ThreadedGateway, body: bytes, content_type: str | None = "application/json",
         path: str = PATH) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=30)
    try:
        headers = {"Content-Type": content_type} if content_type else {}
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def call(gw: ThreadedGateway, payload: object, path: str = PATH) -> tuple[int, dict[str, object]]:
    status, headers, body = post(gw, json.dumps(payload).encode(), path=path)
    assert headers["content-type"].startswith("application/json")
    assert headers["cache-control"] == "no-store"
    return status, json.loads(body)


def sign_in(gw: ThreadedGateway, name: str, password: str = PASSWORD
            ) -> tuple[int, dict[str, object]]:
    return call(gw, {"name": name, "password": password})


def test_the_paths_are_under_the_local_stage() -> None:
    assert (PATH, PASSWORD_PATH) == ("/local/token", "/local/password")


def test_a_new_name_makes_an_account_and_its_token(gateway: ThreadedGateway,
                                                   store: SqliteStore) -> None:
    status, answer = sign_in(gateway, "ana")
    assert status == 200
    assert answer == {"token": answer["token"], "player": "ana", "created": True,
                      "claimed": False}
    identity = verify_operator(str(answer["token"]), SECRET)
    assert (identity.player, identity.generation) == ("ana", 0)
    stored = Accounts(store).get("ana")
    assert stored is not None and stored.password_hash is not None
    assert stored.password_hash.startswith("$argon2id$")
    assert PASSWORD not in json.dumps(store.get(*Accounts.key("ana")))


def test_a_known_name_needs_its_password(gateway: ThreadedGateway) -> None:
    sign_in(gateway, "ana")
    status, answer = sign_in(gateway, "ana", "not the password")
    assert status == 401 and answer["code"] == "bad_password" and "token" not in answer
    status, answer = sign_in(gateway, "ana")
    assert status == 200 and answer["created"] is False and answer["player"] == "ana"


def test_another_case_is_the_same_account_shown_as_first_registered(
        gateway: ThreadedGateway) -> None:
    sign_in(gateway, "Ana")
    assert sign_in(gateway, "ANA", "not the password")[0] == 401
    status, answer = sign_in(gateway, "aNA")
    assert status == 200 and answer["player"] == "Ana" and answer["created"] is False
    assert verify_operator(str(answer["token"]), SECRET).player == "Ana"


def test_a_short_password_for_a_new_name_is_weak(gateway: ThreadedGateway,
                                                 store: SqliteStore) -> None:
    status, answer = sign_in(gateway, "ana", "seven77")
    assert status == 400 and answer["code"] == "weak_password"
    assert Accounts(store).get("ana") is None


@pytest.mark.parametrize("name", ["", "a" * 33, "ana bob", " ana", "ana!", "a/b", "..\u0000",
                                  "ana\n", "\u0393i\u03ce\u03c1\u03b3\u03bf\u03c2"])  # Latin i
def test_a_name_outside_the_rule_is_bad_name(gateway: ThreadedGateway, name: str) -> None:
    status, answer = sign_in(gateway, name)
    assert status == 400 and answer["code"] == "bad_name" and "token" not in answer


@pytest.mark.parametrize("name", ["bot-easy", "BOT-strong", "bot-anything"])
def test_the_clubs_own_names_are_taken(gateway: ThreadedGateway, name: str) -> None:
    status, answer = sign_in(gateway, name)
    assert status == 409 and answer["code"] == "name_taken"


@pytest.mark.parametrize(
    "payload", [None, [], "ana", 7, {}, {"name": "ana"}, {"password": PASSWORD},
                {"name": 7, "password": PASSWORD}, {"name": "ana", "password": None},
                {"name": ["ana"], "password": PASSWORD},
                {"name": "ana", "password": PASSWORD, "admin": True}],
)
def test_anything_but_a_name_and_password_is_bad_request(gateway: ThreadedGateway,
                                                         payload: object) -> None:
    status, answer = call(gateway, payload)
    assert status == 400 and answer["code"] == "bad_request"


@pytest.mark.parametrize("body", [b"", b"name=ana", b"{", b"\xff\xfe", b'{"name": "ana"',
                                  b"[" * 3000])
def test_a_body_that_is_not_json_is_bad_request(gateway: ThreadedGateway, body: bytes) -> None:
    status, _, answer = post(gateway, body)
    assert status == 400 and json.loads(answer)["code"] == "bad_request"


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_only_a_json_body_is_read(gateway: ThreadedGateway, content_type: str | None) -> None:
    """A cross-site form or a no-preflight fetch cannot sign anyone in."""
    body = json.dumps({"name": "ana", "password": PASSWORD}).encode()
    status, _, answer = post(gateway, body, content_type=content_type)
    assert status == 415 and json.loads(answer)["code"] == "bad_content_type"


def test_a_large_body_is_too_large(gateway: ThreadedGateway) -> None:
    body = json.dumps({"name": "ana", "password": "p" * MAX_BODY_BYTES}).encode()
    status, _, answer = post(gateway, body)
    assert status == 413 and json.loads(answer)["code"] == "too_large"


def test_get_is_not_a_sign_in(gateway: ThreadedGateway) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", gateway.port, timeout=10)
    try:
        conn.request("GET", PATH)
        assert conn.getresponse().status == 405
    finally:
        conn.close()


def test_without_sign_in_there_is_no_route(recorder: Recorder) -> None:
    with ThreadedGateway(routes(recorder)) as gw:
        status, _, _ = post(gw, b'{"name": "ana", "password": "whatever1"}')
    assert status in (404, 405)


def test_failures_for_a_name_are_limited_then_forgiven(gateway: ThreadedGateway,
                                                       clock: Clock) -> None:
    sign_in(gateway, "ana")
    for _ in range(NAME_BURST):
        assert sign_in(gateway, "ana", "wrong password")[0] == 401
    status, headers, body = post(gateway, json.dumps({"name": "ANA", "password": PASSWORD})
                                 .encode())
    answer = json.loads(body)
    assert status == 429 and answer["code"] == "rate_limited"
    assert isinstance(answer["retry_after_ms"], int) and answer["retry_after_ms"] > 0
    assert int(headers["retry-after"]) == -(-answer["retry_after_ms"] // 1000)
    assert sign_in(gateway, "bob")[0] == 200  # another name is not held up
    clock.now += answer["retry_after_ms"] / 1000
    assert sign_in(gateway, "ana")[0] == 200


def test_failures_from_an_address_are_limited_across_names(gateway: ThreadedGateway) -> None:
    names = [f"p{n}" for n in range(8)]
    for name in names:
        sign_in(gateway, name)  # each new account is charged to the address too
    statuses = [sign_in(gateway, names[n % len(names)], "wrong password")[0]
                for n in range(20)]
    assert statuses[:12] == [401] * 12 and set(statuses[12:]) == {429}


def test_the_token_opens_the_websocket(gateway: ThreadedGateway, recorder: Recorder) -> None:
    _, answer = sign_in(gateway, "bob.b-2_")
    with connect(f"{gateway.ws_url}?token={answer['token']}", open_timeout=10):
        (event,) = recorder.wait_for("connect")
    assert event["queryStringParameters"] == {"token": answer["token"]}


def test_a_player_from_before_accounts_is_not_claimed_by_signing_in(
        gateway: ThreadedGateway, store: SqliteStore) -> None:
    """Caught: the first password sent for a name with games and no record made the
    account, so whoever chose a password first took that player's games and rating.
    Games under a name with no record are nobody's to take by choosing a password: the
    host gives the name one (``numbridge account reset``)."""
    store.put({"pk": keys.player("Ana"), "sk": keys.rating("classic"), "rating": 1500})
    status, answer = sign_in(gateway, "ana")
    assert (status, answer["code"]) == (401, "bad_password")
    assert Accounts(store).get("ana") is None


def test_a_record_made_by_an_operator_token_is_not_claimed_by_a_password(
        gateway: ThreadedGateway, store: SqliteStore) -> None:
    """Before: the first password sent for a record without one (``numbridge bot``'s
    robot, a player of ``numbridge token``) took the name and revoked its owner's
    tokens."""
    Accounts(store).ensure("ana", 1)  # an operator-token player's first connect
    status, answer = sign_in(gateway, "ana")
    assert (status, answer["code"]) == (401, "bad_password")
    assert Accounts(store).get("ana") == Account(name="ana", created_ms=1)


def test_a_disabled_account_gets_no_token(gateway: ThreadedGateway, store: SqliteStore) -> None:
    sign_in(gateway, "ana")
    Accounts(store).set_disabled("ana", True)
    status, answer = sign_in(gateway, "ana")
    assert status == 403 and answer["code"] == "disabled"


def test_a_password_change_moves_the_generation_on(gateway: ThreadedGateway) -> None:
    _, first = sign_in(gateway, "ana")
    status, answer = call(gateway, {"name": "ana", "password": PASSWORD,
                                    "new_password": "another password"}, PASSWORD_PATH)
    assert (status, answer) == (200, {})
    assert sign_in(gateway, "ana")[0] == 401
    status, again = sign_in(gateway, "ana", "another password")
    assert status == 200
    assert verify_operator(str(first["token"]), SECRET).generation == 0
    assert verify_operator(str(again["token"]), SECRET).generation == 1


@pytest.mark.parametrize(("payload", "status", "code"), [
    ({"name": "ana", "password": "wrong password", "new_password": NEW}, 401, "bad_password"),
    ({"name": "nobody", "password": PASSWORD, "new_password": NEW}, 401, "bad_password"),
    ({"name": "ana", "password": PASSWORD, "new_password": "short"}, 400, "weak_password"),
    ({"name": "ana", "password": PASSWORD, "new_password": "password123"}, 400,
     "weak_password"),
    ({"name": "ana", "password": PASSWORD}, 400, "bad_request"),
    ({"name": "a b", "password": PASSWORD, "new_password": NEW}, 400, "bad_name"),
])
def test_a_password_change_refused(gateway: ThreadedGateway, payload: object, status: int,
                                   code: str) -> None:
    sign_in(gateway, "ana")
    got, answer = call(gateway, payload, PASSWORD_PATH)
    assert (got, answer["code"]) == (status, code)
    assert sign_in(gateway, "ana")[0] == 200  # the old password still works


def test_open_sign_in_takes_a_name_alone(recorder: Recorder, store: SqliteStore) -> None:
    with ThreadedGateway(routes(recorder),
                         sign_in=local_sign_in(store, SECRET, open_sign_in=True)) as gw:
        status, answer = call(gw, {"name": "ana"})
        assert status == 200 and answer["player"] == "ana"
        assert sign_in(gw, "ana")[0] == 200  # a password, if sent, claims the name
        assert call(gw, {"name": "ana", "password": "wrong password"})[0] == 401


def test_read_fields() -> None:
    assert read_fields(b'{"name": "ana"}', ("name",)) == {"name": "ana"}
    for body in (b'{"name": 1}', b"[]", b"{}", b"nope", b'{"name": "a", "x": "y"}'):
        with pytest.raises(SignInRefused):
            read_fields(body, ("name",))


@pytest.mark.parametrize(("host", "public_url", "refused"), [
    ("127.0.0.1", None, None), ("::1", None, None), ("localhost", None, None),
    ("0.0.0.0", None, "loopback"), ("192.168.1.20", None, "loopback"),
    ("127.0.0.1", "https://club.example", "--public-url"),
    ("127.0.0.1", "http://127.0.0.1:8080", "--public-url"),
])
def test_open_sign_in_is_for_a_one_person_machine_only(host: str, public_url: str | None,
                                                        refused: str | None) -> None:
    options = ServeOptions(host=host, public_url=public_url, open_sign_in=True)
    if refused is None:
        check_open_sign_in(options)
    else:
        with pytest.raises(ValueError, match=refused):
            check_open_sign_in(options)
    check_open_sign_in(ServeOptions(host=host, public_url=public_url))  # without it: fine
