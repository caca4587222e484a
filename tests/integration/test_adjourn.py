"""Adjourned games are listed and resumed later (RULES.md §7) — as the players'
clients see it, from the frames they receive."""

from __future__ import annotations

from typing import Any

from harness import Conn, World
from players import play_out, start_game


def of_type(frames: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [f for f in frames if f["type"] == kind]


def test_an_adjourned_game_resumes_after_both_players_reconnect(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob, colour="blue")
    bob.new()
    assert ana.ask("offer_adjourn", game=game)["type"] == "ack"
    assert of_type(bob.new(), "adjourn_offered") == [
        {"type": "adjourn_offered", "game": game, "v": 1, "seat": "blue"}]
    assert bob.ask("accept_adjourn", game=game)["type"] == "ack"
    [told] = of_type(ana.new(), "adjourned")
    assert told["seat"] == "red" and "auto" not in told
    clocks = told["clock_ms"]
    view = ana.ask("sync", game=game)["view"]
    assert (view["status"], view["deadline_ms"], view["turn"]) == ("adjourned", None, None)
    assert {seat: view["players"][seat]["clock_ms"] for seat in clocks} == clocks

    # Both leave; a day later nothing has timed out and the sweep finds nothing.
    ana.close()
    bob.close()
    world.clock.advance(24 * 3600 * 1000)
    assert world.sweep() == {"advanced": 0}

    ana, bob = world.join("ana"), world.join("bob")
    [line] = ana.ask("games")["games"]
    assert (line["game"], line["status"]) == (game, "adjourned")
    # A move in an adjourned game is against the rules, and says why.
    refused = ana.ask("place", game=game, cell=[0, 0], digit=1)
    assert (refused["type"], refused["code"]) == ("error", "illegal")
    assert "adjourned" in refused["message"]
    assert ana.ask("resume", game=game)["type"] == "ack"
    # One request is not enough: Bob is told Ana asked, and the game stays adjourned.
    assert [f["type"] for f in bob.new()] == ["resume_requested"]
    assert bob.ask("sync", game=game)["view"]["resume_requested"] == ["blue"]
    assert bob.ask("sync", game=game)["view"]["status"] == "adjourned"
    to_bob = bob.send("resume", game=game, id="again")
    assert to_bob[0] == {"type": "ack", "id": "again"}
    for frames in (ana.new(), to_bob[1:]):
        assert [f["type"] for f in frames] == ["resumed", "turn"], frames
        turn = frames[-1]
        # A fresh move limit for the player to move; game clocks as they were.
        assert turn["turn"] == "blue" and turn["deadline_ms"] == world.clock.now + 45_000
        assert turn["clock_ms"] == clocks
    view = ana.ask("sync", game=game)["view"]
    assert view["status"] == "playing" and view["deadline_ms"] == world.clock.now + 45_000
    [line] = bob.ask("games")["games"]
    assert line["status"] == "playing"

    final = play_out(world, game, {"ana": ana, "bob": bob})
    assert final.status == "finished"
    assert of_type(bob.frames, "finished")


def test_a_move_in_an_adjourned_game_changes_nothing_for_anyone(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "domains", ana, bob, colour="blue")
    assert ana.ask("offer_adjourn", game=game)["type"] == "ack"
    assert bob.ask("accept_adjourn", game=game)["type"] == "ack"
    before = ana.ask("sync", game=game)
    for conn in (ana, bob):
        conn.new()
    answers: list[Any] = [ana.ask("exchange", game=game), bob.ask("exchange", game=game)]
    assert [(a["type"], a["code"]) for a in answers] == [("error", "illegal")] * 2
    listeners: list[Conn] = [ana, bob]
    assert all(c.new() == [] for c in listeners)
    after = ana.ask("sync", game=game)
    assert after["v"] == before["v"] and after["view"]["digits"] == before["view"]["digits"]
