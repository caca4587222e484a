"""Games nobody is playing: missed deadlines in any number commit, and a game
without a game clock stops by itself (RULES.md §7) — through the handlers."""

from __future__ import annotations

import random
from typing import Any

from harness import Conn, World
from players import choose, current, start_game

MINUTE = 60_000


def first_moves(world: World, game: str, conns: dict[str, Conn]) -> None:
    """Each player makes a first move, so nothing but the clock is at stake."""
    for seed in (1, 2):
        state = current(world, game)
        assert state.turn is not None
        fields = choose(state, random.Random(seed))
        answer = conns[state.players[state.turn]].ask(fields.pop("action"), game=game, **fields)
        assert answer["type"] == "ack", answer


def game_frames(conn: Conn, game: str) -> list[dict[str, Any]]:
    return [f for f in conn.frames if f.get("game") == game and "v" in f]


def check_gapless(conn: Conn, game: str) -> None:
    """Every version from 1 reached this player, once each, in order."""
    versions = [f["v"] for f in game_frames(conn, game) if f["type"] != "state"]
    assert versions == list(range(1, len(versions) + 1)), versions


def test_a_study_game_left_for_200_minutes_moves_again(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "study", ana, bob, colour="blue", variant="bridge")
    first_moves(world, game, {"ana": ana, "bob": bob})
    world.sqs.sent.clear()  # the local server was stopped: no timer is delivered
    world.clock.advance(200 * MINUTE)

    answer = bob.ask("sync", game=game)
    assert answer["type"] == "state", answer
    assert answer["view"]["status"] == "adjourned" and answer["view"]["deadline_ms"] is None
    pushed = [f for f in ana.new() if f.get("game") == game]
    assert [f["type"] for f in pushed].count("timeout") == 4
    assert pushed[-1]["type"] == "adjourned" and pushed[-1]["auto"] is True
    for conn in (ana, bob):
        check_gapless(conn, game)
    assert world.sqs.sent == []  # adjourned: no timer

    # It resumes like any adjourned game, and play goes on.
    assert ana.ask("resume", game=game)["type"] == "ack"
    assert bob.ask("resume", game=game)["type"] == "ack"
    state = current(world, game)
    assert state.status == "playing"
    fields = choose(state, random.Random(3))
    mover = {"ana": ana, "bob": bob}[state.players[state.turn or "blue"]]
    assert mover.ask(fields.pop("action"), game=game, **fields)["type"] == "ack"


def test_a_game_without_a_game_clock_stops_when_both_players_leave(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "study", ana, bob, colour="blue", variant="domains")
    first_moves(world, game, {"ana": ana, "bob": bob})
    ana.close()
    bob.close()
    delivered = 0
    while world.sqs.sent and delivered < 20:
        world.clock.advance(2 * MINUTE)
        assert world.deliver_timers() == {"batchItemFailures": []}
        delivered += 1
    assert delivered == 4  # four timeouts, then no timer any more
    state = current(world, game)
    assert state.status == "adjourned"
    assert state.record[-1].action == "auto_adjourn"
    world.clock.advance(24 * 60 * MINUTE)
    assert world.sweep() == {"advanced": 0}
    ana = world.join("ana")
    [line] = ana.ask("games")["games"]
    assert (line["game"], line["status"]) == (game, "adjourned")


def test_a_long_absence_in_a_clocked_room_ends_on_time_in_one_commit(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "domains", ana, bob, colour="blue")
    first_moves(world, game, {"ana": ana, "bob": bob})
    world.sqs.sent.clear()
    world.clock.advance(200 * MINUTE)
    assert world.sweep() == {"advanced": 1}
    state = current(world, game)
    assert state.status == "finished" and state.result is not None
    assert state.result.by == "time"
    assert sum(1 for e in state.record if e.action == "timeout") > 40
    for conn in (ana, bob):
        check_gapless(conn, game)
        kinds = [f["type"] for f in conn.new()]
        assert "timeouts" in kinds and kinds[-1] == "finished"
    # Both players hear of the end; the game is in the archive.
    assert ana.ask("record", game=game)["type"] == "record"
