"""Lists a page at a time: every list answer fits one API Gateway frame (32 KB).

A page holds at most :data:`PAGE_SIZE` entries (the largest entry of any list
is well under 32 KB / PAGE_SIZE; a test checks a page of the largest entries
fits). The ``next`` cursor a client sends back as ``after`` is opaque: the
store's own cursor, with the room it belongs to when a list spans rooms.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Sequence
from typing import TypeVar

from numbridge.protocol import ProtocolError
from numbridge.store.port import BadCursor

PAGE_SIZE = 50
MAX_FRAME_BYTES = 32 * 1024

Row = TypeVar("Row")
Lister = Callable[[str, int, str | None], tuple[list[Row], str | None]]


def refused_cursor() -> ProtocolError:
    return ProtocolError("malformed", "`after` is not a cursor of this list: send the `next` "
                                      "of the previous page")


def one_page(list_page: Callable[[int, str | None], tuple[list[Row], str | None]],
             after: str | None) -> tuple[list[Row], str | None]:
    """One page of a single list; a foreign cursor is the client's mistake."""
    try:
        return list_page(PAGE_SIZE, after)
    except BadCursor as exc:
        raise refused_cursor() from exc


def across(scopes: Sequence[str], list_page: Lister[Row], after: str | None,
           keep: Callable[[Row], bool] = lambda _: True,
           ) -> tuple[list[Row], str | None]:
    """One page of several lists read one after another (``scopes`` in order)."""
    start, cursor = _decode(after, scopes)
    found: list[Row] = []
    for index in range(start, len(scopes)):
        scope = scopes[index]
        try:
            items, following = list_page(scope, PAGE_SIZE - len(found), cursor)
        except BadCursor as exc:
            raise refused_cursor() from exc
        found += [item for item in items if keep(item)]
        cursor = None
        if following is not None:
            return found, _encode(scope, following)
        if len(found) >= PAGE_SIZE:
            return found, _encode(scopes[index + 1], None) if index + 1 < len(scopes) else None
    return found, None


def _encode(scope: str, cursor: str | None) -> str:
    return base64.urlsafe_b64encode(json.dumps([scope, cursor]).encode()).decode()


def _decode(after: str | None, scopes: Sequence[str]) -> tuple[int, str | None]:
    if after is None:
        return 0, None
    try:
        scope, cursor = json.loads(base64.urlsafe_b64decode(after.encode()))
    except (ValueError, TypeError, binascii.Error, UnicodeError) as exc:
        raise refused_cursor() from exc
    if scope not in scopes or not (cursor is None or isinstance(cursor, str)):
        raise refused_cursor()
    return list(scopes).index(scope), cursor
