"""Strict checks of JSON values against a dataclass's typed fields, and their JSON Schema.

A request is declared once, as a frozen dataclass (``rules.actions`` for the
game's actions, :mod:`.requests` for the club's); this module reads those
declarations to check a frame's fields and to write the AsyncAPI schemas, so
neither is written a second time. It is plain Python: a cold start should not
pay for a validation library.

Field types understood: ``str``, ``int``, ``bool``, ``Literal[...]`` of
strings, ``tuple[int, int]`` (a JSON array of two integers), ``X | None``, and
``Annotated[X, Text(..)/AtLeast(..)/Doc(..)]`` for bounds and descriptions.
Nothing is coerced: ``"3"`` is not an int and ``1`` is not ``true``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, Union

from numbridge.values import frozen


@frozen
class Text:
    """A string of ``min`` to ``max`` characters."""

    min: int
    max: int


@frozen
class AtLeast:
    """An integer no smaller than ``n``."""

    n: int


@frozen
class Doc:
    """What the field means, for the protocol's schema."""

    text: str


class ShapeError(ValueError):
    """A value that does not fit its field; the message names the field."""


Check = Callable[[object], object]


@frozen
class Field:
    name: str
    check: Check
    required: bool
    default: object
    schema: dict[str, Any]


def _is_int(value: object) -> bool:
    return type(value) is int


def _compile(hint: Any, where: str) -> tuple[Check, dict[str, Any]]:
    """The check of one type hint and its JSON Schema."""
    extras: list[object] = []
    if typing.get_origin(hint) is typing.Annotated:
        hint, *extras = typing.get_args(hint)
    check, schema = _compile_bare(hint, where)
    for extra in extras:
        check, schema = _constrain(check, schema, extra, where)
    return check, schema


def _constrain(check: Check, schema: dict[str, Any], extra: object,
               where: str) -> tuple[Check, dict[str, Any]]:
    if isinstance(extra, Doc | str):  # a bare string: how the pure rules document a field
        said = extra.text if isinstance(extra, Doc) else extra
        return check, {**schema, "description": said}
    if isinstance(extra, Text):
        lo, hi = extra.min, extra.max

        def text(value: object) -> object:
            value = check(value)
            assert isinstance(value, str)
            if not lo <= len(value) <= hi:
                raise ShapeError(f"{where}: {lo} to {hi} characters")
            return value

        return text, {**schema, "minLength": lo, "maxLength": hi}
    if isinstance(extra, AtLeast):
        n = extra.n

        def at_least(value: object) -> object:
            value = check(value)
            assert isinstance(value, int)
            if value < n:
                raise ShapeError(f"{where}: at least {n}")
            return value

        return at_least, {**schema, "minimum": n}
    raise TypeError(f"{where}: unknown constraint {extra!r}")


def _compile_bare(hint: Any, where: str) -> tuple[Check, dict[str, Any]]:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        members = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(members) != 1 or len(typing.get_args(hint)) != 2:
            raise TypeError(f"{where}: only `X | None` unions are supported")
        inner, schema = _compile(members[0], where)

        def optional(value: object) -> object:
            return None if value is None else inner(value)

        return optional, {"anyOf": [schema, {"type": "null"}]}
    if origin is Literal:
        allowed = typing.get_args(hint)
        if not all(isinstance(a, str) for a in allowed):
            raise TypeError(f"{where}: only string literals are supported")
        said = ", ".join(repr(a) for a in allowed)

        def one_of(value: object) -> object:
            if not isinstance(value, str) or value not in allowed:
                raise ShapeError(f"{where}: one of {said}")
            return value

        literal: dict[str, Any] = (
            {"const": allowed[0], "type": "string"} if len(allowed) == 1
            else {"enum": list(allowed), "type": "string"})
        return one_of, literal
    if origin is tuple:
        args = typing.get_args(hint)
        if args != (int, int):
            raise TypeError(f"{where}: only tuple[int, int] is supported")

        def pair(value: object) -> object:
            if (not isinstance(value, list | tuple) or len(value) != 2
                    or not all(_is_int(v) for v in value)):
                raise ShapeError(f"{where}: a pair [r, c] of integers")
            return (value[0], value[1])

        return pair, {"type": "array", "prefixItems": [{"type": "integer"}] * 2,
                      "minItems": 2, "maxItems": 2}
    if hint is str:
        def string(value: object) -> object:
            if not isinstance(value, str):
                raise ShapeError(f"{where}: a string")
            return value

        return string, {"type": "string"}
    if hint is bool:
        def boolean(value: object) -> object:
            if type(value) is not bool:
                raise ShapeError(f"{where}: true or false")
            return value

        return boolean, {"type": "boolean"}
    if hint is int:
        def integer(value: object) -> object:
            if not _is_int(value):
                raise ShapeError(f"{where}: an integer")
            return value

        return integer, {"type": "integer"}
    raise TypeError(f"{where}: unsupported field type {hint!r}")


