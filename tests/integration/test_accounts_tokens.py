"""$connect against the player's record, on both adapters: a revoked generation, a
disabled account, another spelling of a taken name, and a connection whose token has
expired (refused at its next request and forgotten, as API Gateway runs it)."""

from __future__ import annotations

import time

from harness import SECRET, World
from numbridge.auth import MAX_TTL_S, issue_token
from numbridge.store.accounts import Account


def test_a_first_connect_makes_the_players_record(world: World) -> None:
    world.join("ana")
    made = world.svc.accounts.get("ANA")
    assert made is not None and (made.name, made.generation, made.sub) == ("ana", 0, None)


def test_a_revoked_generation_is_refused_and_the_new_one_admitted(world: World) -> None:
    world.join("ana")
    old = issue_token("ana", SECRET, ttl_s=MAX_TTL_S)
    world.svc.accounts.revoke("ana")
    assert world.connect(None, token=old)[0] == 401
    new = issue_token("ana", SECRET, ttl_s=MAX_TTL_S, generation=1)
    assert world.connect(None, token=new)[0] == 200


def test_a_disabled_account_is_refused(world: World) -> None:
    world.svc.accounts.add(Account(name="ana", created_ms=1, disabled=True))
    assert world.connect("ana")[0] == 403
    assert world.svc.connections.of_player("ana") == []
    world.svc.accounts.set_disabled("ana", False)
    assert world.connect("ana")[0] == 200


def test_another_spelling_of_a_taken_name_is_refused(world: World) -> None:
    world.join("Ana")
    assert world.connect("ana")[0] == 403
    assert world.connect("ANA")[0] == 403
    assert world.svc.connections.of_player("ana") == []


def test_an_expired_connection_is_refused_and_forgotten_at_its_next_request(
        world: World) -> None:
    token = issue_token("ana", SECRET, ttl_s=60, now=time.time())
    status, conn = world.connect(None, token=token)
    assert status == 200 and conn is not None
    assert conn.ask("rooms")["type"] == "rooms"
    # The token lives 60 s from its issue: the clock moves past that.
    world.clock.advance(int((time.time() + 61) * 1000) - world.clock())
    [refusal] = conn.send("rooms")
    assert refusal["type"] == "error" and refusal["code"] == "unauthorized"
    assert "expired" in refusal["message"]
    assert world.svc.connections.get(conn.id) is None
    # Forgotten: every later request on it is not signed in.
    assert conn.send("rooms")[0]["code"] == "unauthorized"
