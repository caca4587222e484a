"""$connect accepts only a signed token; a connection acts only for its player."""

from __future__ import annotations

import time

import jwt
from harness import SECRET, World
from numbridge.auth import issue_token


def test_a_valid_token_binds_the_connection_to_its_player(world: World) -> None:
    status, conn = world.connect("ana")
    assert status == 200 and conn is not None
    assert world.svc.connections.player_of(conn.id) == "ana"
    assert world.svc.connections.of_player("ana") == [conn.id]


def test_missing_token_is_refused_with_401(world: World) -> None:
    status, conn = world.connect(None)
    assert (status, conn) == (401, None)


def test_forged_and_expired_tokens_are_refused_with_403(world: World) -> None:
    forged = issue_token("ana", "not-the-secret-but-just-as-long-0123456789")
    expired = issue_token("ana", SECRET, ttl_s=60, now=time.time() - 70)
    unsigned = jwt.encode({"sub": "ana", "iss": "numbridge", "exp": 9999999999}, None,
                          algorithm="none")
    for token in (forged, expired, unsigned, "garbage"):
        status, conn = world.connect(None, token=token)
        assert (status, conn) == (403, None)
    assert world.svc.connections.of_player("ana") == []


def test_a_connection_that_is_not_signed_in_can_do_nothing(world: World) -> None:
    world.api.open.add("intruder=")
    world.message("intruder=", '{"action": "rooms", "id": "x1"}')
    [answer] = world.api.frames["intruder="]
    assert answer["type"] == "error" and answer["code"] == "unauthorized"
    assert answer["id"] == "x1"


def test_disconnect_forgets_the_connection(world: World) -> None:
    conn = world.join("ana")
    other = world.join("ana")
    conn.close()
    assert world.svc.connections.player_of(conn.id) is None
    assert world.svc.connections.of_player("ana") == [other.id]
