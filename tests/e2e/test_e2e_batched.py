"""Batched events over real WebSockets against `numbridge serve`: a connection opened
with ``batch=1`` gets a move's events as one ``events`` frame, the very frames a
connection that did not ask gets one by one; a sync with ``v`` answers in such frames."""

from __future__ import annotations

from typing import Any

from client import deal
from e2e_server import LocalServer, Player


def events_until(player: Player, v: int) -> list[dict[str, Any]]:
    """The game events pushed one by one to ``player``, up to version ``v``."""
    got: list[dict[str, Any]] = []
    while not got or got[-1]["v"] < v:
        got.append(player.expect(lambda f: isinstance(f.get("v"), int)
                                 and f["type"] != "state", timeout=10))
    return got


def test_a_move_and_a_sync_in_events_frames(local_server: LocalServer) -> None:
    with local_server.player("ana") as ana, local_server.player("bob") as bob:
        seats = deal(ana, bob, "blitz")
        game = seats["ana"].game
        with local_server.player("ana", batch=True) as ana_b, \
                local_server.player("bob", batch=True) as bob_b:
            mover = "ana" if seats["ana"].turn == seats["ana"].you else "bob"
            plain = {"ana": ana, "bob": bob}
            batched = {"ana": ana_b, "bob": bob_b}
            assert plain[mover].request("exchange", game=game)["type"] == "ack"
            kinds: dict[str, list[str]] = {}
            for name in ("ana", "bob"):
                frame = batched[name].expect(lambda f: f.get("type") == "events", timeout=10)
                assert frame["game"] == game
                events = frame["events"]
                assert [e["v"] for e in events] == list(range(1, len(events) + 1))
                assert events == events_until(plain[name], events[-1]["v"])
                kinds[name] = [e["type"] for e in events]
            head = events[-1]["v"]
            # The mover's new hand is hidden from the opponent, in a batch too. (An
            # exchange may draw back the very hand it returned: then there is no hand.)
            other = "bob" if mover == "ana" else "ana"
            assert "hidden" not in kinds[mover] and "hand" not in kinds[other]
            assert kinds[other] == ["hidden" if k == "hand" else k for k in kinds[mover]]

            request_id = ana_b.send("sync", game=game, v=0)
            assert ana_b.answer(request_id, timeout=10) == {"type": "ack", "id": request_id}
            [replay] = [f for f in ana_b.pushed if f.get("type") == "events"]
            assert [e["v"] for e in replay["events"]] == list(range(1, head + 1))