_FIELDS: dict[type, tuple[Field, ...]] = {}


def fields_of(cls: type) -> tuple[Field, ...]:
    """The checked fields of a dataclass, compiled on first use (a cold start builds
    only the few a function serves)."""
    cached = _FIELDS.get(cls)
    if cached is not None:
        return cached
    hints = typing.get_type_hints(cls, include_extras=True)
    compiled = []
    for f in dataclasses.fields(cls):
        if not f.init or not f.metadata.get("wire", True):
            continue
        check, schema = _compile(hints[f.name], f.name)
        required = (f.default is dataclasses.MISSING
                    and f.default_factory is dataclasses.MISSING)
        default = None if required else f.default
        if not required:
            schema = {**schema, "default": default}
        compiled.append(Field(f.name, check, required, default, schema))
    _FIELDS[cls] = result = tuple(compiled)
    return result


_NAMES: dict[type, frozenset[str]] = {}


def field_names(cls: type) -> frozenset[str]:
    """The names of :func:`fields_of`, kept with them."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = frozenset(f.name for f in fields_of(cls))
    return names


def read_fields(cls: type, values: Mapping[str, object],
                ignore: frozenset[str] = frozenset()) -> dict[str, object]:
    """The keyword arguments for ``cls`` from a JSON object: every field checked, the
    missing ones defaulted, an unknown one refused (a misspelt optional field must
    not pass unseen). Raises :class:`ShapeError` naming up to five problems."""
    known = fields_of(cls)
    names = field_names(cls)
    problems = [f"unknown field {k[:64]!r}" for k in values
                if k not in names and k not in ignore]
    kwargs: dict[str, object] = {}
    for f in known:
        if f.name not in values:
            if f.required:
                problems.append(f"{f.name}: required")
            else:
                kwargs[f.name] = f.default
            continue
        try:
            kwargs[f.name] = f.check(values[f.name])
        except ShapeError as exc:
            problems.append(str(exc))
    if problems:
        raise ShapeError("; ".join(problems[:5]))
    return kwargs


def object_schema(shapes: Sequence[type], head: Mapping[str, dict[str, Any]],
                  description: str | None = None) -> dict[str, Any]:
    """The JSON Schema of a frame: ``head`` (e.g. its ``action``), then the fields of
    each dataclass in ``shapes``, as a closed object."""
    properties = dict(head)
    required = list(head)
    for shape in shapes:
        for f in fields_of(shape):
            properties[f.name] = f.schema
            if f.required:
                required.append(f.name)
    schema: dict[str, Any] = {"type": "object", "properties": properties,
                              "required": required, "additionalProperties": False}
    if description:
        schema["description"] = description
    return schema


def summary(cls: type) -> str | None:
    """The first paragraph of a class's own docstring, as one line (none for the
    signature ``dataclass`` writes when there is no docstring)."""
    doc = cls.__dict__.get("__doc__") or ""
    if not doc or doc.startswith(cls.__name__ + "("):
        return None
    return " ".join(doc.strip().split("\n\n")[0].split())
