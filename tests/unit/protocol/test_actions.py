"""Parsing client frames: every malformed shape is a typed ProtocolError."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numbridge.protocol import ProtocolError, parse_action, peek
from numbridge.protocol import actions as act


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('"place"', "malformed"),
        ('{"id": "a"}', "malformed"),
        ('{"action": 5, "id": "a"}', "malformed"),
        ('{"action": "fly", "id": "a"}', "unknown_action"),
        ('{"action": "place", "id": "a", "game": "g", "cell": [1], "digit": 3}', "malformed"),
        ('{"action": "place", "id": "a", "game": "g", "cell": [1, 2], "digit": "3"}',
         "malformed"),
        ('{"action": "place", "id": "a", "game": "g", "cell": [1, 2.5], "digit": 3}',
         "malformed"),
        ('{"action": "place", "game": "g", "cell": [1, 2], "digit": 3}', "malformed"),
        ('{"action": "place", "id": "", "game": "g", "cell": [1, 2], "digit": 3}', "malformed"),
        ('{"action": "place", "id": "' + "x" * 65 + '", "game": "g", "cell": [1, 2], "digit": 3}',
         "malformed"),
        ('{"action": "sync", "id": "a", "game": "g", "v": -1}', "malformed"),
        ('{"action": "propose", "id": "a", "room": "domains", "rated": "yes"}', "malformed"),
    ],
)
def test_bad_frames_are_refused_with_a_typed_code(raw: str, code: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_action(raw)
    assert caught.value.code == code
    assert caught.value.message


def test_good_frames_parse_to_their_models() -> None:
    place = parse_action('{"action": "place", "id": "a", "game": "g", "cell": [4, 3], "digit": 7}')
    assert isinstance(place, act.Place) and place.cell == (4, 3) and place.digit == 7
    take = parse_action('{"action": "take", "id": "b", "game": "g", "cell": [0, 0]}')
    assert isinstance(take, act.Take) and take.digit is None
    sync = parse_action('{"action": "sync", "id": "c", "game": "g"}')
    assert isinstance(sync, act.Sync) and sync.v is None


def test_peek_finds_the_request_id_only_when_it_is_valid() -> None:
    assert peek('{"id": "r1"}')[1] == "r1"
    assert peek('{"id": 5}')[1] is None
    assert peek("nope") == (None, None)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda kids: st.lists(kids, max_size=3)
                    | st.dictionaries(st.text(max_size=6), kids, max_size=4)))
def test_arbitrary_json_never_escapes_as_anything_but_a_protocol_error(value: object) -> None:
    try:
        parse_action(json.dumps(value))
    except ProtocolError as err:
        assert err.code in {"malformed", "unknown_action"}
