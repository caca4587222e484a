"""The stock of dealt boards on every path that starts a game (RULES.md: a proposal
accepted, a rematch, a game against the bot, a seek pairing), in a room whose every
board is a stocked ask (grades pairs to beyond, which the dealer aims at): each game
dealt from the stock asks for its refill once its frames are out, and a request
repeated with its id is answered from its receipt, the same game, without taking
another board."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from harness import Conn, World
from numbridge.club.rooms_config import parse_rooms_yaml
from numbridge.service import context as ctx
from numbridge.store import keys
from numbridge.store.board_stock import DEPTH

HARD = """\
rooms:
  - id: hard
    title: Hard
    variants:
      bridge: {size: 9, clues: {min: 26, max: 26, default: 26}, take_price: 1}
    move_ms: 45000
    game_ms: 900000
    highlighting: true
    blocks: [regular]
    grades: [pairs, beyond]
"""
# Every game of the room, whatever its proposal asks: the room's range, or one grade.
SETTINGS = {None: keys.stock_setting(9, "regular", 26, ["pairs", "beyond"]),
            "beyond": keys.stock_setting(9, "regular", 26, ["beyond"])}


@pytest.fixture
def hard(world: World) -> World:
    world.svc = dataclasses.replace(world.svc, rooms=parse_rooms_yaml(HARD, "(test)"))
    ctx.install(world.svc)
    return world


def stocked(world: World, setting: str) -> int:
    items = world.store.get_many([(keys.stock(setting), keys.stock_slot(n))
                                  for n in range(DEPTH)])
    return sum(item is not None for item in items)


def filled(world: World, setting: str) -> None:
    """The setting's stock full, and no refill left to send."""
    world.review_sqs.sent.append({"body": {"stock": setting}})
    assert world.deliver_reviews() == {"batchItemFailures": []}
    assert stocked(world, setting) == DEPTH


def refills(world: World) -> list[str]:
    return [m["body"]["stock"] for m in world.review_sqs.sent if "stock" in m["body"]]


def states(conn: Conn) -> list[dict[str, Any]]:
    """The state frames the connection has received."""
    return [f for f in conn.frames if f["type"] == "state"]


def test_an_accept_repeated_with_its_id_is_the_same_game_and_takes_no_other_board(
        hard: World) -> None:
    """Catches a repeated accept (a client's retry after a lost answer) decided again: a
    second board taken from the stock (and a second refill), or another game."""
    filled(hard, SETTINGS["beyond"])
    ana, bob = hard.join("ana"), hard.join("bob")
    made = ana.ask("propose", room="hard", grade="beyond")
    first = bob.ask("accept", id="acc-1", proposal=made["proposal"]["id"])
    assert first["type"] == "ack"
    [state] = states(bob)
    game = state["game"]
    assert stocked(hard, SETTINGS["beyond"]) == DEPTH - 1
    assert refills(hard) == [SETTINGS["beyond"]]
    again = bob.ask("accept", id="acc-1", proposal=made["proposal"]["id"])
    assert again == first
    assert states(bob) == [state]  # no other game
    assert stocked(hard, SETTINGS["beyond"]) == DEPTH - 1
    assert refills(hard) == [SETTINGS["beyond"]]
    assert [g["game"] for g in bob.ask("games")["games"]] == [game]


def test_a_rematch_of_a_stocked_ask_is_dealt_from_the_stock_and_asks_its_refill(
        hard: World) -> None:
    """Catches a rematch that deals inline past a full stock, or whose refill is never
    asked (the stock drained by rematches)."""
    ana, bob = hard.join("ana"), hard.join("bob")
    made = ana.ask("propose", room="hard", grade="beyond", rated=False)
    assert bob.ask("accept", proposal=made["proposal"]["id"])["type"] == "ack"
    [state] = states(bob)
    game = state["game"]
    assert bob.ask("resign", game=game)["type"] == "ack"
    hard.review_sqs.sent.clear()
    filled(hard, SETTINGS["beyond"])
    assert ana.ask("offer_rematch", game=game)["type"] == "ack"
    assert bob.ask("accept_rematch", game=game)["type"] == "ack"
    assert stocked(hard, SETTINGS["beyond"]) == DEPTH - 1
    assert refills(hard) == [SETTINGS["beyond"]]


def test_a_game_against_the_bot_of_a_stocked_ask_asks_its_refill(hard: World) -> None:
    """Catches a bot game taken from the stock whose refill is never asked."""
    filled(hard, SETTINGS["beyond"])
    ana = hard.join("ana")
    assert ana.ask("propose", room="hard", bot="easy", grade="beyond")["type"] == "ack"
    assert stocked(hard, SETTINGS["beyond"]) == DEPTH - 1
    assert refills(hard) == [SETTINGS["beyond"]]


def test_a_seek_pairing_of_a_stocked_ask_asks_its_refill(hard: World) -> None:
    """Catches a seek pairing (which commits by itself, its outcome carrying no writes)
    taken from the stock without asking for its refill: in a room whose every board is
    stocked, seekers would drain it and every later seek be dealt inline."""
    filled(hard, SETTINGS[None])
    ana, bob = hard.join("ana"), hard.join("bob")
    assert ana.ask("seek", room="hard")["type"] == "seek"
    frames = bob.send("seek", room="hard")
    assert [f["type"] for f in frames] == ["ack", "state"], frames
    assert stocked(hard, SETTINGS[None]) == DEPTH - 1
    assert refills(hard) == [SETTINGS[None]]
