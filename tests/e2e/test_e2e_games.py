"""Whole games over real WebSockets against `numbridge serve`: every variant,
a client that drops and catches up by ``v``, and a server restart mid-game."""

from __future__ import annotations

import pytest
from client import Seat, deal, play_to_the_end, play_turn
from e2e_server import LocalServer


@pytest.mark.parametrize(("room", "blocks"), [("bridge", "regular"), ("blitz", "irregular"),
                                              ("domains", "irregular")])
def test_a_whole_game_of_each_variant(local_server: LocalServer, room: str, blocks: str) -> None:
    with local_server.player("ana") as ana, local_server.player("bob") as bob:
        seats = deal(ana, bob, room, blocks=blocks)
        final = play_to_the_end(seats)
        assert final.result["winner"] in {"blue", "red"} and final.result["by"] == "goal"
        record = bob.request("record", game=final.game)["record"]
        assert record["solution"] == final.solution  # what the client solved was the answer
        [line] = [g for g in ana.request("games")["games"] if g["game"] == final.game]
        assert line["status"] == "finished" and "rating" in line


def test_a_client_that_drops_mid_game_catches_up_by_v(local_server: LocalServer) -> None:
    with local_server.player("ana") as ana:
        bob = local_server.player("bob")
        seats = deal(ana, bob, "domains")
        for _ in range(5):
            play_turn(seats)
        while seats["ana"].turn != seats["ana"].you:
            play_turn(seats)
        bob_seat = seats["bob"]
        last_v = bob_seat.v
        bob.ws.close()  # Bob's phone loses its connection

        ana_seat = seats["ana"]
        while ana_seat.turn == ana_seat.you:  # Ana plays on while Bob is away
            action, fields = ana_seat.choose()
            assert ana.request(action, game=ana_seat.game, **fields)["type"] == "ack"
            ana_seat.catch_up()
        assert ana_seat.v > last_v

        with local_server.player("bob") as bob_again:
            bob_seat.player = bob_again
            request_id = bob_again.send("sync", game=bob_seat.game, v=last_v)
            answer = bob_again.answer(request_id)
            assert answer == {"type": "ack", "id": request_id}
            # The missed events came before the ack, in order, with no gap.
            bob_seat.catch_up(until_v=ana_seat.v, timeout=5)
            assert bob_seat.digits == ana_seat.digits and bob_seat.turn == ana_seat.turn
            final = play_to_the_end({"ana": ana_seat, "bob": bob_seat})
            assert final.status == "finished"


def test_the_game_goes_on_after_a_server_restart(local_server: LocalServer) -> None:
    with local_server.player("ana") as ana, local_server.player("bob") as bob:
        seats = deal(ana, bob, "bridge")
        for _ in range(6):
            play_turn(seats)
        before = {name: seat.v for name, seat in seats.items()}

    local_server.restart()  # Ctrl-C and start again on the same data directory

    with local_server.player("ana") as ana, local_server.player("bob") as bob:
        for player in (ana, bob):
            seat: Seat = seats[player.name]
            seat.player = player
            state = player.request("sync", game=seat.game)
            assert state["type"] == "state" and state["v"] == before[player.name]
            assert list(state["view"]["digits"]) == seat.digits
            seat.load(state)
        final = play_to_the_end(seats)
        assert final.status == "finished"
        [line] = ana.request("games")["games"]
        assert line["status"] == "finished"
