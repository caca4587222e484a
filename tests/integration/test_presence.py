"""Presence: the view says whether each player is online; the opponent is told when a
player's first connection opens or last one closes, for games in progress only."""

from __future__ import annotations

from typing import Any

from harness import Conn, World
from numbridge.service.usecases.presence import AWAY_AFTER_MS
from players import start_game


def presence(conn: Conn) -> list[dict[str, Any]]:
    return [f for f in conn.new() if f["type"] == "presence"]


def grace_passes(world: World) -> None:
    """The seconds a closed last connection is given to come back, then the lobby queue's
    delayed check handed to the fan-out."""
    world.clock.advance(AWAY_AFTER_MS)
    world.deliver_lobby()


def test_the_opponent_is_told_of_the_first_and_last_connection(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob, colour="blue")
    [state] = [f for f in bob.frames if f["type"] == "state"]
    assert {s: p["online"] for s, p in state["view"]["players"].items()} == {
        "blue": True, "red": True}
    presence(ana)
    phone = world.join("bob")  # a second device: bob was online already
    assert presence(ana) == []
    bob.close()
    assert presence(ana) == []  # one device is still open
    phone.close()
    assert presence(ana) == []  # not yet: bob may be back in a moment
    grace_passes(world)
    assert presence(ana) == [{"type": "presence", "game": game, "seat": "red",
                              "online": False}]
    view = ana.ask("sync", game=game)["view"]
    assert view["players"]["red"]["online"] is False
    assert view["players"]["blue"]["online"] is True
    bob = world.join("bob")
    assert presence(ana) == [{"type": "presence", "game": game, "seat": "red",
                              "online": True}]
    assert presence(bob) == []  # nobody tells you about yourself
    assert bob.ask("sync", game=game)["view"]["players"]["red"]["online"] is True


def test_a_reconnect_within_seconds_never_shows_the_player_gone(world: World) -> None:
    """Catches: an absence told at the $disconnect, or without checking again once the
    wait is over (its opponent shown the player gone, then back). A dropped socket, API
    Gateway's two-hour cut, a phone between networks: the page is back within a second
    or two, and its opponent sees no flicker of presence."""
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob, colour="blue")
    presence(ana)
    bob.close()
    world.clock.advance(AWAY_AFTER_MS // 2)
    bob = world.join("bob")
    grace_passes(world)  # the check after bob's close finds him connected again
    assert [f["online"] for f in presence(ana)] in ([], [True])  # never False
    assert ana.ask("sync", game=game)["view"]["players"]["red"]["online"] is True
    # Gone for good this time: told once the seconds have passed, not before.
    bob.close()
    world.clock.advance(AWAY_AFTER_MS - 1)
    world.deliver_lobby()
    assert presence(ana) == []
    grace_passes(world)
    assert presence(ana) == [{"type": "presence", "game": game, "seat": "red",
                              "online": False}]


def test_only_games_in_progress_and_only_their_players_hear(world: World) -> None:
    ana, bob, carl = world.join("ana"), world.join("bob"), world.join("carl")
    first = start_game(world, "bridge", ana, bob, colour="blue")
    second = start_game(world, "blitz", carl, ana, colour="blue")
    assert bob.ask("resign", game=first)["type"] == "ack"
    presence(bob)
    presence(carl)
    ana.close()
    grace_passes(world)
    assert presence(bob) == []  # the game is over
    assert presence(carl) == [{"type": "presence", "game": second, "seat": "red",
                               "online": False}]
    eve = world.join("eve")
    world.join("ana")
    assert presence(eve) == [] and len(presence(carl)) == 1


def test_a_game_dealt_to_an_offline_proposer_says_so(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    proposal = ana.ask("propose", room="bridge", colour="blue")["proposal"]
    ana.close()
    assert bob.ask("accept", proposal=proposal["id"])["type"] == "ack"
    [state] = [f for f in bob.frames if f["type"] == "state"]
    assert state["view"]["players"]["blue"]["online"] is False
    assert state["view"]["players"]["red"]["online"] is True
