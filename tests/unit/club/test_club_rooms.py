"""Rooms from configuration: the shipped table (RULES.md §11), loading, validation errors."""

from __future__ import annotations

import json
import textwrap
from importlib import resources
from pathlib import Path

import pytest
from numbridge.club.proposals import Variant
from numbridge.club.rooms import (
    ROOMS_CONFIG_ENV,
    Rooms,
    RoomsConfigError,
    UnknownRoom,
)
from numbridge.club.rooms_config import load_rooms, parse_rooms, parse_rooms_yaml
from numbridge.protocol.answers import room_json

# RULES.md §11: room → (variant, size, clues (min, max, default), take price, move s, game min)
TABLE: dict[str, tuple[Variant, int, tuple[int, int, int], int, int, int]] = {
    "bridge": ("bridge", 9, (26, 34, 30), 1, 45, 15),
    "bridge-60": ("bridge", 9, (26, 34, 30), 1, 60, 20),
    "blitz": ("blitz", 6, (10, 16, 12), 2, 30, 5),
    "domains": ("domains", 9, (22, 34, 30), 1, 45, 20),
}


def room_yaml(**overrides: str) -> str:
    """One valid room (id ``r``), with top-level keys replaced by YAML snippets."""
    fields = {
        "id": "r",
        "title": "R",
        "variants": "{bridge: {size: 9, clues: {min: 26, max: 34, default: 30}, take_price: 1}}",
        "move_ms": "45000",
        "game_ms": "900000",
        "highlighting": "true",
        "blocks": "[regular, irregular]",
    }
    fields.update(overrides)
    body = "\n".join(f"    {k}: {v}" for k, v in fields.items() if v != "<omit>")
    return "  - " + body.lstrip()


def config(*rooms: str) -> str:
    return "rooms:\n" + "\n".join(rooms) + "\n"


def problems_of(text: str) -> tuple[str, ...]:
    with pytest.raises(RoomsConfigError) as info:
        parse_rooms_yaml(text, "test.yaml")
    return info.value.problems


# -- the shipped default ----------------------------------------------------------------


def test_shipped_rooms_are_the_rules_table(rooms: Rooms) -> None:
    assert rooms.ids == ("bridge", "bridge-60", "blitz", "domains", "study")
    for room_id, (variant, size, (lo, hi, default), price, move_s, game_min) in TABLE.items():
        room = rooms.get(room_id)
        assert room.variant == variant
        settings = room.settings(variant)
        assert settings.size == size
        assert (settings.clues.min, settings.clues.max, settings.clues.default) == (lo, hi, default)
        assert settings.take_price == price
        assert room.move_ms == move_s * 1000
        assert room.game_ms == game_min * 60_000
        assert room.highlighting is True
        assert room.blocks == ("regular", "irregular")


def test_study_room_offers_every_variant_as_in_its_room(rooms: Rooms) -> None:
    study = rooms.get("study")
    assert list(study.variants) == ["bridge", "blitz", "domains"]
    assert study.variant is None
    assert study.move_ms == 120_000
    assert study.game_ms is None
    assert study.highlighting is True
    variants: tuple[Variant, ...] = ("bridge", "blitz", "domains")
    for variant, room_id in zip(variants, ("bridge", "blitz", "domains"), strict=True):
        mine = study.settings(variant)
        theirs = rooms.get(room_id).settings(variant)
        assert mine == theirs


def test_public_shape_of_a_single_variant_room(rooms: Rooms) -> None:
    public = room_json(rooms.get("domains"))
    assert public == {
        "id": "domains",
        "title": "Domains",
        "variant": "domains",
        "variants": ["domains"],
        "size": 9,
        "clues": {"min": 22, "max": 34, "default": 30},
        "take_price": 1,
        "move_ms": 45_000,
        "game_ms": 1_200_000,
        "highlighting": True,
        "blocks": ["regular", "irregular"],
        "by_variant": {
            "domains": {"size": 9, "clues": {"min": 22, "max": 34, "default": 30}, "take_price": 1}
        },
        "spectators": True,
        "grades": None,
    }


def test_public_shape_of_the_study_room(rooms: Rooms) -> None:
    public = room_json(rooms.get("study"))
    assert public["variant"] is None
    assert public["variants"] == ["bridge", "blitz", "domains"]
    assert public["size"] is None and public["clues"] is None and public["take_price"] is None
    assert public["game_ms"] is None
    assert public["by_variant"]["blitz"] == {
        "size": 6,
        "clues": {"min": 10, "max": 16, "default": 12},
        "take_price": 2,
    }


