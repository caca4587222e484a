"""A connection between its ``$connect`` and its opening, through the Lambda handlers on
both stores: API Gateway (and ``numbridge serve``'s gateway) answers a post to it 410
Gone until ``$connect`` has returned, and the handshake has completed."""

from __future__ import annotations

import json
import random

from harness import SECRET, Conn, LambdaContext, World, function, load_event
from numbridge.auth import MAX_TTL_S, issue_token
from players import choose, current, first_moves, start_game


def _connect_unopened(world: World, player: str, cid: str) -> None:
    """``$connect`` answered 200, the socket not open yet (its posts are Gone)."""
    event = load_event("connect")
    event["requestContext"]["connectionId"] = cid
    token = issue_token(player, SECRET, ttl_s=MAX_TTL_S)
    event["queryStringParameters"] = {"token": token}
    event["multiValueQueryStringParameters"] = {"token": [token]}
    assert function(world.routes["$connect"])(event, LambdaContext())["statusCode"] == 200


def test_a_push_to_a_connection_still_connecting_does_not_sign_it_out(world: World) -> None:
    """Catches a post that finds a connection Gone while it is still connecting (its
    ``$connect`` wrote its item; the handshake has not completed) forgetting it: its
    first request is then answered ``unauthorized`` though ``$connect`` accepted it.
    After a restart every player reconnects at once and each ``$connect`` tells the
    opponent, whose own new connection is often in that window."""
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob)
    conns = {"ana": ana, "bob": bob}
    first_moves(world, game, conns)
    cid = "conn-connecting="
    _connect_unopened(world, "bob", cid)
    state = current(world, game)
    mover = conns[state.players[state.turn]] if state.turn else None
    assert mover is not None
    fields = choose(state, random.Random(2))
    assert mover.ask(fields.pop("action"), game=game, **fields)["type"] == "ack"
    world.api.open.add(cid)  # the handshake completes
    world.ledger.players[cid] = "bob"
    phone = Conn(world, "bob", cid)
    answer = phone.ask("sync", game=game)
    assert answer["type"] != "error", json.dumps(answer)
    assert phone.ask("subscribe", topic="lobby")["type"] != "error"
