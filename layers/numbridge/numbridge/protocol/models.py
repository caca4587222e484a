"""Pydantic models of every frame the server sends, derived from their definitions:
the answers and pushed frames of :mod:`.answers`, the game events of
:mod:`numbridge.rules.events`. For the tests' checks of every posted frame and for
the AsyncAPI document — never for rendering, and never imported by a Lambda function.

A model has its definition's name, docstring, fields (in order), defaults and the
docstrings under its fields as descriptions. An undeclared field is refused at any
depth (a leak or a drift fails the tests that validate every posted frame); a rules
dataclass nested in a model is checked as strictly (pydantic applies the model's
configuration to it).
"""

from __future__ import annotations

import ast
import collections.abc
import inspect
import textwrap
import types
from dataclasses import MISSING, fields
from functools import cache
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import core_schema

from numbridge.club import proposals, rooms
from numbridge.protocol import answers
from numbridge.protocol.errors import ErrorCode
from numbridge.rules import seats, state, view_types
from numbridge.rules.events import EVENT_KINDS, EventBody

STRICT = ConfigDict(extra="forbid", use_attribute_docstrings=True, defer_build=True)

# The names the definitions' annotations use (they are strings, imported for types only).
_NAMES: dict[str, Any] = {
    "ErrorCode": ErrorCode, "ProposalDoc": proposals.ProposalDoc, "Room": rooms.Room,
    "ClueRange": rooms.ClueRange, "VariantSettings": rooms.VariantSettings,
    "BlockKind": seats.BlockKind, "Seat": seats.Seat, "Status": seats.Status,
    "Variant": seats.Variant, "Grade": seats.Grade, "Result": state.Result,
    "View": view_types.View,
    "Mapping": collections.abc.Mapping,
}


class Strict(BaseModel):
    """A frame or a part of one: an undeclared field is refused. Built once
    its module has defined them all."""

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


def _written_doc(cls: type) -> str | None:
    """The class's own docstring; None for the signature dataclasses put in its place."""
    doc = cls.__doc__
    return None if doc is None or doc.startswith(f"{cls.__name__}(") else doc


def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls, localns=_NAMES, include_extras=True)


def _declared(cls: type, all_required: bool = False,
              required: tuple[str, ...] = ()) -> dict[str, Any]:
    """Each field of a dataclass as ``create_model`` takes it (``required``: these too,
    whatever their default)."""
    hints, docs = _hints(cls), attribute_docs(cls)
    left_out = answers.UNLISTED.get(cls.__name__, ())
    declared: dict[str, Any] = {}
    for field in fields(cls):
        if field.name in left_out:
            continue
        default = (... if field.default is MISSING or all_required or field.name in required
                   else field.default)
        declared[field.name] = (_model_type(hints[field.name]), Field(
            default, description=docs.get(field.name),
            deprecated=bool(field.metadata.get("deprecated")) or None))
    return declared


def _model_type(hint: Any) -> Any:
    """A field's type with the answers' parts and the club's values swapped for their
    models (a view's JSON for the View)."""
    if hint is proposals.ProposalDoc:
        return proposal_model()
    if isinstance(hint, type):
        if hint.__module__ == answers.__name__ and hint.__name__ in _PARTS:
            return part_model(hint)
        if hint.__name__ in answers.PUBLIC_NAMES:
            return part_model(hint)
        return hint
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        described = args[1]
        if isinstance(described, str):  # a type of this module, named
            return _DESCRIBED[described]()
        return _model_type(described) if isinstance(described, type) else _model_type(args[0])
    if origin in (Union, types.UnionType):
        swapped = tuple(_model_type(a) for a in args)
        return Union[swapped]  # noqa: UP007 (built from a tuple)
    if origin is Literal or origin is None:
        return hint
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return list[_model_type(args[0])]  # type: ignore[misc]  # JSON has arrays
    if origin is tuple:
        return tuple[tuple(_model_type(a) for a in args)]  # type: ignore[misc]
    if origin is list:
        return list[_model_type(args[0])]  # type: ignore[misc]
    if origin in (dict, collections.abc.Mapping):
        return dict[_model_type(args[0]), _model_type(args[1])]  # type: ignore[misc]
    return hint


_PARTS = ("RatingChange", "GameSummary", "LeaderboardEntry", "LiveGame", "SeekShown",
          "TournamentShown", "StandingShown", "PairingShown", "TournamentYou",
          *(c.__name__ for c in answers.LOBBY_CHANGES))
# A change's ``kind`` has its class's name as default: required all the same (its other
# fields as declared: a tournament's may be optional).
_CHANGE_NAMES = frozenset(c.__name__ for c in answers.LOBBY_CHANGES)


@cache
def part_model(cls: type) -> type[Strict]:
    """The model of a part of an answer, or of a club value as the answers list it."""
    name = answers.PUBLIC_NAMES.get(cls.__name__, cls.__name__)
    if cls is rooms.Room:
        return _room_model()
    public = cls.__name__ in answers.PUBLIC_NAMES  # a club value: its doc is the club's
    return create_model(name, __base__=Strict,
                        __doc__=None if public else _written_doc(cls),
                        __module__=__name__,
                        **_declared(cls, all_required=public,
                                    required=("kind",) if name in _CHANGE_NAMES else ()))


