"""Whole games through the handlers: proposal → accept → play → finish → archive
→ ratings, for every variant; what each client receives along the way."""

from __future__ import annotations

from typing import Any

import pytest
from harness import Conn, World
from players import play_out, start_game


def game_frames(conn: Conn, game: str) -> list[dict[str, Any]]:
    return [f for f in conn.frames if f.get("game") == game and f["type"] not in
            {"state", "candidates", "record"}]


def assert_each_seat_got_its_own(world: World, conn: Conn, seat: str, game: str) -> None:
    """Each event as stored to its audience, a bare placeholder to anyone else: Bob
    never receives Ana's ``hand`` frame (nor she his)."""
    stored = world.svc.games.events_after(game, 0)
    received = game_frames(conn, game)
    assert [f["v"] for f in received] == [e.v for e in stored]
    for frame, event in zip(received, stored, strict=True):
        if event.to is None or event.to == seat:
            assert frame == event.frame
        else:
            assert frame == {"type": "hidden", "game": game, "v": event.v}
    assert all(stored[f["v"] - 1].to == seat for f in received if f["type"] == "hand")


@pytest.mark.parametrize("room", ["bridge", "blitz", "domains"])
def test_a_whole_game_of_each_variant(world: World, room: str) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, room, ana, bob, colour="blue")
    final = play_out(world, game, {"ana": ana, "bob": bob}, seed=len(room))

    assert final.status == "finished"
    assert final.result is not None and final.result.winner in {"blue", "red"}
    assert final.result.by == "goal"
    for conn, seat in ((ana, "blue"), (bob, "red")):
        events = game_frames(conn, game)
        # Every event reached both players, in order, with no gap in v; the last is
        # the only `finished`.
        assert [f["v"] for f in events] == list(range(1, final.v + 1))
        assert [f["type"] for f in events].count("finished") == 1
        assert events[-1]["type"] == "finished"
        assert_each_seat_got_its_own(world, conn, seat, game)
        # The bag is a count, never its tiles; a view is the viewer's own.
        for frame in conn.frames:
            if frame["type"] == "state":
                view = frame["view"]
                assert view["you"] == seat and type(view["bag"]) is int
            if frame["type"] == "turn":
                assert type(frame["bag"]) is int
    hidden_for_bob = [f for f in game_frames(bob, game) if f["type"] == "hidden"]
    hands_for_ana = [f for f in game_frames(ana, game) if f["type"] == "hand"]
    assert hidden_for_bob and hands_for_ana
    checked = world.check_secrets()  # no frame to anyone held a hidden digit or tile
    assert checked["hand"] and checked["hidden"] and checked["turn"]

    # The archive holds the whole record, the solution and how it ended.
    record = bob.ask("record", game=game)["record"]
    assert record["solution"] == final.board.solution
    assert record["result"]["winner"] == final.result.winner
    turns = record["moves"]
    assert len(turns) >= 10 and {"seat", "action"} <= set(turns[0])

    # Ratings moved in the winner's favour; the games list says so.
    winner = "ana" if final.result.winner == "blue" else "bob"
    listed = {c.player: c.ask("games")["games"] for c in (ana, bob)}
    for player, games in listed.items():
        [line] = [g for g in games if g["game"] == game]
        assert line["status"] == "finished"
        change = line["rating"]["after"] - line["rating"]["before"]
        assert (change > 0) == (player == winner)
        assert line["rating"]["provisional"] is True
    board = ana.ask("leaderboard", variant=final.options.variant)["players"]
    assert board[0]["name"] == winner
    assert {p["name"] for p in board} == {"ana", "bob"}


def test_a_game_in_progress_is_not_in_the_archive(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "blitz", ana, bob)
    assert ana.ask("record", game=game)["code"] == "not_found"
    [line] = ana.ask("games")["games"]
    assert (line["game"], line["status"]) == (game, "playing")


def test_unrated_games_leave_ratings_alone(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "blitz", ana, bob, rated=False)
    play_out(world, game, {"ana": ana, "bob": bob})
    assert ana.ask("leaderboard", variant="blitz")["players"] == []


def test_draw_by_agreement_is_archived_and_rated(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "domains", ana, bob, colour="blue")
    assert ana.ask("offer_draw", game=game)["type"] == "ack"
    assert bob.ask("accept_draw", game=game)["type"] == "ack"
    record = ana.ask("record", game=game)["record"]
    assert record["result"] == {**record["result"], "winner": None, "by": "agreement"}
    board = ana.ask("leaderboard", variant="domains")["players"]
    assert len(board) == 2 and abs(board[0]["rating"] - board[1]["rating"]) < 1e-6


def test_resignation_ends_the_game_for_the_other_player(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "bridge", ana, bob, colour="red")
    assert ana.ask("resign", game=game)["type"] == "ack"
    record = bob.ask("record", game=game)["record"]
    assert (record["result"]["winner"], record["result"]["by"]) == ("blue", "resign")
    assert ana.ask("resign", game=game)["code"] == "game_over"
