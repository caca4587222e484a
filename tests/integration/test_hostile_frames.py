"""Hostile frames through the real Lambda entry points: a typed ``malformed`` error to
the sender only, the request id kept when it can be read, and nothing changed."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from harness import Conn, LambdaContext, World, function, load_event
from numbridge.service.dispatch import MessageHandler
from players import current, start_game


def message_event(conn: Conn, body: object, **extra: Any) -> dict[str, Any]:
    event = load_event("message-rooms")
    event["requestContext"].update(connectionId=conn.id, routeKey="$default")
    event["body"] = body
    event.update(extra)
    return event


def deliver(world: World, event: Any, route: str = "$default") -> Any:
    return function(world.routes[route])(event, LambdaContext())


@pytest.fixture
def table(world: World) -> tuple[Conn, Conn, str]:
    ana, bob = world.join("ana"), world.join("bob")
    return ana, bob, start_game(world, "bridge", ana, bob, colour="blue")


def only_answer(frames: list[dict[str, Any]], others: list[Conn]) -> dict[str, Any]:
    [answer] = frames
    assert answer["type"] == "error" and answer["code"] == "malformed", answer
    assert all(other.new() == [] for other in others)
    return answer


def test_a_frame_nested_5000_deep_gets_malformed_not_a_crash(
    world: World, table: tuple[Conn, Conn, str],
) -> None:
    ana, bob, game = table
    before = world.stored_state(game)
    ana.new(), bob.new()
    deep = '{"action": "place", "id": "deep", "game": "' + game + '", "x": '
    deep += "[" * 5000 + "]" * 5000 + "}"
    assert len(deep) < 12_000
    ana.raw(deep, route="place")
    answer = {**ana.frames[-1]}
    # Not parsed at all, so its id is unknown.
    assert answer["code"] == "malformed" and answer["id"] is None
    assert "deeper than 32" in answer["message"]
    ana.raw("[" * 5000)  # not an object at all: route selection must survive it too
    assert ana.frames[-1]["code"] == "malformed" and ana.frames[-1]["id"] is None
    assert bob.new() == []
    assert world.stored_state(game) == before


@pytest.mark.parametrize(
    ("body", "extra"),
    [
        (None, {}),
        (17, {}),
        ({"action": "rooms", "id": "x"}, {}),
        (["rooms"], {}),
        ("", {}),
        (base64.b64encode(b'{"action":"rooms","id":"\xff"}').decode(), {"isBase64Encoded": True}),
        ("!!! not base64 !!!", {"isBase64Encoded": True}),
        ("x" * (128 * 1024 + 1), {}),
    ],
    ids=["none", "int", "dict", "list", "empty", "base64-bad-utf8", "bad-base64", "oversized"],
)
def test_a_message_body_may_be_anything(
    world: World, table: tuple[Conn, Conn, str], body: object, extra: dict[str, Any],
) -> None:
    ana, bob, game = table
    before = world.stored_state(game)
    ana.new(), bob.new()
    assert deliver(world, message_event(ana, body, **extra)) == {"statusCode": 200}
    only_answer(ana.new(), [bob])
    assert world.stored_state(game) == before


def test_a_base64_body_that_is_a_frame_is_answered(world: World) -> None:
    ana = world.join("ana")
    ana.new()
    body = base64.b64encode(b'{"action":"rooms","id":"b64"}').decode()
    deliver(world, message_event(ana, body, isBase64Encoded=True))
    [answer] = ana.new()
    assert answer["type"] == "rooms" and answer["id"] == "b64"


@pytest.mark.parametrize("event", [{}, {"requestContext": None}, [], "x",
                                   {"requestContext": {"connectionId": 5}, "body": "{}"}])
def test_an_event_without_a_connection_is_refused_without_an_exception(
    world: World, event: object,
) -> None:
    assert deliver(world, event) == {"statusCode": 400}


def test_hostile_values_in_a_move_change_nothing_and_keep_the_id(
    world: World, table: tuple[Conn, Conn, str],
) -> None:
    ana, bob, game = table
    before = world.stored_state(game)
    digit = current(world, game).blue.hand[0]
    head = '{"action": "place", "id": "h1", "game": "' + game + '", "cell": [0, 1], '
    cases = {
        "nan": head + '"digit": NaN}',
        "infinity": head + '"digit": Infinity}',
        "huge": head + '"digit": ' + "9" * 5000 + "}",
        "duplicate": head + f'"digit": {digit}, "digit": {digit}' + "}",
        "unknown": head + f'"digit": {digit}, "force": true' + "}",
        "float": head + '"digit": 3.0}',
        "string": head + '"digit": "3"}',
        "cell": head.replace("[0, 1]", '[0, "1"]') + f'"digit": {digit}' + "}",
        "surrogate": head.replace('"h1"', '"h1", "note": "\\udead"') + f'"digit": {digit}' + "}",
    }
    for name, body in cases.items():
        ana.new(), bob.new()
        answer = only_answer(ana.raw(body), [bob])
        assert answer["id"] == "h1", (name, answer)
        assert world.stored_state(game) == before, name
    # Off the board, or a digit that does not exist: well-formed, against the rules.
    for cell, d in (([9, 0], digit), ([-1, 0], digit), ([0, 1], 0), ([0, 1], 10)):
        answer = ana.ask("place", game=game, cell=cell, digit=d)
        assert answer["code"] == "illegal", (cell, d, answer)
    assert world.stored_state(game) == before


def test_ids_of_games_and_proposals_that_are_not_yours(
    world: World, table: tuple[Conn, Conn, str],
) -> None:
    ana, bob, game = table
    eve = world.join("eve")
    proposal = ana.ask("propose", room="bridge")["proposal"]["id"]
    before = world.stored_state(game)
    for action, fields, code in [
        ("exchange", {"game": game}, "unauthorized"),
        ("resign", {"game": game}, "unauthorized"),
        ("candidates", {"game": game, "digit": 1}, "unauthorized"),
        ("withdraw", {"proposal": proposal}, "unauthorized"),
        ("exchange", {"game": "g-" + "0" * 62}, "not_found"),
        ("exchange", {"game": "x" * 65}, "malformed"),
        ("exchange", {"game": ""}, "malformed"),
        ("accept", {"proposal": "p" * 65}, "malformed"),
    ]:
        ana.new(), bob.new()
        answer = eve.ask(action, **fields)
        assert answer["type"] == "error" and answer["code"] == code, (action, fields, answer)
        assert ana.new() == [] and bob.new() == []
    assert world.stored_state(game) == before


def test_each_frame_is_parsed_once(
    world: World, table: tuple[Conn, Conn, str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    ana, _bob, game = table
    handler = MessageHandler(world.svc)
    real = json.loads
    parsed: list[str] = []

    def loads(text: Any, *args: Any, **kwargs: Any) -> Any:
        if text in frames:
            parsed.append(text)
        return real(text, *args, **kwargs)

    digit = current(world, game).blue.hand[0]
    frames = [
        json.dumps({"action": "candidates", "id": "once-1", "game": game, "digit": digit}),
        json.dumps({"action": "exchange", "id": "once-2", "game": game}),
        json.dumps({"action": "exchange", "id": "once-3", "game": game, "extra": 1}),
    ]
    monkeypatch.setattr(json, "loads", loads)
    answers = [handler.handle(ana.id, frame).replies[-1] for frame in frames]
    assert [a["type"] for a in answers] == ["candidates", "ack", "error"]
    assert parsed == frames  # each exactly once
