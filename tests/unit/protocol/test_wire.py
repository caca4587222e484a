"""Reading hostile frames: each is refused as ``malformed`` (with the id when it can be
read), cheaply, and nothing but a FrameRefused ever escapes."""

from __future__ import annotations

import json

import pytest
from numbridge.protocol import FrameRefused, read_request, wire
from numbridge.protocol.requests import REQUEST_KINDS, GameAction
from numbridge.protocol.shapes import fields_of
from numbridge.protocol.wire import (
    MAX_DEPTH,
    MAX_FRAME_BYTES,
    MAX_INT_DIGITS,
    load_object,
    too_deep,
)
from numbridge.rules import Place

PLACE = {"action": "place", "id": "r1", "game": "g-1", "cell": [4, 3], "digit": 7}


def refused(body: object) -> FrameRefused:
    with pytest.raises(FrameRefused) as caught:
        read_request(body)
    assert caught.value.message
    return caught.value


def nested(depth: int, inner: str = "0") -> str:
    return "[" * depth + inner + "]" * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5_000, 100_000])
def test_deep_nesting_is_malformed_and_never_a_recursion_error(depth: int) -> None:
    assert depth > MAX_DEPTH
    for body in (nested(depth), '{"action": "place", "id": "deep", "x": ' + nested(depth) + "}",
                 "{" + '"a":{' * depth + "}" * (depth + 1)):
        if len(body) > MAX_FRAME_BYTES:
            assert refused(body).code == "malformed"
            continue
        err = refused(body)
        assert err.code == "malformed" and "deeper" in err.message


def test_nesting_within_the_limit_is_read() -> None:
    frame, rid = load_object('{"id": "ok", "x": ' + nested(MAX_DEPTH - 1) + "}")
    assert rid == "ok" and frame["x"]


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    body = json.dumps({**PLACE, "game": "[" * 60 + '"{' * 3})
    assert not too_deep(body)
    assert refused(body).code == "malformed"  # the game id is too long, not too deep
    parsed = read_request(json.dumps({**PLACE, "game": "[{" * 20}))
    assert isinstance(parsed, GameAction) and isinstance(parsed.action, Place)


def test_the_worst_frame_for_the_depth_check_is_too_deep() -> None:
    """Catches: a depth check that lets a frame of nothing but brackets through to the JSON
    parser, or is off by one at MAX_DEPTH."""
    # How long it takes is bench/wire_bench.py's business, not the suite's.
    assert too_deep("[" * MAX_FRAME_BYTES)
    assert too_deep("[" * (MAX_DEPTH + 1)) and not too_deep("[" * MAX_DEPTH)


def test_size_limit() -> None:
    pad = MAX_FRAME_BYTES - len(json.dumps({**PLACE, "pad": ""}))
    fits = json.dumps({**PLACE, "pad": "x" * pad})
    assert len(fits.encode()) == MAX_FRAME_BYTES
    assert "unknown field 'pad'" in refused(fits).message  # read, then refused for the field
    over = json.dumps({**PLACE, "pad": "x" * (pad + 1)})
    assert "128 KB" in refused(over).message
    # Characters are not bytes: 2-byte characters count twice.
    wide = json.dumps({**PLACE, "pad": "é" * (pad // 2 + 1)}, ensure_ascii=False)
    assert len(wide) < MAX_FRAME_BYTES < len(wide.encode())
    assert "128 KB" in refused(wide).message


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"action": "rooms", "id": "a\xff"}', "UTF-8"),
        ('{"action": "rooms", "id": "\udcff"}', "UTF-8"),  # a lone surrogate in the text
        (None, "JSON object"),
        (17, "JSON object"),
        ({"action": "rooms"}, "JSON object"),
        ("", "JSON object"),
        ("{not json", "JSON object"),
        ('["place"]', "JSON object"),
        ("\ufeff{}", "JSON object"),
    ],
)
def test_bodies_that_are_no_json_object(body: object, says: str) -> None:
    err = refused(body)
    assert err.code == "malformed" and says in err.message and err.request_id is None


