"""Parsing client frames: every malformed shape is a typed ProtocolError; a good one is
the request its declaration describes."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numbridge import rules
from numbridge.protocol import ProtocolError, read_request
from numbridge.protocol import requests as req
from numbridge.protocol.wire import load_object
from numbridge.service.commit import digest


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
        read_request(raw)
    assert caught.value.code == code
    assert caught.value.message


def test_good_frames_parse_to_their_models() -> None:
    place = read_request('{"action": "place", "id": "a", "game": "g", "cell": [4, 3], "digit": 7}')
    assert place == req.GameAction(id="a", game="g", action=rules.Place((4, 3), 7))
    take = read_request('{"action": "take", "id": "b", "game": "g", "cell": [0, 0]}')
    assert isinstance(take, req.GameAction) and take.action == rules.Take((0, 0), None)
    sync = read_request('{"action": "sync", "id": "c", "game": "g"}')
    assert isinstance(sync, req.Sync) and sync.v is None
    propose = read_request('{"action": "propose", "id": "d", "room": "bridge", "clues": 30}')
    assert isinstance(propose, req.Propose) and propose.choices.clues == 30
    assert propose.sent == {"action", "id", "room", "clues"}


def test_every_game_action_of_the_rules_is_a_request() -> None:
    for kind in rules.actions.ACTION_TYPES:
        assert req.REQUEST_KINDS[kind.name].game_action is kind


def test_the_frame_id_is_kept_only_when_it_is_valid() -> None:
    assert load_object('{"id": "r1"}')[1] == "r1"
    assert load_object('{"id": 5}')[1] is None


@pytest.mark.parametrize(
    ("frame", "expected"),
    [
        # What the digests of stored receipts were made from: a retry after an upgrade
        # must still match its receipt.
        ({"action": "place", "id": "a", "game": "g1", "cell": [4, 3], "digit": 7},
         "5769b77357d514731529b1ec70d76d83"),
        ({"action": "take", "id": "a", "game": "g1", "cell": [0, 1]},
         "0ea10710f9b43fc7b4c60812ca93a2f7"),
        ({"action": "accept", "id": "x", "proposal": "p1"}, "80121db6363e996a9fcae69eb79a73bd"),
        ({"action": "resign", "id": "r", "game": "g"}, "bad0dcf477c8d11d67a13b0aad35bc7b"),
        ({"action": "offer_rematch", "id": "r", "game": "g"},
         "f09985f4118f774e6d99f5ef7238ff1c"),
    ],
)
def test_request_digests_are_stable(frame: dict[str, object], expected: str) -> None:
    assert digest(read_request(json.dumps(frame))) == expected


def test_a_digest_ignores_the_id_and_tells_requests_apart() -> None:
    one = read_request('{"action": "place", "id": "a", "game": "g", "cell": [1, 2], "digit": 3}')
    same = read_request('{"action": "place", "id": "b", "game": "g", "cell": [1, 2], "digit": 3}')
    other = read_request('{"action": "place", "id": "a", "game": "g", "cell": [1, 2], "digit": 4}')
    assert digest(one) == digest(same) != digest(other)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda kids: st.lists(kids, max_size=3)
                    | st.dictionaries(st.text(max_size=6), kids, max_size=4)))
def test_arbitrary_json_never_escapes_as_anything_but_a_protocol_error(value: object) -> None:
    try:
        read_request(json.dumps(value))
    except ProtocolError as err:
        assert err.code in {"malformed", "unknown_action"}
