"""Spectators (RULES.md §8): anyone signed in may watch a game in progress unless its
room says no; a spectator's ``state``, then the game's events as they happen, hidden
ones as ``hidden``; ``unwatch``; ``sync`` for watchers; the ``live`` list a page at a
time; watch items gone with their connection (``$disconnect``, a 410) or their TTL."""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

import pytest
from harness import Conn, World
from numbridge.club.rooms import Rooms
from numbridge.club.rooms_config import load_rooms
from numbridge.service.aws.notifier import CONNECTING_MS
from numbridge.service.usecases import pages
from numbridge.service.usecases.presence import AWAY_AFTER_MS
from numbridge.service.usecases.views import for_viewer
from numbridge.store import keys
from numbridge.store.port import KeyRange
from numbridge.store.sqlite import SqliteStore
from numbridge.store.watches import WATCH_TTL_S
from players import current, start_game


def game_frames(conn: Conn, game: str) -> list[dict[str, Any]]:
    return [f for f in conn.new() if f.get("game") == game]


def watch_items(world: World, game: str, conn: Conn) -> list[tuple[str, str]]:
    """Both halves of every watch item of this game or this connection, as stored."""
    under_game = world.store.query(keys.game(game), KeyRange(prefix=keys.WATCH_PREFIX))
    under_conn = world.store.query(keys.connection(conn.id), KeyRange(prefix=keys.WATCH_PREFIX))
    return [(str(i["pk"]), str(i["sk"])) for i in under_game.items + under_conn.items]


def a_game(world: World, room: str = "blitz") -> tuple[Conn, Conn, str]:
    ana, bob = world.join("ana"), world.join("bob")
    return ana, bob, start_game(world, room, ana, bob, colour="blue")


def test_a_watcher_gets_a_spectator_state_then_the_events_as_the_opponent_does(
        world: World) -> None:
    ana, bob, game = a_game(world)
    cy = world.join("cy")
    answer = cy.ask("watch", game=game)
    assert answer["type"] == "state" and answer["game"] == game and answer["v"] == 0
    view = answer["view"]
    assert "you" not in view and "hand" not in view
    assert {s: (p["name"], p["online"]) for s, p in view["players"].items()} == {
        "blue": ("ana", True), "red": ("bob", True)}
    assert view["offers"]["rematch"] is None
    phone = world.join("cy")  # a watch belongs to the connection that asked
    bob.new()
    assert ana.ask("exchange", game=game)["type"] == "ack"  # blue's new hand is hers alone
    seen, opponent = game_frames(cy, game), game_frames(bob, game)
    assert seen == opponent
    assert "hidden" in [f["type"] for f in seen] and "hand" not in [f["type"] for f in seen]
    assert [f["v"] for f in seen] == list(range(1, current(world, game).v + 1))
    assert phone.new() == []
    # Red's hand is hidden from the watcher too (bob sees his own).
    assert bob.ask("exchange", game=game)["type"] == "ack"
    assert [f for f in game_frames(cy, game) if f["type"] == "hand"] == []


