"""Cognito sign-in: RS256 tokens checked against the pool's JWKS, beside the operator's
HS256 tokens; and through the real $connect handler."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
import pytest
from cognito_fakes import (
    OTHER_POOL,
    POOL,
    FakeJwksEndpoint,
    cognito_token,
    jwk,
    private_key,
    sign_up_event,
)
from cryptography.hazmat.primitives import serialization
from harness import SECRET, LambdaContext, World, function
from numbridge.auth import AuthUnavailable, InvalidToken, issue_token, verify_player
from numbridge.cognito import (
    JWKS_MIN_REFETCH_S,
    CognitoPool,
    CognitoVerifier,
    Jwks,
    fetch_url,
)
from numbridge.store import keys
from players import current, start_game


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def endpoint() -> FakeJwksEndpoint:
    return FakeJwksEndpoint()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def verifier(endpoint: FakeJwksEndpoint, clock: Clock) -> CognitoVerifier:
    return CognitoVerifier(POOL, Jwks(POOL.jwks_url, endpoint, clock=clock))


def base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def player(token: str | None, verifier: CognitoVerifier | None) -> str:
    return verify_player(token, lambda: SECRET, verifier)


def refused(token: str, verifier: CognitoVerifier | None) -> str:
    with pytest.raises(InvalidToken) as info:
        player(token, verifier)
    return str(info.value)


# ---------------------------------------------------------------- the pool


def test_pool_urls_follow_from_the_pool_id() -> None:
    assert POOL.region == "eu-west-1"
    assert POOL.issuer == "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_TestPool1"
    assert POOL.jwks_url == POOL.issuer + "/.well-known/jwks.json"


def test_pool_from_the_environment() -> None:
    assert CognitoPool.from_environment({}) is None
    env = {"COGNITO_USER_POOL_ID": "us-east-2_Abc", "COGNITO_CLIENT_ID": "c1"}
    assert CognitoPool.from_environment(env) == CognitoPool("us-east-2_Abc", "c1")
    for half in ({"COGNITO_USER_POOL_ID": "us-east-2_Abc"}, {"COGNITO_CLIENT_ID": "c1"},
                 {"COGNITO_USER_POOL_ID": "nounderscore", "COGNITO_CLIENT_ID": "c1"}):
        with pytest.raises(ValueError, match="COGNITO_USER_POOL_ID"):
            CognitoPool.from_environment(half)


# ---------------------------------------------------------------- tokens


def test_a_good_id_token_names_its_cognito_username(verifier: CognitoVerifier) -> None:
    assert player(cognito_token("ana"), verifier) == "ana"
    # preferred_username is the user's to change: never the name
    assert player(cognito_token("ana", preferred_username="bob"), verifier) == "ana"


def test_a_good_access_token_names_its_username(verifier: CognitoVerifier) -> None:
    assert player(cognito_token("bob", use="access"), verifier) == "bob"


def test_an_expired_token_is_refused(verifier: CognitoVerifier) -> None:
    expired = cognito_token(now=time.time() - 7200, lifetime_s=3600)
    assert "expired" in refused(expired, verifier).lower()


def test_a_token_for_another_app_client_is_refused(verifier: CognitoVerifier) -> None:
    for use in ("id", "access"):
        message = refused(cognito_token(use=use, client_id="someone-elses-client"), verifier)
        assert "another app client" in message
    # an access token's aud (if any) is not its client id
    assert "another app client" in refused(
        cognito_token(use="access", client_id="x", aud=POOL.client_id), verifier)


def test_a_token_of_another_pool_is_refused(verifier: CognitoVerifier) -> None:
    assert "issuer" in refused(cognito_token(pool=OTHER_POOL), verifier).lower()


def test_a_token_of_the_wrong_use_is_refused(verifier: CognitoVerifier) -> None:
    assert "token_use" in refused(cognito_token(use="refresh"), verifier)
    assert "token_use" in refused(cognito_token(token_use=None), verifier)
    only_id = CognitoVerifier(POOL, verifier.jwks, token_uses=frozenset({"id"}))
    assert "token_use" in refused(cognito_token(use="access"), only_id)


def test_a_forged_signature_is_refused(verifier: CognitoVerifier) -> None:
    # signed with a key of our own, claiming the pool's key id
    forged = cognito_token(kid="key-1", sign_with="attacker")
    assert "signature" in refused(forged, verifier).lower()
    # the claims of a good token with another token's signature
    good, other = cognito_token("ana"), cognito_token("bob")
    spliced = ".".join(other.split(".")[:2] + good.split(".")[2:])
    assert "signature" in refused(spliced, verifier).lower()


def test_algorithm_confusion_and_unsigned_tokens_are_refused(verifier: CognitoVerifier) -> None:
    claims = jwt.decode(cognito_token("ana"), options={"verify_signature": False})
    public_pem = private_key("key-1").public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    # HS256 "signed" with the public key goes to the operator path and fails there
    head = base64url(json.dumps({"alg": "HS256", "typ": "JWT", "kid": "key-1"}).encode())
    body = base64url(json.dumps(claims).encode())
    mac = hmac.new(public_pem, f"{head}.{body}".encode(), hashlib.sha256).digest()
    assert "signature" in refused(f"{head}.{body}.{base64url(mac)}", verifier).lower()
    unsigned = jwt.encode(claims, None, algorithm="none", headers={"kid": "key-1"})
    assert "not accepted" in refused(unsigned, verifier)
    no_kid = jwt.encode(claims, private_key("key-1"), algorithm="RS256")
    assert "kid" in refused(no_kid, verifier)


def test_names_that_are_no_player_or_the_clubs_own_are_refused(
    verifier: CognitoVerifier,
) -> None:
    assert "player name" in refused(cognito_token("ana smith"), verifier)
    assert "player name" in refused(cognito_token("a" * 33), verifier)
    assert "club's own" in refused(cognito_token("bot-easy"), verifier)
    assert "club's own" in refused(cognito_token("Bot-Strong", use="access"), verifier)


def test_operator_tokens_still_work_beside_cognito(verifier: CognitoVerifier) -> None:
    assert player(issue_token("robot", SECRET), verifier) == "robot"
    assert player(issue_token("ana", SECRET), None) == "ana"
    forged = issue_token("ana", "another-secret-of-the-same-length-0123456789")
    assert "signature" in refused(forged, verifier).lower()


def test_cognito_tokens_are_refused_where_cognito_is_off() -> None:
    assert "not enabled" in refused(cognito_token("ana"), None)


def test_garbage_is_refused(verifier: CognitoVerifier) -> None:
    for token in ("garbage", "a.b.c", "eyJhbGciOiJSUzI1NiJ9.e30."):
        refused(token, verifier)
    with pytest.raises(InvalidToken):
        player(None, verifier)


# ---------------------------------------------------------------- the key set


def test_the_jwks_is_fetched_once_and_again_when_it_ages_out(
    verifier: CognitoVerifier, endpoint: FakeJwksEndpoint, clock: Clock
) -> None:
    for _ in range(3):
        assert player(cognito_token("ana"), verifier) == "ana"
    assert endpoint.fetched == [POOL.jwks_url]
    clock.now += verifier.jwks._keys.max_age_s + 1
    assert player(cognito_token("ana", kid="key-2"), verifier) == "ana"
    assert len(endpoint.fetched) == 2


def test_an_unknown_kid_refetches_once_and_finds_a_rotated_key(
    verifier: CognitoVerifier, endpoint: FakeJwksEndpoint, clock: Clock
) -> None:
    assert player(cognito_token("ana"), verifier) == "ana"
    clock.now += JWKS_MIN_REFETCH_S + 1
    endpoint.kids = ["key-2", "key-3"]  # the pool rotated its keys
    assert player(cognito_token("ana", kid="key-3"), verifier) == "ana"
    assert len(endpoint.fetched) == 2


def test_unknown_kids_do_not_hammer_the_endpoint(
    verifier: CognitoVerifier, endpoint: FakeJwksEndpoint, clock: Clock
) -> None:
    assert player(cognito_token("ana"), verifier) == "ana"
    clock.now += JWKS_MIN_REFETCH_S + 1
    for n in range(5):
        assert "no key" in refused(cognito_token("ana", kid=f"made-up-{n}"), verifier)
    assert len(endpoint.fetched) == 2  # the first fetch and one refetch
    # and the key set that was fetched at the start of a cold container is not fetched again
    cold = CognitoVerifier(POOL, Jwks(POOL.jwks_url, endpoint, clock=clock))
    assert "no key" in refused(cognito_token("ana", kid="made-up"), cold)
    assert len(endpoint.fetched) == 3


def test_an_unreachable_jwks_is_unavailable_not_a_bad_token(
    verifier: CognitoVerifier, endpoint: FakeJwksEndpoint, clock: Clock
) -> None:
    endpoint.down = True
    with pytest.raises(AuthUnavailable):
        player(cognito_token("ana"), verifier)
    endpoint.down = False
    assert player(cognito_token("ana"), verifier) == "ana"
    # once fetched, an outage after the keys aged out serves the keys we have
    endpoint.down = True
    clock.now += verifier.jwks._keys.max_age_s + 1
    assert player(cognito_token("ana"), verifier) == "ana"


def test_a_jwks_without_rs256_signing_keys_is_no_jwks(clock: Clock) -> None:
    def serve(body: dict[str, Any]) -> Jwks:
        return Jwks("u", lambda url: json.dumps(body).encode(), clock=clock)

    encryption = {**jwk("key-1"), "use": "enc"}
    for body in ({"keys": []}, {"keys": [encryption]}, {"nokeys": 1},
                 {"keys": [{**jwk("key-1"), "alg": "RS512"}]}):
        with pytest.raises(AuthUnavailable):
            player(cognito_token("ana"), CognitoVerifier(POOL, serve(body)))


# ---------------------------------------------------------------- over HTTP


class _JwksServer(BaseHTTPRequestHandler):
    body = b""
    hits = 0

    def do_GET(self) -> None:
        type(self).hits += 1
        if self.path != "/eu-west-1_TestPool1/.well-known/jwks.json":
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def jwks_server() -> Iterator[str]:
    _JwksServer.body, _JwksServer.hits = FakeJwksEndpoint().body(), 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), _JwksServer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()


def test_the_jwks_is_read_over_http(jwks_server: str) -> None:
    url = f"{jwks_server}/eu-west-1_TestPool1/.well-known/jwks.json"
    verifier = CognitoVerifier(POOL, Jwks(url))
    assert player(cognito_token("ana"), verifier) == "ana"
    assert player(cognito_token("bob", kid="key-2"), verifier) == "bob"
    assert _JwksServer.hits == 1
    with pytest.raises(OSError):
        fetch_url(f"{jwks_server}/nowhere")
    gone = CognitoVerifier(POOL, Jwks(f"{jwks_server}/nowhere"))
    with pytest.raises(AuthUnavailable):
        player(cognito_token("ana"), gone)


# ---------------------------------------------------------------- through $connect


def test_connect_binds_a_cognito_player(world: World, verifier: CognitoVerifier) -> None:
    world.svc.cognito = verifier
    status, conn = world.connect(None, token=cognito_token("ana"))
    assert status == 200 and conn is not None
    assert world.svc.connections.player_of(conn.id) == "ana"
    # and the operator's tokens still connect
    assert world.connect("robot")[0] == 200


def test_connect_refuses_bad_cognito_tokens(world: World, verifier: CognitoVerifier) -> None:
    world.svc.cognito = verifier
    for token in (cognito_token(sign_with="attacker"), cognito_token(client_id="other"),
                  cognito_token(now=time.time() - 7200), cognito_token("bot-strong")):
        assert world.connect(None, token=token) == (403, None)
    assert world.svc.connections.of_player("ana") == []


def test_connect_without_cognito_refuses_its_tokens(world: World) -> None:
    assert world.svc.cognito is None
    assert world.connect(None, token=cognito_token("ana")) == (403, None)


def test_connect_answers_503_when_the_keys_cannot_be_fetched(
    world: World, verifier: CognitoVerifier, endpoint: FakeJwksEndpoint
) -> None:
    world.svc.cognito = verifier
    endpoint.down = True
    assert world.connect(None, token=cognito_token("ana")) == (503, None)


# ---------------------------------------------------------------- sign-up


def test_sign_up_accepts_player_names_and_refuses_the_rest(world: World) -> None:
    sign_up = function("signup")
    event = sign_up_event("ana_b.2")
    assert sign_up(event, LambdaContext()) == event
    for name, why in (("ana smith", "player name"), ("ana@example.com", "player name"),
                      ("x" * 33, "player name"), ("BOT-easy", "club's own"),
                      ("ana\n", "player name")):
        with pytest.raises(ValueError, match=why):
            sign_up(sign_up_event(name), LambdaContext())


def test_sign_up_refuses_a_players_name_in_any_case(world: World) -> None:
    world.join("Ana")  # an operator's player: their record is made at connect
    sign_up = function("signup")
    for name in ("Ana", "ana", "ANA", "aNA"):
        with pytest.raises(ValueError, match="taken"):
            sign_up(sign_up_event(name), LambdaContext())
    # a pool player's name too, once they signed in
    world.svc.cognito = CognitoVerifier(POOL, Jwks(POOL.jwks_url, FakeJwksEndpoint()))
    assert world.connect(None, token=cognito_token("Bea"))[0] == 200
    with pytest.raises(ValueError, match="taken"):
        sign_up(sign_up_event("bea"), LambdaContext())
    assert sign_up(sign_up_event("cy"), LambdaContext())["userName"] == "cy"
    assert world.svc.accounts.get("cy") is None  # the trigger only reads


def test_sign_up_takes_the_clubs_scripts_and_refuses_look_alikes(world: World) -> None:
    """The local sign-in's rule and codes at Cognito's sign-up. Caught: "Γιώργος" and
    "Пламен" were refused, and "ana" spelt with a Cyrillic first letter was not taken."""
    sign_up = function("signup")
    for name in ("Γιώργος", "Пламен"):
        assert sign_up(sign_up_event(name), LambdaContext())["userName"] == name
    world.join("ana")
    world.join("Γιώργος")
    for name, code in (("\u0430na", "name_taken"), ("γιώργος", "name_taken"),
                       ("ANA", "name_taken"), ("a" * 40, "bad_name"),
                       ("\u0393i\u03ce\u03c1\u03b3\u03bf\u03c2", "name_taken"),  # a Latin i
                       ("\u0396eus", "bad_name"),  # a Greek Z: of two scripts, like nobody's
                       ("bot-x", "name_taken")):
        with pytest.raises(ValueError, match=f"^{code}: "):
            sign_up(sign_up_event(name), LambdaContext())


def test_sign_up_refuses_a_player_from_before_records(world: World) -> None:
    """A player with games and no record yet (a club from before records)."""
    world.store.put({"pk": keys.player("dan"), "sk": keys.player_game("g-old")})
    with pytest.raises(ValueError, match="taken"):
        function("signup")(sign_up_event("dan"), LambdaContext())


def test_a_pool_token_of_another_sub_is_refused(world: World, verifier: CognitoVerifier) -> None:
    world.svc.cognito = verifier
    first = str(uuid.uuid4())
    assert world.connect(None, token=cognito_token("ana", sub=first))[0] == 200
    record = world.svc.accounts.get("ana")
    assert record is not None and record.sub == first
    for use in ("id", "access"):
        assert world.connect(None, token=cognito_token("ana", use=use)) == (403, None)
    assert world.connect(None, token=cognito_token("ana", sub=first, use="access"))[0] == 200
    assert len(world.svc.connections.of_player("ana")) == 2


def test_an_operator_player_is_not_taken_over(world: World, verifier: CognitoVerifier) -> None:
    world.svc.cognito = verifier
    ana, ben = world.join("ana"), world.join("ben")
    start_game(world, "blitz", ana, ben)
    # Registered in the pool before the trigger refused taken names, or by an admin:
    # whatever the case, a pool token never binds to a record made without one.
    for name in ("ana", "Ana", "ANA"):
        assert world.connect(None, token=cognito_token(name)) == (403, None)
    record = world.svc.accounts.get("ana")
    assert record is not None and record.sub is None
    assert len(world.svc.connections.of_player("ana")) == 1
    # nor a player with games from before records (no record at all)
    world.store.put({"pk": keys.player("dan"), "sk": keys.player_game("g-old")})
    assert world.connect(None, token=cognito_token("dan")) == (403, None)
    assert world.svc.accounts.get("dan") is None
    assert world.connect("dan")[0] == 200  # the operator's token still is dan


def test_a_name_registered_again_after_a_deletion_gets_nothing_of_the_old_player(
        world: World, verifier: CognitoVerifier) -> None:
    world.svc.cognito = verifier
    old_sub = str(uuid.uuid4())
    status, ana = world.connect(None, token=cognito_token("ana", sub=old_sub))
    assert status == 200 and ana is not None
    world.ledger.players[ana.id] = "ana"  # whose frames these are (the secrets' check)
    ben = world.join("ben")
    game = start_game(world, "blitz", ana, ben)
    ana.close()
    # The pool user is deleted; the name is registered again: the trigger refuses it...
    with pytest.raises(ValueError, match="taken"):
        function("signup")(sign_up_event("ana"), LambdaContext())
    # ...and were it registered anyway (before the trigger, by an admin), the new user's
    # tokens (another sub) open no connection: no hand, no games, no resign.
    seen_before = {cid: len(frames) for cid, frames in world.api.frames.items()}
    assert world.connect(None, token=cognito_token("ana", sub=str(uuid.uuid4()))) == (403, None)
    assert world.svc.connections.of_player("ana") == []
    assert {cid: len(frames) for cid, frames in world.api.frames.items()} == seen_before
    assert current(world, game).status != "finished"
