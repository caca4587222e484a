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
    shape = _shape(type(value))
    if shape is not None:
        out = {}
        for name, default in shape:
            item = getattr(value, name)
            if default is MISSING or item != default:
                out[name] = plain(item)
        return out
    if isinstance(value, tuple):
        return [plain(item) for item in value]
    return value


Shape = tuple[tuple[str, Any], ...] | None
# Each type's shape, read once (every event and view passes through plain); a dict
# rather than functools.cache, which mypy will not take a type object for.
_SHAPES: dict[type, Shape] = {}


def _shape(cls: type) -> Shape:
    """A dataclass's fields and their defaults; None for any other type."""
    try:
        return _SHAPES[cls]
    except KeyError:
        shape = tuple((f.name, f.default) for f in fields(cls)) if is_dataclass(cls) else None
        return _SHAPES.setdefault(cls, shape)
