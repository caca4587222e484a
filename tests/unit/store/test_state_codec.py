"""The packed layout of a game's state: lossless, small, and fixed once stored."""

from __future__ import annotations

import json
import zlib
from typing import Any

import pytest
from numbridge.store import state_codec
from testkit.states import played


@pytest.mark.parametrize("variant", ["bridge", "blitz", "domains"])
def test_a_played_state_packs_small_and_unpacks_to_itself(variant: str) -> None:
    state = played(variant).to_dict()
    blob = state_codec.pack(state)
    assert state_codec.unpack(blob) == state
    assert json.loads(state_codec.text(blob)) == state
    plain = len(json.dumps(state, separators=(",", ":")))
    assert len(blob) * 8 < plain  # an eighth of the JSON or less
    assert len(blob) < len(zlib.compress(json.dumps(state).encode(), 9))


@pytest.mark.parametrize("record", [
    [],
    [{"seat": "blue", "at_ms": None}, {"seat": "red", "at_ms": 7}, {"seat": "red",
                                                                   "at_ms": 3}],
    [{"seat": "blue", "at_ms": 5}, {"at_ms": 9, "seat": "red"}],  # keys in another order
    [{"seat": "blue"}, {"seat": "red", "extra": True}],
    [{"at_ms": True}, {"at_ms": 1.5}, {"at_ms": -4}],
    ["not an entry"],
])
def test_any_record_comes_back_exactly_as_it_was(record: list[Any]) -> None:
    state = {"schema": 1, "v": 2, "record": record}
    back = state_codec.unpack(state_codec.pack(state))
    assert back == state
    assert [list(e) for e in back["record"] if isinstance(e, dict)] == [
        list(e) for e in record if isinstance(e, dict)]


def test_a_record_that_is_not_a_list_is_refused() -> None:
    with pytest.raises(ValueError):
        state_codec.pack({"record": {"seat": ["blue"]}})


@pytest.mark.parametrize("blob", [b"", b"\x02abc", b"\x01not deflate"])
def test_what_is_not_a_packed_state_is_a_value_error(blob: bytes) -> None:
    with pytest.raises(ValueError):
        state_codec.unpack(blob)


def test_format_1_dictionary_never_changes() -> None:
    """States stored with it must stay readable: a new dictionary is a new format."""
    assert zlib.crc32(state_codec._DICTIONARY_1) == FORMAT_1_CRC
    assert state_codec.pack({"v": 1})[0] == state_codec.FORMAT_1


FORMAT_1_CRC = 207710387