@pytest.mark.parametrize(
    ("fragment", "says"),
    [
        ('"digit": NaN', "NaN"),
        ('"digit": Infinity', "Infinity"),
        ('"digit": -Infinity', "Infinity"),
        ('"digit": 1e999', "out of range"),
        ('"digit": ' + "9" * 17, "16 digits"),
        ('"digit": -' + "9" * 5000, "16 digits"),
        ('"digit": 7, "digit": 8', "duplicate key 'digit'"),
        ('"digit": 7, "v": "\\ud800"', "Unicode"),
        ('"digit": 7, "x": {"\\udfff": 1}', "Unicode"),
    ],
)
def test_hostile_values_are_refused_and_the_id_is_kept(fragment: str, says: str) -> None:
    body = '{"action": "place", "id": "keep", "game": "g", "cell": [1, 2], ' + fragment + "}"
    err = refused(body)
    assert err.code == "malformed" and says in err.message, err.message
    assert err.request_id == "keep"


def test_huge_integers_are_refused_before_they_are_converted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches: a number converted before its length is checked (100,000 digits cost the
    CPU of a request, or past the interpreter's limit raise a ValueError that loses the
    request's id)."""
    # Converting 100,000 digits is what costs (or, past the interpreter's limit, raises
    # a ValueError that would lose the id): the length is checked on the text first.
    # What it costs when it is not: bench/wire_bench.py.
    converted: list[int] = []

    def counted(text: str) -> int:
        converted.append(len(text))
        return int(text)

    monkeypatch.setattr(wire, "int", counted, raising=False)
    body = '{"action": "sync", "id": "big", "game": "g", "v": ' + "9" * 100_000 + "}"
    err = refused(body)
    assert err.request_id == "big" and "16 digits" in err.message
    assert max(converted, default=0) <= MAX_INT_DIGITS


def test_an_id_that_cannot_be_echoed_is_dropped() -> None:
    assert refused('{"action": 1, "id": "a", "id": "b"}').request_id is None  # which one?
    assert refused('{"action": 1, "id": "\\ud800"}').request_id is None
    assert refused('{"action": 1, "id": ""}').request_id is None
    assert refused('{"action": 1, "id": "' + "x" * 65 + '"}').request_id is None
    assert refused('{"action": 1, "id": 5}').request_id is None
    assert refused('{"action": 1, "id": "fine"}').request_id == "fine"


def test_paired_surrogate_escapes_are_fine() -> None:
    request = read_request(json.dumps({**PLACE, "game": "g-\U0001f600"}))
    assert isinstance(request, GameAction) and isinstance(request.action, Place)
    assert request.game == "g-\U0001f600"


def test_unknown_fields_are_refused_by_name() -> None:
    err = refused(json.dumps({**PLACE, "colour": "blue"}))
    assert err.code == "malformed" and "unknown field 'colour'" in err.message
    assert err.request_id == "r1"


def test_every_field_refuses_every_wrong_type() -> None:
    wrong: list[object] = [None, True, 1, 1.5, "s", [], {}, [1], ["a", "b"], [1, 2, 3]]
    for name, kind in REQUEST_KINDS.items():
        fields = {f.name for shape in kind.shapes for f in fields_of(shape)}
        for field in fields:
            for value in wrong:
                frame = {"id": "w", "game": "g", "proposal": "p",
                         "room": "bridge", "variant": "bridge", "cell": [0, 0], "digit": 1}
                frame = {"action": name, **{k: v for k, v in frame.items() if k in fields}}
                frame[field] = value
                try:
                    parsed = read_request(json.dumps(frame))
                except FrameRefused as err:
                    assert err.code == "malformed"
                    continue
                # Accepted: the value must be one the field really allows.
                holder = (parsed.action if isinstance(parsed, GameAction)
                          and field not in ("id", "game") else parsed)
                assert getattr(holder, field) == (tuple(value) if isinstance(value, list)
                                                  else value), (name, field, value)
                required = {f.name for shape in kind.shapes for f in fields_of(shape)
                            if f.required}
                assert field not in required or value is not None


def test_binary_bodies_are_read_as_utf8() -> None:
    request = read_request(json.dumps(PLACE).encode())
    assert isinstance(request, GameAction) and request.action == Place((4, 3), 7)