def test_watch_refusals(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bob, game = a_game(world)
    cy = world.join("cy")
    assert cy.ask("watch", game="g-nosuchgame")["code"] == "not_found"
    assert ana.ask("watch", game=game)["code"] == "illegal"  # a player syncs instead
    assert bob.ask("resign", game=game)["type"] == "ack"
    assert cy.ask("watch", game=game)["code"] == "game_over"
    for never in (game, "g-nosuchgame"):
        assert cy.ask("unwatch", game=never)["code"] == "illegal"

    private = Rooms(dataclasses.replace(room, spectators=False) if room.id == "blitz"
                    else room for room in load_rooms())
    monkeypatch.setattr(world.svc, "rooms", private)
    hidden = start_game(world, "blitz", ana, bob, colour="blue")
    refused = cy.ask("watch", game=hidden)
    assert refused["code"] == "unauthorized" and "spectators" in refused["message"]
    assert cy.ask("sync", game=hidden)["code"] == "unauthorized"
    assert cy.ask("live", room="blitz")["games"] == []
    assert cy.ask("live")["games"] == []
    assert world.svc.watches.of_game(hidden, world.clock()) == []


def test_unwatch_stops_the_events_on_that_connection(world: World) -> None:
    ana, _bob, game = a_game(world)
    cy, dan = world.join("cy"), world.join("dan")
    for watcher in (cy, dan):
        assert watcher.ask("watch", game=game)["type"] == "state"
    assert cy.ask("unwatch", game=game)["type"] == "ack"
    assert ana.ask("exchange", game=game)["type"] == "ack"
    assert game_frames(cy, game) == [] and game_frames(dan, game)
    assert cy.ask("unwatch", game=game)["code"] == "illegal"
    assert world.svc.watches.of_game(game, world.clock()) == [dan.id]


def test_watchers_catch_up_with_sync(world: World) -> None:
    ana, bob, game = a_game(world)
    cy = world.join("cy")
    cy.ask("watch", game=game)
    for mover in (ana, bob, ana):
        assert mover.ask("exchange", game=game)["type"] == "ack"
    again = world.join("cy")  # the watcher's connection dropped: a new one catches up
    missed = again.send("sync", game=game, v=0, id="catch-up")
    stored = world.svc.games.events_after(game, 0)
    assert missed == [*(for_viewer(e, None) for e in stored), {"type": "ack", "id": "catch-up"}]
    assert any(f["type"] == "hidden" for f in missed)
    view = again.ask("sync", game=game)["view"]
    assert "you" not in view and "hand" not in view and view["v"] == len(stored)
    assert again.ask("watch", game=game)["view"]["v"] == len(stored)
    # Anyone may sync a watchable game, and a watcher still may once it is over.
    assert world.join("eve").ask("sync", game=game)["type"] == "state"
    assert ana.ask("resign", game=game)["type"] == "ack"
    [finished] = [f for f in game_frames(again, game) if f["type"] == "finished"]
    assert finished["result"]["winner"] == "red"
    assert again.ask("sync", game=game)["view"]["status"] == "finished"


def test_a_bot_seat_s_moves_reach_the_watchers(world: World) -> None:
    ana = world.join("ana")
    frames = ana.send("propose", room="blitz", bot="easy", colour="red")
    game = next(f["game"] for f in frames if f["type"] == "state")
    cy = world.join("cy")
    cy.ask("watch", game=game)
    world.play_bots()  # blue, the bot, moves first
    seen = game_frames(cy, game)
    assert [f["v"] for f in seen] == list(range(1, current(world, game).v + 1))
    assert seen == game_frames(ana, game)  # the bot's tiles hidden from both


def test_watchers_hear_presence(world: World) -> None:
    _ana, bob, game = a_game(world)
    cy = world.join("cy")
    cy.ask("watch", game=game)
    bob.close()
    world.clock.advance(AWAY_AFTER_MS)  # a reconnect within seconds shows nothing
    world.deliver_lobby()
    assert game_frames(cy, game) == [{"type": "presence", "game": game, "seat": "red",
                                      "online": False}]
    world.join("bob")
    assert game_frames(cy, game) == [{"type": "presence", "game": game, "seat": "red",
                                      "online": True}]


def test_live_lists_the_games_being_played_a_page_at_a_time(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    cy, dan = world.join("cy"), world.join("dan")

    def deal(room: str) -> str:
        world.clock.advance(1_000)  # game ids begin with the time: newest first
        return start_game(world, room, ana, bob, colour="blue")

    blitz = [deal("blitz") for _ in range(3)]
    bridge = deal("bridge")
    over, adjourned = deal("blitz"), deal("blitz")
    assert ana.ask("resign", game=over)["type"] == "ack"
    assert ana.ask("offer_adjourn", game=adjourned)["type"] == "ack"
    assert bob.ask("accept_adjourn", game=adjourned)["type"] == "ack"
    for watcher in (cy, dan):
        watcher.ask("watch", game=blitz[0])
    assert ana.ask("exchange", game=blitz[0])["type"] == "ack"

    monkeypatch.setattr(pages, "PAGE_SIZE", 2)
    listed: list[dict[str, Any]] = []
    answer = cy.ask("live")
    while True:
        assert len(answer["games"]) <= 2
        listed += answer["games"]
        if answer["next"] is None:
            break
        answer = cy.ask("live", after=answer["next"])
    # Rooms in the lobby's order, each newest first; finished and adjourned games left out.
    assert [g["game"] for g in listed] == [bridge, *reversed(blitz)]
    first = next(g for g in listed if g["game"] == blitz[0])
    assert first == {"game": blitz[0], "room": "blitz", "variant": "blitz",
                     "players": {"blue": "ana", "red": "bob"},
                     "v": current(world, blitz[0]).v, "watchers": 2,
                     "grade": current(world, blitz[0]).board.grade}
    assert {g["watchers"] for g in listed if g["game"] != blitz[0]} == {0}

    only = cy.ask("live", room="blitz")
    assert [g["game"] for g in only["games"]] == [blitz[2], blitz[1]] and only["next"]
    assert cy.ask("live", room="nowhere")["code"] == "not_found"
    assert cy.ask("live", after="not-a-cursor")["code"] == "malformed"
    # A game that resumes is listed again.
    for player in (ana, bob):
        assert player.ask("resume", game=adjourned)["type"] == "ack"
    monkeypatch.setattr(pages, "PAGE_SIZE", 50)
    [back] = [g for g in cy.ask("live", room="blitz")["games"] if g["game"] == adjourned]
    assert back["grade"] == current(world, adjourned).board.grade  # relisted with it


def test_a_gone_watcher_does_not_fail_the_move_and_is_forgotten(world: World) -> None:
    cy, dan = world.join("cy"), world.join("dan")
    world.clock.advance(CONNECTING_MS)  # long open: not one still connecting
    ana, bob, game = a_game(world)
    for watcher in (cy, dan):
        watcher.ask("watch", game=game)
    world.api.open.discard(cy.id)  # gone without a $disconnect: posts to it get 410
    bob.new()
    assert ana.ask("exchange", game=game)["type"] == "ack"
    assert game_frames(dan, game) == game_frames(bob, game) != []
    assert current(world, game).v == 3
    assert world.store.get(keys.connection(cy.id), keys.CONN) is None
    assert [item for item in watch_items(world, game, cy) if cy.id in item[0] + item[1]] == []
    assert world.svc.watches.of_game(game, world.clock()) == [dan.id]


def test_watch_items_go_with_the_connection_and_their_ttl(world: World) -> None:
    _ana, _bob, game = a_game(world)
    cy, dan = world.join("cy"), world.join("dan")
    cy.ask("watch", game=game)
    assert len(watch_items(world, game, cy)) == 2
    cy.close()
    assert watch_items(world, game, cy) == []

    dan.ask("watch", game=game)
    world.clock.advance(WATCH_TTL_S * 1000 + 1_000)  # dan's connection vanished unseen
    assert world.svc.watches.of_game(game, world.clock()) == []
    audience = world.svc.watches.audience(game, world.clock())
    assert audience is not None and audience.watchers == 0
    if isinstance(world.store, SqliteStore):  # the TTL itself (DynamoDB's is not emulated)
        world.store.purge_expired(world.clock() // 1000)
        assert watch_items(world, game, dan) == []


def test_many_watchers_are_posted_to_at_once(world: World) -> None:
    ana, bob, game = a_game(world)
    watchers = [world.join(f"w{n}") for n in range(4)]
    for watcher in watchers:
        watcher.ask("watch", game=game)
    audience = {bob.id, *(w.id for w in watchers)}
    # Each connection's first post waits for all of them: only concurrent posts pass.
    gate = threading.Barrier(len(audience), timeout=10)
    first = set(audience)
    lock = threading.Lock()
    real = world.api.post_to_connection

    def post(ConnectionId: str, Data: bytes) -> dict[str, Any]:
        with lock:
            waits = ConnectionId in first
            first.discard(ConnectionId)
        if waits:
            gate.wait()
        return real(ConnectionId=ConnectionId, Data=Data)

    world.api.post_to_connection = post  # type: ignore[method-assign]
    assert ana.ask("exchange", game=game)["type"] == "ack"
    assert not gate.broken
    for conn in (bob, *watchers):
        assert [f["v"] for f in game_frames(conn, game)] == [1, 2, 3]
