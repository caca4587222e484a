"""$connect against the player's record, on both adapters: a revoked generation, a
disabled account, another spelling of a taken name, and a connection whose token has
expired (refused at its next request and forgotten, as API Gateway runs it)."""

from __future__ import annotations

import time

from harness import SECRET, Conn, LambdaContext, World, function, load_event
from numbridge.auth import MAX_TTL_S, issue_token
from numbridge.store.accounts import Account
from players import start_game


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
    assert conn.id in world.api.deleted  # closed: DeleteConnection


def _expiring(world: World, player: str) -> Conn:
    """A connection of ``player`` whose token lives 60 s from now (the clock is set to
    the wall clock first: tokens expire by it)."""
    world.clock.advance(max(0, int(time.time() * 1000) - world.clock()))
    status, conn = world.connect(None, token=issue_token(player, SECRET, ttl_s=60,
                                                         now=time.time()))
    assert status == 200 and conn is not None
    world.ledger.players[conn.id] = player
    return Conn(world, player, conn.id)


def _past_expiry(world: World) -> None:
    world.clock.advance(int((time.time() + 61) * 1000) - world.clock())


def test_nothing_is_pushed_to_an_expired_connection_and_it_is_closed(world: World) -> None:
    old = _expiring(world, "ana")
    ana, ben = world.join("ana"), world.join("ben")
    world.clock.advance(50_000)  # the game starts 10 s before the token expires
    game = start_game(world, "blitz", ana, ben)
    assert [f["type"] for f in old.new()] == ["state"]  # pushed while the token lives
    _past_expiry(world)
    ana.new()
    assert ben.ask("resign", game=game)["type"] == "ack"
    assert any(f.get("game") == game for f in ana.new())  # her other device is told
    assert old.new() == []  # no frame after the token's expiry, hand or other
    assert old.id in world.api.deleted  # DeleteConnection
    assert world.svc.connections.get(old.id) is None
    assert world.svc.connections.of_player("ana") == [ana.id]


def test_an_expired_connection_is_not_dealt_a_hand(world: World) -> None:
    old = _expiring(world, "ana")
    ana, ben = world.join("ana"), world.join("ben")
    _past_expiry(world)
    start_game(world, "blitz", ana, ben)
    assert old.new() == [] and old.id in world.api.deleted


def test_nothing_is_pushed_to_an_expired_watcher_and_it_is_closed(world: World) -> None:
    watcher, other = _expiring(world, "cy"), world.join("dee")
    ana, ben = world.join("ana"), world.join("ben")
    world.clock.advance(50_000)
    game = start_game(world, "blitz", ana, ben)
    assert watcher.ask("watch", game=game)["type"] == "state"
    assert other.ask("watch", game=game)["type"] == "state"
    _past_expiry(world)
    assert ben.ask("resign", game=game)["type"] == "ack"
    assert any(f.get("game") == game for f in other.new())
    assert watcher.new() == []
    assert watcher.id in world.api.deleted
    assert world.svc.watches.of_game(game, world.clock()) == [other.id]
    assert world.svc.connections.get(watcher.id) is None


def test_a_second_token_parameter_is_refused_at_connect(world: World) -> None:
    """API Gateway hands ``$connect`` the last value of a repeated parameter: which token
    counts must not be the client's choice between two readers."""
    event = load_event("connect")
    ana, bob = (issue_token(p, SECRET, ttl_s=MAX_TTL_S) for p in ("ana", "bob"))
    event["queryStringParameters"] = {"token": bob}
    event["multiValueQueryStringParameters"] = {"token": [ana, bob]}
    answer = function(world.routes["$connect"])(event, LambdaContext())
    assert answer["statusCode"] == 400
    assert world.svc.accounts.get("bob") is None  # refused before any record is made
