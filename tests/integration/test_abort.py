"""Abort (RULES.md §7 [decided]): until each player has made a first move either may
abort; a first move lost to the clock aborts the game. Unrated, shown as aborted."""

from __future__ import annotations

from harness import World
from numbridge.rules import Result
from players import current, first_moves, start_game

ABORTED = {"winner": None, "by": "aborted"}  # as frames carry it
ABORTED_RESULT = Result(winner=None, by="aborted")


def test_a_player_aborts_a_fresh_game(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob, colour="blue", rated=True)
    bob.new()
    assert bob.ask("abort", game=game)["type"] == "ack"
    final = current(world, game)
    assert final.status == "finished" and final.result == ABORTED_RESULT
    for conn in (ana, bob):
        [finished] = [f for f in conn.frames if f["type"] == "finished"]
        assert finished["result"] == ABORTED and finished["game"] == game
        [line] = conn.ask("games")["games"]
        assert (line["status"], line["result"], line["rated"]) == ("finished", ABORTED, False)
        assert "rating" not in line
        board = conn.ask("leaderboard", variant="bridge")
        assert board["players"] == []  # no rating was written for either player
    assert ana.ask("record", game=game)["record"]["result"] == ABORTED
    assert ana.ask("abort", game=game)["code"] == "game_over"
    assert world.sqs.sent[-1]["body"]["game"] == game  # the deal's timer, nothing after


def test_abort_refusals(world: World) -> None:
    ana, bob, eve = world.join("ana"), world.join("bob"), world.join("eve")
    game = start_game(world, "bridge", ana, bob, colour="blue")
    assert eve.ask("abort", game=game)["code"] == "unauthorized"
    assert eve.ask("abort", game="g-nosuchgame")["code"] == "not_found"
    first_moves(world, game, {"ana": ana, "bob": bob})
    refused = ana.ask("abort", game=game)
    assert refused["code"] == "illegal" and "resign" in refused["message"]
    assert current(world, game).status == "playing"
    view = ana.ask("sync", game=game)["view"]
    assert view["abortable"] is False


def test_a_first_move_lost_to_the_clock_aborts_the_game(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "blitz", ana, bob, colour="blue", rated=True)
    assert ana.ask("sync", game=game)["view"]["abortable"] is True
    world.clock.advance(31_000)
    assert world.deliver_timers() == {"batchItemFailures": []}
    final = current(world, game)
    assert final.result == ABORTED_RESULT
    kinds = [f["type"] for f in bob.new() if f.get("game") == game]
    assert kinds[-2:] == ["timeout", "finished"]
    [line] = bob.ask("games")["games"]
    assert line["result"] == ABORTED and line["rated"] is False
    assert world.sqs.sent == []  # a finished game arms no timer
    assert ana.ask("leaderboard", variant="blitz")["players"] == []
