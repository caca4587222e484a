"""Rematch (RULES.md §7 [decided]): offered after a finished game; accepted, a new game
in the same room with the same options and the colours swapped; dealt exactly once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from harness import Conn, World
from numbridge.store.rematches import Rematches
from players import current, start_game


def finished_game(world: World, ana: Conn, bob: Conn, room: str = "blitz") -> str:
    game = start_game(world, room, ana, bob, colour="blue", clues=14, rated=False)
    assert bob.ask("resign", game=game)["type"] == "ack"
    ana.new()
    bob.new()
    return game


def test_offer_and_accept_deal_a_new_game_with_the_colours_swapped(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    old = finished_game(world, ana, bob)
    assert ana.ask("offer_rematch", game=old)["type"] == "ack"
    [offered] = [f for f in bob.new() if f["type"] == "rematch_offered"]
    assert offered == {"type": "rematch_offered", "game": old, "seat": "blue"}
    assert ana.ask("offer_rematch", game=old)["code"] == "illegal"  # already offered
    assert ana.ask("accept_rematch", game=old)["code"] == "illegal"  # your own offer

    assert bob.ask("accept_rematch", game=old)["type"] == "ack"
    for conn, seat in ((ana, "red"), (bob, "blue")):
        frames = [f for f in conn.frames if f["type"] in {"rematch_accepted", "state"}]
        accepted, state = frames[-2:]
        assert accepted["type"] == "rematch_accepted" and accepted["game"] == old
        assert state["type"] == "state" and state["game"] == accepted["rematch"]
        assert "id" not in state and state["view"]["you"] == seat
    new = accepted["rematch"]
    before, after = current(world, old), current(world, new)
    assert after.players == {"blue": "bob", "red": "ana"}
    assert after.options == before.options and after.board != before.board
    assert after.status == "playing" and world.sqs.sent[-1]["body"]["game"] == new
    assert {line["game"] for line in ana.ask("games")["games"]} == {old, new}
    # Only once: the offer is spent.
    again = bob.ask("accept_rematch", game=old)
    assert again["code"] == "illegal" and new in again["message"]
    assert ana.ask("offer_rematch", game=old)["code"] == "illegal"


def test_decline_tells_the_offerer_and_a_new_offer_may_follow(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    old = finished_game(world, ana, bob)
    assert bob.ask("decline_rematch", game=old)["code"] == "illegal"  # nothing offered
    assert bob.ask("offer_rematch", game=old)["type"] == "ack"
    assert ana.ask("decline_rematch", game=old)["type"] == "ack"
    [declined] = [f for f in bob.new() if f["type"] == "rematch_declined"]
    assert declined == {"type": "rematch_declined", "game": old, "seat": "blue"}
    assert bob.ask("accept_rematch", game=old)["code"] == "illegal"
    assert bob.ask("offer_rematch", game=old)["type"] == "ack"


def test_a_reconnecting_player_finds_the_rematch_offer_in_the_state(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    old = finished_game(world, ana, bob)
    view = ana.ask("sync", game=old)["view"]
    assert view["offers"]["rematch"] is None and "rematch" not in view
    assert ana.ask("offer_rematch", game=old)["type"] == "ack"
    phone = world.join("bob")  # bob missed the push: his sync says who offered
    assert phone.ask("sync", game=old)["view"]["offers"]["rematch"] == "blue"
    assert phone.ask("decline_rematch", game=old)["type"] == "ack"
    assert phone.ask("sync", game=old)["view"]["offers"]["rematch"] is None
    assert phone.ask("offer_rematch", game=old)["type"] == "ack"
    assert ana.ask("sync", game=old)["view"]["offers"]["rematch"] == "red"
    assert ana.ask("accept_rematch", game=old)["type"] == "ack"
    view = phone.ask("sync", game=old)["view"]
    [accepted] = [f for f in phone.frames if f["type"] == "rematch_accepted"]
    assert view["offers"]["rematch"] is None and view["rematch"] == accepted["rematch"]
    # A game in progress says there is none (so a client knows the server has rematches).
    assert phone.ask("sync", game=accepted["rematch"])["view"]["offers"]["rematch"] is None


def test_refusals(world: World) -> None:
    ana, bob, eve = world.join("ana"), world.join("bob"), world.join("eve")
    live = start_game(world, "blitz", ana, bob, colour="blue", clues=14)
    for action in ("offer_rematch", "accept_rematch", "decline_rematch"):
        assert ana.ask(action, game=live)["code"] == "illegal"  # a game in progress
        assert eve.ask(action, game=live)["code"] == "unauthorized"
        assert eve.ask(action, game="g-nosuchgame")["code"] == "not_found"
    old = finished_game(world, ana, bob)
    assert eve.ask("offer_rematch", game=old)["code"] == "unauthorized"
    assert ana.ask("offer_rematch", game=old)["type"] == "ack"
    assert eve.ask("accept_rematch", game=old)["code"] == "unauthorized"


def at_once(monkeypatch: pytest.MonkeyPatch, *calls: Callable[[], None]) -> None:
    """Run the calls in threads that all read the offer before any of them writes."""
    gate = threading.Barrier(len(calls), timeout=10)
    reads: dict[int, int] = {}
    real_get = Rematches.get

    def racing_get(self: Rematches, game_id: str) -> Any:
        found = real_get(self, game_id)
        me = threading.get_ident()
        reads[me] = reads.get(me, 0) + 1
        if reads[me] == 1:
            gate.wait()
        return found

    monkeypatch.setattr(Rematches, "get", racing_get)
    threads = [threading.Thread(target=call) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    monkeypatch.setattr(Rematches, "get", real_get)


def test_crossing_offers_deal_one_game(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    old = finished_game(world, ana, bob)
    answers: list[dict[str, object]] = []
    at_once(monkeypatch, *(lambda c=c: answers.append(c.ask("offer_rematch", game=old))
                           for c in (ana, bob)))
    assert [a["type"] for a in answers] == ["ack", "ack"]  # one offered, one accepted
    dealt = {f["rematch"] for c in (ana, bob) for f in c.frames
             if f["type"] == "rematch_accepted"}
    assert len(dealt) == 1
    games = {line["game"] for line in ana.ask("games")["games"]}
    assert games == {old, *dealt}


def test_two_accepts_at_once_deal_one_game(
    world: World, monkeypatch: pytest.MonkeyPatch,
) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    bob2 = world.join("bob")  # bob's second device
    old = finished_game(world, ana, bob)
    assert ana.ask("offer_rematch", game=old)["type"] == "ack"
    answers: list[dict[str, object]] = []
    at_once(monkeypatch, *(lambda c=c: answers.append(c.ask("accept_rematch", game=old))
                           for c in (bob, bob2)))
    assert sorted(str(a["type"]) for a in answers) == ["ack", "error"]
    assert len({line["game"] for line in ana.ask("games")["games"]}) == 2
