"""Rooms and proposals through the handlers (RULES.md §8, §11)."""

from __future__ import annotations

from harness import World


def test_rooms_lists_the_configured_rooms(world: World) -> None:
    ana = world.join("ana")
    answer = ana.ask("rooms")
    rooms = {r["id"]: r for r in answer["rooms"]}
    assert {"bridge", "bridge-60", "blitz", "domains", "study"} <= set(rooms)
    assert rooms["domains"]["clues"] == {"min": 22, "max": 34, "default": 30}
    assert rooms["blitz"]["take_price"] == 2


def test_propose_list_and_withdraw(world: World) -> None:
    ana, bob = world.join("ana"), world.join("bob")
    made = ana.ask("propose", room="domains", clues=24, blocks="irregular", colour="blue")
    assert made["type"] == "proposal"
    proposal = made["proposal"]
    assert (proposal["by"], proposal["clues"], proposal["blocks"]) == ("ana", 24, "irregular")
    listed = bob.ask("proposals", room="domains")["proposals"]
    assert [p["id"] for p in listed] == [proposal["id"]]
    assert [p["id"] for p in bob.ask("proposals")["proposals"]] == [proposal["id"]]

    refused = bob.ask("withdraw", proposal=proposal["id"])
    assert (refused["type"], refused["code"]) == ("error", "unauthorized")
    assert ana.ask("withdraw", proposal=proposal["id"])["type"] == "ack"
    assert bob.ask("proposals", room="domains")["proposals"] == []
    gone = ana.ask("withdraw", proposal=proposal["id"])
    assert gone["code"] == "not_found"


def test_proposals_outside_the_room_limits_are_refused(world: World) -> None:
    ana = world.join("ana")
    for fields in (
        {"room": "domains", "clues": 21},
        {"room": "domains", "clues": 35},
        {"room": "blitz", "clues": 9},
        {"room": "bridge", "clues": 25},
    ):
        answer = ana.ask("propose", **fields)
        assert (answer["type"], answer["code"]) == ("error", "illegal"), fields
    assert ana.ask("propose", room="nowhere")["code"] == "not_found"
    assert ana.ask("propose", room="domains", clues="30")["code"] == "malformed"
    assert ana.ask("propose", room="domains", colour="green")["code"] == "malformed"
    assert ana.ask("proposals")["proposals"] == []


def test_a_player_cannot_accept_their_own_proposal(world: World) -> None:
    ana = world.join("ana")
    proposal = ana.ask("propose", room="blitz")["proposal"]
    answer = ana.ask("accept", proposal=proposal["id"])
    assert (answer["type"], answer["code"]) == ("error", "illegal")
    assert [p["id"] for p in ana.ask("proposals", room="blitz")["proposals"]] == [proposal["id"]]
