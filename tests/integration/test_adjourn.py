"""Adjourned games are listed and resumed later (RULES.md §7)."""

from __future__ import annotations

from harness import World
from players import current, play_out, start_game


def test_an_adjourned_game_resumes_after_both_players_reconnect(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob, colour="blue")
    assert ana.ask("offer_adjourn", game=game)["type"] == "ack"
    assert bob.ask("accept_adjourn", game=game)["type"] == "ack"
    paused = current(world, game)
    assert paused.status == "adjourned"
    clocks = {seat: paused.blue.clock_ms if seat == "blue" else paused.red.clock_ms
              for seat in ("blue", "red")}

    # Both leave; a day later nothing has timed out and the sweep finds nothing.
    ana.close()
    bob.close()
    world.clock.advance(24 * 3600 * 1000)
    assert world.sweep() == {"advanced": 0}

    ana, bob = world.join("ana"), world.join("bob")
    [line] = ana.ask("games")["games"]
    assert (line["game"], line["status"]) == (game, "adjourned")
    assert ana.ask("place", game=game, cell=[0, 0], digit=1)["code"] in {"illegal", "game_over"}
    assert ana.ask("resume", game=game)["type"] == "ack"
    assert current(world, game).status == "adjourned"  # one request is not enough
    assert bob.ask("resume", game=game)["type"] == "ack"
    resumed = current(world, game)
    assert resumed.status == "playing"
    assert {"blue": resumed.blue.clock_ms, "red": resumed.red.clock_ms} == clocks
    view = ana.ask("sync", game=game)["view"]
    assert view["deadline_ms"] == world.clock.now + 45_000
    assert any(f["type"] == "resumed" for f in bob.frames)
    [line] = bob.ask("games")["games"]
    assert line["status"] == "playing"

    final = play_out(world, game, {"ana": ana, "bob": bob})
    assert final.status == "finished"