def test_rooms_frame_list_is_json_and_in_order(rooms: Rooms) -> None:
    listed = json.loads(json.dumps([room_json(r) for r in rooms]))
    assert [r["id"] for r in listed] == list(rooms.ids)
    assert [room.id for room in rooms] == list(rooms.ids)
    assert len(rooms) == 5


def test_unknown_room_is_a_clear_error(rooms: Rooms) -> None:
    with pytest.raises(UnknownRoom) as info:
        rooms.get("chess")
    assert isinstance(info.value, LookupError)
    assert "'chess'" in str(info.value)
    assert "bridge, bridge-60, blitz, domains, study" in str(info.value)
    assert "chess" not in rooms and "blitz" in rooms


def test_rooms_yaml_is_package_data() -> None:
    resource = resources.files("numbridge.club") / "rooms.yaml"
    assert resource.is_file()


# -- where the configuration comes from ----------------------------------------------------


def test_load_from_a_path(tmp_path: Path) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(config(room_yaml(id="only")), encoding="utf-8")
    assert load_rooms(path).ids == ("only",)
    assert load_rooms(str(path)).ids == ("only",)


def test_load_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "club.yaml"
    path.write_text(config(room_yaml(id="from-env")), encoding="utf-8")
    monkeypatch.setenv(ROOMS_CONFIG_ENV, str(path))
    assert load_rooms().ids == ("from-env",)
    # an explicit path wins over the environment
    other = tmp_path / "other.yaml"
    other.write_text(config(room_yaml(id="explicit")), encoding="utf-8")
    assert load_rooms(other).ids == ("explicit",)


def test_empty_environment_variable_means_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ROOMS_CONFIG_ENV, "")
    assert "study" in load_rooms()


def test_missing_file_names_the_path_and_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "nope.yaml"
    monkeypatch.setenv(ROOMS_CONFIG_ENV, str(missing))
    with pytest.raises(RoomsConfigError) as info:
        load_rooms()
    assert str(missing) in str(info.value)
    assert ROOMS_CONFIG_ENV in str(info.value)


def test_a_new_room_needs_no_code() -> None:
    rooms = parse_rooms_yaml(
        config(
            room_yaml(
                id="domains-quick",
                title="Quick Domains",
                variants="{domains: {size: 9, clues: {min: 28, max: 34, default: 32},"
                " take_price: 1}}",
                move_ms="20000",
                game_ms="null",
                highlighting="false",
                blocks="[irregular]",
            )
        )
    )
    room = rooms.get("domains-quick")
    assert room.variant == "domains"
    assert room.game_ms is None
    assert room.blocks == ("irregular",)
    assert room.highlighting is False


def test_a_room_may_turn_spectators_off() -> None:
    rooms = parse_rooms_yaml(config(room_yaml(id="open"),
                                    room_yaml(id="private", spectators="false")))
    assert rooms.get("open").spectators is True  # anyone may watch unless the room says no
    assert rooms.get("private").spectators is False
    assert room_json(rooms.get("private"))["spectators"] is False
    assert any(p.startswith("room 'r': spectators: Input should be a valid bool")
               for p in problems_of(config(room_yaml(spectators="sometimes"))))


def test_like_copies_settings_and_keys_beside_it_override() -> None:
    rooms = parse_rooms_yaml(
        config(
            room_yaml(id="base"),
            room_yaml(
                id="copy",
                variants="{bridge: {like: base, clues: {min: 20, max: 30, default: 25}}}",
            ),
            room_yaml(id="chain", variants="{bridge: {like: copy, take_price: 2}}"),
        )
    )
    copy = rooms.get("copy").settings("bridge")
    assert (copy.size, copy.take_price) == (9, 1)
    assert (copy.clues.min, copy.clues.max, copy.clues.default) == (20, 30, 25)
    chain = rooms.get("chain").settings("bridge")
    assert (chain.clues.default, chain.take_price) == (25, 2)


def test_rooms_can_be_built_from_plain_data() -> None:
    data = {
        "rooms": [
            {
                "id": "x",
                "title": "X",
                "variants": {
                    "blitz": {
                        "size": 6,
                        "clues": {"min": 10, "max": 16, "default": 12},
                        "take_price": 2,
                    }
                },
                "move_ms": 30000,
                "game_ms": None,
                "highlighting": True,
                "blocks": ["regular"],
            }
        ]
    }
    assert parse_rooms(data).get("x").settings("blitz").take_price == 2


