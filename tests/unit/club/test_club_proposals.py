"""Proposal choices checked against a room's limits (RULES.md §8), and seating."""

from __future__ import annotations

import dataclasses
import json
import random
from importlib import resources
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numbridge.club.proposals import ProposalChoices, ProposalRejected, seat_players
from numbridge.club.rooms import Room, Rooms
from numbridge.club.rooms_config import parse_rooms_yaml
from numbridge.protocol import FrameRefused, read_request
from numbridge.protocol.requests import Propose
from numbridge.service.wire_errors import wire_error

STRICT_ROOM = """
rooms:
  - id: strict
    title: Strict
    variants:
      domains: {size: 9, clues: {min: 24, max: 28, default: 26}, take_price: 1}
    move_ms: 45000
    game_ms: null
    highlighting: false
    blocks: [regular]
"""


def options(room: Room, **choices: Any) -> dict[str, Any]:
    made = room.game_options(ProposalChoices(**choices))
    return dataclasses.asdict(made)


def rejection(room: Room, **choices: Any) -> str:
    with pytest.raises(ProposalRejected) as info:
        room.game_options(ProposalChoices(**choices))
    return str(info.value)


@pytest.fixture
def strict() -> Room:
    return parse_rooms_yaml(STRICT_ROOM).get("strict")


# -- the shape of the choices ------------------------------------------------------------


def test_defaults() -> None:
    choices = ProposalChoices()
    assert choices.blocks == "regular"
    assert choices.clues is None
    assert choices.highlighting is None
    assert choices.rated is True
    assert choices.colour == "random"
    assert choices.variant is None


@pytest.mark.parametrize(
    "bad",
    [
        {"clues": "30"},
        {"clues": 30.5},
        {"rated": 1},
        {"highlighting": "yes"},
        {"blocks": "hexagonal"},
        {"colour": "green"},
        {"color": "blue"},
        {"variant": "chess"},
    ],
)
def test_malformed_choices_are_refused_by_the_protocol(bad: dict[str, Any]) -> None:
    with pytest.raises(FrameRefused) as refused:
        read_request(json.dumps({"action": "propose", "id": "p", "room": "bridge", **bad}))
    assert refused.value.code == "malformed"


def test_choices_from_json() -> None:
    choices = read_request(json.dumps(
        {"action": "propose", "id": "p", "room": "bridge", "blocks": "irregular",
         "clues": 28, "highlighting": False, "rated": False, "colour": "red",
         "variant": "domains"}))
    assert isinstance(choices, Propose)
    assert (choices.blocks, choices.clues, choices.colour) == ("irregular", 28, "red")


# -- game options from a room ------------------------------------------------------------


def test_defaults_in_the_domains_room(rooms: Rooms) -> None:
    assert options(rooms.get("domains")) == {
        "room": "domains",
        "variant": "domains",
        "size": 9,
        "blocks": "regular",
        "clues": 30,
        "take_price": 1,
        "move_ms": 45_000,
        "game_ms": 1_200_000,
        "highlighting": True,
        "rated": True,
        "grades": None,
        "tournament": None,
    }


def test_every_choice_is_carried_over(rooms: Rooms) -> None:
    made = options(
        rooms.get("blitz"), blocks="irregular", clues=10, highlighting=False, rated=False
    )
    assert made == {
        "room": "blitz",
        "variant": "blitz",
        "size": 6,
        "blocks": "irregular",
        "clues": 10,
        "take_price": 2,
        "move_ms": 30_000,
        "game_ms": 300_000,
        "highlighting": False,
        "rated": False,
        "grades": None,
        "tournament": None,
    }


def test_game_options_is_the_rules_class(rooms: Rooms) -> None:
    import numbridge.rules

    made = rooms.get("bridge").game_options(ProposalChoices())
    assert isinstance(made, numbridge.rules.GameOptions)


@pytest.mark.parametrize("room_id", ["bridge", "bridge-60", "blitz", "domains"])
def test_every_shipped_room_accepts_its_defaults(rooms: Rooms, room_id: str) -> None:
    made = options(rooms.get(room_id))
    assert made["room"] == room_id
    assert made["variant"] == rooms.get(room_id).variant


def test_clue_limits_are_inclusive(rooms: Rooms) -> None:
    bridge = rooms.get("bridge")
    assert options(bridge, clues=26)["clues"] == 26
    assert options(bridge, clues=34)["clues"] == 34
    assert rejection(bridge, clues=25) == (
        "clues must be between 26 and 34 for bridge in room 'bridge', not 25"
    )
    assert "not 35" in rejection(bridge, clues=35)