def _room_model() -> type[Strict]:
    declared: dict[str, Any] = {}
    own = _declared(rooms.Room, all_required=True)
    for name, spec in own.items():
        if name == "variants":
            declared.update(_declared(answers.RoomVariants))
        else:
            declared[name] = spec
    declared.update(_declared(answers.RoomBoards))
    return create_model("RoomOut", __base__=Strict,
                        __doc__=_written_doc(answers.RoomVariants), __module__=__name__,
                        **declared)


@cache
def proposal_model() -> type[Strict]:
    """The proposal as the club keeps it is what the clients see: its model follows."""
    hints = get_type_hints(proposals.ProposalDoc, localns=_NAMES)
    optional = proposals.ProposalDoc.__optional_keys__
    docs = attribute_docs(proposals.ProposalDoc)
    declared: dict[str, Any] = {
        name: (hint | None, Field(None, description=docs.get(name))) if name in optional
        else (hint, ...) for name, hint in hints.items()}
    made: type[Strict] = create_model("ProposalOut", __base__=Strict, __module__=__name__,
                                      **declared)
    return made


_ANSWER_MODELS: dict[str, type[Strict]] = {}


def answer_model(cls: type[answers.Answer]) -> type[Strict]:
    """The model of an answer or pushed frame: ``type`` then its fields."""
    if cls.type in _ANSWER_MODELS:
        return _ANSWER_MODELS[cls.type]
    declared: dict[str, Any] = {"type": (Literal.__getitem__(cls.type), cls.type)}
    declared.update(_declared(cls))
    made: type[Strict] = create_model(cls.__name__, __base__=Strict, __doc__=_written_doc(cls),
                                      __module__=__name__, **declared)
    _ANSWER_MODELS[cls.type] = made
    return made


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


EVENTS: tuple[type[EventFrame], ...] = tuple(event_model(kind) for kind in EVENT_KINDS)


def _game_events() -> Any:
    """A game event as it stands alone (one of the kinds, or a placeholder); at least one."""
    kinds: Any = Union[(answer_model(answers.Hidden), *EVENTS)]
    one: Any = Annotated[kinds, Field(discriminator="type")]
    return Annotated[list[one], Field(min_length=1)]


def _lobby_changes() -> Any:
    """The changes of a lobby frame, each one of the kinds."""
    kinds: Any = Union[tuple(part_model(c) for c in answers.LOBBY_CHANGES)]  # noqa: UP007
    one: Any = Annotated[kinds, Field(discriminator="kind")]
    return Annotated[list[one], Field(min_length=1)]


_DESCRIBED = {"GameEvents": _game_events, "LobbyChanges": _lobby_changes}
ANSWERS: tuple[type[Strict], ...] = tuple(answer_model(a) for a in answers.ANSWERS)
HIDDEN: type[Strict] = answer_model(answers.Hidden)
PUSHED: tuple[type[Strict], ...] = tuple(answer_model(a) for a in answers.PUSHED)
EVENT_TYPES: dict[str, type[EventFrame]] = {
    kind.kind: model for kind, model in zip(EVENT_KINDS, EVENTS, strict=True)
}
_FIXED: tuple[type[answers.Answer], ...] = (*answers.ANSWERS, answers.Hidden, *answers.PUSHED)
FIXED_TYPES: dict[str, type[Strict]] = {a.type: answer_model(a) for a in _FIXED}


# Built here, once, in the importing thread: pydantic would build each on first use, and
# reads the docstrings under fields with ast.parse, which CPython 3.11 does not allow in
# two threads at once ("AST constructor recursion depth mismatch").
for _model in (*FIXED_TYPES.values(), *EVENT_TYPES.values()):
    _model.model_rebuild()


class JsonSchema(GenerateJsonSchema):
    """Says of a nested rules dataclass what validation does: no undeclared fields (pydantic
    writes ``additionalProperties`` only from a dataclass's own configuration)."""

    def dataclass_schema(self, schema: core_schema.DataclassSchema) -> JsonSchemaValue:
        json_schema = super().dataclass_schema(schema)
        if schema.get("config", {}).get("extra_fields_behavior") == "forbid":
            json_schema.setdefault("additionalProperties", False)
        return json_schema


def validate_frame(data: dict[str, Any]) -> BaseModel:
    """Validate a frame about to be posted (or received, in tests): an answer,
    a state, a placeholder, or one of the documented game events."""
    kind = data.get("type")
    if isinstance(kind, str) and kind in FIXED_TYPES:
        return FIXED_TYPES[kind].model_validate(data)
    if isinstance(kind, str) and kind in EVENT_TYPES:
        return EVENT_TYPES[kind].model_validate(data)
    raise ValueError(f"undocumented frame type {kind!r}")