# -- validation errors name the room and the field -----------------------------------------


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        (
            {
                "variants": "{bridge: {size: 9, clues: {min: 26, max: 34, default: 40},"
                " take_price: 1}}"
            },
            "room 'r': variants.bridge.clues: default 40",
        ),
        (
            {
                "variants": "{bridge: {size: 9, clues: {min: 30, max: 26, default: 28},"
                " take_price: 1}}"
            },
            "room 'r': variants.bridge.clues: min 30 is above max 26",
        ),
        (
            {
                "variants": "{bridge: {size: 6, clues: {min: 10, max: 16, default: 12},"
                " take_price: 1}}"
            },
            "room 'r': variants.bridge: size: a bridge board has size 9, not 6",
        ),
        (
            {
                "variants": "{blitz: {size: 6, clues: {min: 10, max: 36, default: 12},"
                " take_price: 2}}"
            },
            "room 'r': variants.blitz: clues.max 36 leaves no empty cell",
        ),
        (
            {
                "variants": "{bridge: {size: 9, clues: {min: 26, max: 34, default: 30},"
                " take_price: 4}}"
            },
            "room 'r': variants.bridge.take_price:",
        ),
        (
            {"variants": "{bridge: {size: 9, take_price: 1}}"},
            "room 'r': variants.bridge: give clues, or `like: ROOM`",
        ),
        ({"variants": "{}"}, "room 'r': variants:"),
        ({"variants": "{chess: {like: r}}"}, "room 'r': variants.chess.[key]:"),
        ({"move_ms": "<omit>"}, "room 'r': move_ms: Field required"),
        ({"move_ms": "'45000'"}, "room 'r': move_ms: Input should be a valid integer"),
        ({"move_ms": "0"}, "room 'r': move_ms: Input should be greater than 0"),
        ({"game_ms": "<omit>"}, "room 'r': game_ms: Field required"),
        ({"game_ms": "-1"}, "room 'r': game_ms: Input should be greater than 0"),
        ({"highlighting": "yes please"}, "room 'r': highlighting: Input should be a valid bool"),
        ({"blocks": "[]"}, "room 'r': blocks:"),
        ({"blocks": "[regular, regular]"}, "room 'r': blocks: a block kind is listed twice"),
        ({"blocks": "[hexagonal]"}, "room 'r': blocks.0:"),
        ({"title": "''"}, "room 'r': title:"),
        ({"clock": "5"}, "room 'r': clock: Extra inputs are not permitted"),
        ({"id": "Big Room"}, "room 'Big Room': id: String should match pattern"),
        ({"id": "<omit>"}, "room #1: id: Field required"),
        ({"id": "[a, b]"}, "room #1: id: Input should be a valid string"),
    ],
)
def test_invalid_room_is_named_with_its_field(override: dict[str, str], expected: str) -> None:
    problems = problems_of(config(room_yaml(**override)))
    assert any(p.startswith(expected) for p in problems), problems


def test_every_problem_is_reported_at_once() -> None:
    problems = problems_of(
        config(
            room_yaml(id="a", move_ms="0"),
            room_yaml(id="b", blocks="[]"),
            room_yaml(id="c"),
        )
    )
    assert [p.split(":")[0] for p in problems] == ["room 'a'", "room 'b'"]


def test_error_message_names_the_source() -> None:
    with pytest.raises(RoomsConfigError) as info:
        parse_rooms_yaml(config(room_yaml(move_ms="0")), "club.yaml")
    assert str(info.value).startswith("invalid rooms configuration club.yaml:")
    assert isinstance(info.value, ValueError)


def test_duplicate_room_ids() -> None:
    problems = problems_of(config(room_yaml(id="x"), room_yaml(id="x")))
    assert problems == ("room 'x': id: another room has the id 'x'",)


@pytest.mark.parametrize(
    ("variants", "expected"),
    [
        ("{bridge: {like: nowhere}}", "there is no room 'nowhere'"),
        ("{blitz: {like: base}}", "room 'base' does not offer blitz"),
        ("{bridge: {like: r}}", "`like` goes round in a circle: r → r"),
        ("{bridge: {like: broken}}", "room 'broken' is itself invalid"),
    ],
)
def test_bad_like_references(variants: str, expected: str) -> None:
    problems = problems_of(
        config(
            room_yaml(id="base"),
            room_yaml(id="broken", move_ms="0"),
            room_yaml(variants=variants),
        )
    )
    assert any(p.startswith("room 'r': variants.") and expected in p for p in problems), problems


