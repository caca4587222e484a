"""An ack is a promise: what was acknowledged survives SIGKILL, and deadlines survive restarts."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from client import deal, play_turn
from e2e_server import LocalServer
from test_e2e_runtime import FAST_ROOMS, deal_fast_game, fast_room_server


def test_every_acknowledged_action_survives_sigkill(local_server: LocalServer) -> None:
    with local_server.player("ana") as ana, local_server.player("bob") as bob:
        proposed = []
        for _ in range(4):
            answer = ana.request("propose", room="bridge", colour="blue", rated=False)
            assert answer["type"] == "proposal"
            proposed.append(answer["proposal"]["id"])
        assert ana.request("withdraw", proposal=proposed[0])["type"] == "ack"
        seats = deal(ana, bob, "domains")
        for _ in range(6):
            play_turn(seats)
        mover = next(s for s in seats.values() if s.turn == s.you)
        action, fields = mover.choose()
        frame = {"game": mover.game, **fields}
        last = mover.player.request(action, id="the-last-move", **frame)
        assert last["type"] == "ack"
        mover.catch_up()
        acked_v, digits = mover.v, list(mover.digits)

        local_server.kill()  # SIGKILL right after the acks: no chance to save anything

    local_server.start()
    with local_server.player("ana") as ana, local_server.player("bob") as bob:
        listed = {p["id"] for p in bob.request("proposals", room="bridge")["proposals"]}
        assert listed == set(proposed[1:])
        for player in (ana, bob):
            state = player.request("sync", game=mover.game)
            assert state["type"] == "state" and state["v"] == acked_v
            assert list(state["view"]["digits"]) == digits
        # The receipt survived too: the same request again is answered, not applied again.
        again = (ana if mover.player.name == "ana" else bob).request(
            action, id="the-last-move", **frame)
        assert again == last
        after = ana.request("sync", game=mover.game)
        assert after["v"] == state["v"]


def test_a_pending_deadline_survives_a_restart_and_falls_on_time(tmp_path: Path) -> None:
    server = fast_room_server(tmp_path, FAST_ROOMS.replace("move_ms: 2000", "move_ms: 8000"))
    try:
        with server.player("ana") as ana, server.player("bob") as bob:
            game, deadline_ms = deal_fast_game(ana, bob)
            server.kill()
        server.start()
        with server.player("ana") as ana, server.player("bob") as bob:
            # Looked at once both are connected: a timeout that fell while they were
            # connecting would be pushed to nobody (a slow machine's restart can end just
            # before the deadline), and the wait below would run out.
            if time.time() * 1000 >= deadline_ms:  # a busy machine: nothing left to test
                pytest.skip("the restart took longer than the move: no deadline was pending")
            for player in (ana, bob):
                frame = player.expect(lambda f: f["type"] == "timeout", timeout=20)
                late_ms = time.time() * 1000 - deadline_ms
                assert frame["game"] == game
                # Not before the deadline; how late is bench/timers_bench.py's.
                assert late_ms >= 0, f"{player.name} told {-late_ms:.0f} ms before"
    finally:
        server.kill()
