"""Pydantic models derived from the rules' dataclasses: for the tests' checks of every
frame and for the AsyncAPI document, never for rendering (see :mod:`.render`).

A rules dataclass nested in a model is checked as strictly as the model (pydantic
applies the model's configuration to it): an undeclared field is refused at any
depth. Field descriptions are the attribute docstrings of the definitions.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import MISSING, fields
from typing import Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from numbridge.rules.events import EventBody

STRICT = ConfigDict(extra="forbid", use_attribute_docstrings=True, defer_build=True)


class Strict(BaseModel):
    """A frame or a part of one: an undeclared field is refused (a leak or a drift fails
    the tests, which validate every posted frame). Built on first use."""

    model_config = STRICT


class EventFrame(Strict):
    """A game event: ``type`` is its kind, ``v`` the version it brings the game to."""

    game: str
    v: int


def attribute_docs(cls: type) -> dict[str, str]:
    """The docstrings written under a class's fields (what pydantic reads for nested ones)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]
    if not isinstance(tree, ast.ClassDef):
        raise TypeError(f"{cls!r} is not a class written in Python")
    docs: dict[str, str] = {}
    for node, after in zip(tree.body, tree.body[1:], strict=False):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs


def event_model(body: type[EventBody]) -> type[EventFrame]:
    """The frame of one event kind: ``type``, ``game``, ``v`` and the body's fields."""
    hints = get_type_hints(body)
    docs = attribute_docs(body)
    declared: dict[str, Any] = {"type": (Literal.__getitem__(body.kind), ...)}
    for field in fields(body):  # type: ignore[arg-type]
        default = ... if field.default is MISSING else field.default
        declared[field.name] = (hints[field.name], Field(
            default, description=docs.get(field.name),
            deprecated=bool(field.metadata.get("deprecated")) or None))
    return create_model(body.__name__, __base__=EventFrame, __doc__=body.__doc__,
                        __module__=__name__, **declared)


class JsonSchema(GenerateJsonSchema):
    """Says of a nested rules dataclass what validation does: no undeclared fields (pydantic
    writes ``additionalProperties`` only from a dataclass's own configuration)."""

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> JsonSchemaValue:
        json_schema = super().dataclass_schema(schema)
        if schema.get("config", {}).get("extra_fields_behavior") == "forbid":
            json_schema.setdefault("additionalProperties", False)
        return json_schema