SHIPPED = parse_rooms_yaml((resources.files("numbridge.club") / "rooms.yaml").read_text())


@given(
    clues=st.integers(min_value=-5, max_value=90),
    room_id=st.sampled_from(["bridge", "blitz", "domains"]),
)
def test_clues_accepted_exactly_within_the_range(clues: int, room_id: str) -> None:
    room = SHIPPED.get(room_id)
    assert room.variant is not None
    limits = room.settings(room.variant).clues
    choices = ProposalChoices(clues=clues)
    if limits.min <= clues <= limits.max:
        assert room.game_options(choices).clues == clues
    else:
        with pytest.raises(ProposalRejected):
            room.game_options(choices)


def test_irregular_blocks_where_not_allowed(strict: Room) -> None:
    assert rejection(strict, blocks="irregular") == (
        "room 'strict' does not allow irregular blocks (allowed: regular)"
    )


def test_highlighting_where_not_allowed(strict: Room) -> None:
    assert rejection(strict, highlighting=True) == (
        "room 'strict' does not allow candidate highlighting"
    )
    assert options(strict)["highlighting"] is False
    assert options(strict, highlighting=False)["highlighting"] is False


def test_highlighting_defaults_to_on_where_allowed_and_can_be_refused(rooms: Rooms) -> None:
    domains = rooms.get("domains")
    assert options(domains)["highlighting"] is True
    assert options(domains, highlighting=False)["highlighting"] is False


def test_no_game_clock_is_carried_as_none(strict: Room) -> None:
    assert options(strict)["game_ms"] is None


def test_variant_not_offered(rooms: Rooms) -> None:
    assert rejection(rooms.get("bridge"), variant="blitz") == (
        "room 'bridge' does not offer 'blitz' (it offers: bridge)"
    )
    assert options(rooms.get("bridge"), variant="bridge")["variant"] == "bridge"


def test_study_room_needs_a_variant(rooms: Rooms) -> None:
    assert rejection(rooms.get("study")) == (
        "room 'study' offers bridge, blitz, domains: choose a variant"
    )


def test_study_room_plays_each_variant_as_its_room(rooms: Rooms) -> None:
    study = rooms.get("study")
    blitz = options(study, variant="blitz")
    assert blitz == {
        "room": "study",
        "variant": "blitz",
        "size": 6,
        "blocks": "regular",
        "clues": 12,
        "take_price": 2,
        "move_ms": 120_000,
        "game_ms": None,
        "highlighting": True,
        "rated": True,
        "grades": None,
        "tournament": None,
    }
    assert options(study, variant="domains", clues=22)["clues"] == 22
    assert "between 26 and 34 for bridge in room 'study'" in rejection(
        study, variant="bridge", clues=22
    )


def test_rejection_is_answered_as_illegal(rooms: Rooms) -> None:
    with pytest.raises(ValueError) as info:
        rooms.get("bridge").game_options(ProposalChoices(clues=99))
    assert isinstance(info.value, ProposalRejected)
    told = wire_error(info.value)
    assert told is not None and told.code == "illegal"


# -- seating -------------------------------------------------------------------------------


def test_chosen_colours(rng: random.Random) -> None:
    assert seat_players("ana", "bob", "blue", rng) == {"blue": "ana", "red": "bob"}
    assert seat_players("ana", "bob", "red", rng) == {"blue": "bob", "red": "ana"}


def test_random_colour_uses_the_injected_rng() -> None:
    seatings = [seat_players("ana", "bob", "random", random.Random(seed)) for seed in range(40)]
    assert {s["blue"] for s in seatings} == {"ana", "bob"}
    for seed, seating in enumerate(seatings):
        assert seat_players("ana", "bob", "random", random.Random(seed)) == seating
        assert sorted(seating.values()) == ["ana", "bob"]


def test_random_colour_draws_from_rng_choice() -> None:
    class Fixed(random.Random):
        def __init__(self, pick: str) -> None:
            super().__init__(0)
            self.pick = pick

        def choice(self, seq: Any) -> Any:
            assert tuple(seq) == ("blue", "red")
            return self.pick

    assert seat_players("ana", "bob", "random", Fixed("red")) == {"blue": "bob", "red": "ana"}
    assert seat_players("ana", "bob", "random", Fixed("blue")) == {"blue": "ana", "red": "bob"}


def test_cannot_accept_your_own_proposal(rng: random.Random) -> None:
    with pytest.raises(ProposalRejected, match="your own proposal"):
        seat_players("ana", "ana", "blue", rng)