def test_like_cycle_across_rooms() -> None:
    problems = problems_of(
        config(
            room_yaml(id="a", variants="{bridge: {like: b}}"),
            room_yaml(id="b", variants="{bridge: {like: a}}"),
        )
    )
    assert "room 'a': variants.bridge.like: `like` goes round in a circle: a → b → a" in problems


def test_inherited_settings_that_do_not_fit_say_where_they_came_from() -> None:
    problems = problems_of(
        config(room_yaml(id="base"), room_yaml(variants="{bridge: {like: base, size: 6}}"))
    )
    assert problems == (
        "room 'r': variants.bridge: size: a bridge board has size 9, not 6 (with `like: base`)",
    )


@pytest.mark.parametrize(
    "text",
    [
        "rooms: [",
        "just a string",
        "rooms: []",
        "rooms: {bridge: {}}",
        "rooms:\n  - id: r\nextra: 1\n",
    ],
)
def test_malformed_files(text: str) -> None:
    assert problems_of(textwrap.dedent(text))


def test_rooms_refuses_duplicate_ids_when_built_directly(rooms: Rooms) -> None:
    with pytest.raises(ValueError, match="used twice: bridge"):
        Rooms([rooms.get("bridge"), rooms.get("bridge")])


def test_a_room_option_is_declared_once_and_listed_as_it_is() -> None:
    """Each option the configuration checks is a field of the club's Room, and the
    ``rooms`` frame lists every Room field but the variants as it is."""
    from dataclasses import fields

    from numbridge.club import rooms_config
    from numbridge.club.rooms import Room

    options = {f.name for f in fields(Room)} - {"variants"}
    assert set(rooms_config._RoomBase.model_fields) == options
    room = parse_rooms_yaml(config(room_yaml(id="one"))).get("one")
    listed = room_json(room)
    for name in options:
        value = getattr(room, name)
        assert listed[name] == (list(value) if isinstance(value, tuple) else value)


def test_a_room_may_offer_a_range_of_grades() -> None:
    """Catches a room's grades dropped on the way from the file to the room (and to the
    ``rooms`` frame), or a proposal's grade not checked against them."""
    from numbridge.club.proposals import ProposalChoices, ProposalRejected

    rooms = parse_rooms_yaml(config(room_yaml(id="any"),
                                    room_yaml(id="mid", grades="[hidden_single, pairs]"),
                                    room_yaml(id="one", grades="[beyond, beyond]")))
    assert rooms.get("any").grades is None
    assert rooms.get("mid").grades == ("hidden_single", "pairs")
    assert room_json(rooms.get("mid"))["grades"] == ["hidden_single", "pairs"]
    assert rooms.get("one").grades == ("beyond", "beyond")
    mid = rooms.get("mid")
    assert mid.game_options(ProposalChoices()).grades == ("hidden_single", "pairs")
    assert mid.game_options(ProposalChoices(grade="pairs")).grades == ("pairs", "pairs")
    plain = rooms.get("any").game_options(ProposalChoices())
    assert plain.grades is None
    # stored with the game (a rematch deals from it); a game from before grades reads back
    from numbridge.rules import GameOptions

    chosen = mid.game_options(ProposalChoices(grade="pairs"))
    assert GameOptions.from_dict(chosen.to_dict()) == chosen
    assert "grades" not in plain.to_dict()
    assert GameOptions.from_dict(plain.to_dict()) == plain
    for room, asked in (("mid", "naked_single"), ("mid", "beyond"), ("any", "pairs")):
        with pytest.raises(ProposalRejected, match="grade"):
            rooms.get(room).game_options(ProposalChoices(grade=asked))  # type: ignore[arg-type]


@pytest.mark.parametrize(("grades", "expected"), [
    ("[pairs, hidden_single]", "grades: easiest first: pairs is harder than hidden_single"),
    ("[hidden_single, hard]", "grades: 'hard' is no grade; the ladder is: naked_single, "
                              "hidden_single, locked_candidates, pairs, beyond, guess"),
    ("pairs", "grades: give [easiest, hardest], two of: naked_single"),
    ("[pairs]", "grades: give [easiest, hardest]"),
    ("[naked_single, pairs, beyond]", "grades: give [easiest, hardest]"),
])
def test_a_room_grade_range_off_the_ladder_is_a_clear_error(grades: str, expected: str) -> None:
    """Catches a misspelt or reversed range loaded as a room that can deal nothing (every
    deal would run out its budget), and an error that does not say what the ladder is."""
    [problem] = problems_of(config(room_yaml(grades=grades)))
    assert problem.startswith(f"room 'r': {expected}"), problem
