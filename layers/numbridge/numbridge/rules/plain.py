"""The JSON form of the rules' frozen dataclasses (events, views, results).

A dataclass becomes an object of its fields, less those left at their
default: an optional field is absent rather than ``null`` (``auto`` of an
``adjourned`` only when true, the Domains fields only in Domains). Tuples
become lists, so a cell is ``[r, c]``.
"""

from __future__ import annotations

from dataclasses import MISSING, fields, is_dataclass
from typing import Any


def plain(value: object) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        out = {}
        for field in fields(value):
            item = getattr(value, field.name)
            if field.default is MISSING or item != field.default:
                out[field.name] = plain(item)
        return out
    if isinstance(value, tuple):
        return [plain(item) for item in value]
    return value
