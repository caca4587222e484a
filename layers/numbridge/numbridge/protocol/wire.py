"""Reading one client frame off the wire: text to a JSON object, once, within limits.

Every check runs before the cost it guards: the size before decoding, the
nesting depth before ``json.loads`` (which recurses, and raises
RecursionError past Python's limit), the length of an integer before its
conversion. What is refused is a :class:`ProtocolError` ``malformed``.

Limits:

- :data:`MAX_FRAME_BYTES` of UTF-8 (API Gateway's message limit; it closes
  the connection on anything larger, so this is what reaches the handler);
- :data:`MAX_DEPTH` levels of arrays and objects;
- integers of at most :data:`MAX_INT_DIGITS` digits (no field needs more);
- no NaN, Infinity or float overflow; no duplicate keys; strings that are
  valid Unicode (no lone surrogates, which could not be answered or stored).
"""

from __future__ import annotations

import json
import re
from typing import Any, NoReturn

from numbridge.protocol.errors import ErrorCode, ProtocolError

MAX_FRAME_BYTES = 128 * 1024
MAX_DEPTH = 32
MAX_INT_DIGITS = 16
MAX_ID_CHARS = 64

# A JSON string, escapes included (unrolled so the match is linear).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class FrameRefused(ProtocolError):
    """A frame refused before it became a request; ``request_id`` if it could be read."""

    def __init__(self, code: ErrorCode, message: str, request_id: str | None = None) -> None:
        super().__init__(code, message)
        self.request_id = request_id


def _refuse(message: str, request_id: str | None = None) -> NoReturn:
    raise FrameRefused("malformed", message, request_id)


def as_text(body: object) -> str:
    """The frame as text: a str, or bytes that are UTF-8; anything else is refused."""
    if isinstance(body, bytes | bytearray | memoryview):
        data = bytes(body)
        if len(data) > MAX_FRAME_BYTES:
            _refuse(f"the frame is over {MAX_FRAME_BYTES // 1024} KB")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            _refuse("the frame is not valid UTF-8")
    if not isinstance(body, str):
        _refuse("a frame must be one JSON object (text)")
    if len(body) > MAX_FRAME_BYTES:  # characters: a lower bound of the bytes
        _refuse(f"the frame is over {MAX_FRAME_BYTES // 1024} KB")
    try:
        size = len(body.encode("utf-8"))
    except UnicodeEncodeError:
        _refuse("the frame is not valid UTF-8")
    if size > MAX_FRAME_BYTES:
        _refuse(f"the frame is over {MAX_FRAME_BYTES // 1024} KB")
    return body


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays and objects nest deeper than ``limit`` (brackets in strings aside).

    Cheap: a frame with at most ``limit`` brackets cannot be too deep; else the
    strings are blanked and the brackets counted (unbalanced text is refused
    by the parser anyway).
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for bracket in _BRACKETS.findall(_STRING.sub('""', text)):
        if bracket in "[{":
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


class _Reader:
    """``json.loads`` hooks that note what is refused instead of raising, so the
    parse still yields the frame's id for the error answer."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.duplicates: set[str] = set()

    def pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        obj: dict[str, Any] = {}
        for key, value in pairs:
            if key in obj:
                self.duplicates.add(key)
                self.problems.append(f"a duplicate key {key[:64]!r}")
                continue
            obj[key] = value
        return obj

    def integer(self, text: str) -> int:
        if len(text.lstrip("-")) > MAX_INT_DIGITS:
            self.problems.append(f"an integer of more than {MAX_INT_DIGITS} digits")
            return 0
        return int(text)

    def number(self, text: str) -> float:
        value = float(text)
        if value in (INFINITY, -INFINITY):
            self.problems.append("a number out of range (Infinity)")
            return 0.0
        return value

    def constant(self, name: str) -> None:
        self.problems.append(f"{name}, which is not JSON")

    def strings(self, value: object) -> None:
        """Every string, keys included, must encode as UTF-8 (``\\uD800`` alone does not)."""
        if isinstance(value, str):
            if not _encodable(value):
                self.problems.append("a string that is not valid Unicode")
        elif isinstance(value, dict):
            for key, item in value.items():
                self.strings(key)
                self.strings(item)
        elif isinstance(value, list):
            for item in value:
                self.strings(item)


INFINITY = float("inf")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def load_object(body: object) -> tuple[dict[str, Any], str | None]:
    """The frame as a JSON object and its request id; :class:`FrameRefused` if it is not one."""
    text = as_text(body)
    if too_deep(text):
        _refuse(f"the frame nests deeper than {MAX_DEPTH} levels")
    reader = _Reader()
    try:
        value = json.loads(text, object_pairs_hook=reader.pairs, parse_int=reader.integer,
                           parse_float=reader.number, parse_constant=reader.constant)
    except json.JSONDecodeError as exc:
        _refuse(f"a frame must be one JSON object: {exc.msg} at character {exc.pos}")
    except (ValueError, RecursionError):  # neither can happen past the checks above
        _refuse("a frame must be one JSON object")
    if not isinstance(value, dict):
        _refuse("a frame must be one JSON object")
    if "\\u" in text:  # only an escape can make a lone surrogate
        reader.strings(value)
    rid = None if "id" in reader.duplicates else request_id(value)
    if reader.problems:
        _refuse(f"the frame has {reader.problems[0]}", rid)
    return value, rid


def request_id(frame: dict[str, Any]) -> str | None:
    """The frame's ``id`` if it is one that may be echoed back (1 to 64 characters)."""
    rid = frame.get("id")
    if isinstance(rid, str) and 0 < len(rid) <= MAX_ID_CHARS and _encodable(rid):
        return rid
    return None
