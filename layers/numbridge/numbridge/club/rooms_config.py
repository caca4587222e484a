"""Loading a rooms configuration: :func:`load_rooms` reads the file named by its
argument, else by ``$ROOMS_CONFIG``, else the packaged ``rooms.yaml``, and validates
it (pydantic), once per process, when the rooms are first needed.

The models here describe the configuration as written and check it; the
rooms handed out are :mod:`numbridge.club.rooms`' plain frozen values, so
importing the rooms costs neither YAML nor pydantic.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    field_validator,
    model_validator,
)

from numbridge.club import rooms as rt
from numbridge.club.config_entries import described, validated_entries
from numbridge.club.proposals import BlockKind, Variant
from numbridge.rules.seats import GRADES, Grade

RoomId = Annotated[StrictStr, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,31}$")]
Millis = Annotated[StrictInt, Field(gt=0)]
TakePrice = Annotated[StrictInt, Field(ge=1, le=rt.HAND_SIZE)]
# The C parser where PyYAML has it (Lambda's wheels do): a few times faster.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_rooms(path: str | Path | None = None) -> rt.Rooms:
    """Read and validate a rooms configuration.

    ``path`` if given, else the file named by ``$ROOMS_CONFIG`` if set and not
    empty, else the packaged ``rooms.yaml``.
    """
    if path is None:
        path = os.environ.get(rt.ROOMS_CONFIG_ENV) or None
        if path is None:
            resource = resources.files("numbridge.club") / rt.DEFAULT_ROOMS_RESOURCE
            return parse_rooms_yaml(resource.read_text(encoding="utf-8"), "(packaged rooms.yaml)")
        source = f"{path} (from ${rt.ROOMS_CONFIG_ENV})"
    else:
        source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise rt.RoomsConfigError(source, [f"cannot read the file: {exc.strerror or exc}"]) from exc
    return parse_rooms_yaml(text, source)


def parse_rooms_yaml(text: str, source: str = "(text)") -> rt.Rooms:
    """Validate rooms configuration text (YAML); ``source`` names it in errors."""
    try:
        data = yaml.load(text, Loader=_Loader)  # both loaders are safe: plain data only
    except yaml.YAMLError as exc:
        raise rt.RoomsConfigError(source, [f"not valid YAML: {exc}"]) from exc
    return parse_rooms(data, source)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _ClueRange(_Model):
    min: Annotated[StrictInt, Field(ge=0)]
    max: Annotated[StrictInt, Field(ge=0)]
    default: Annotated[StrictInt, Field(ge=0)]

    @model_validator(mode="after")
    def _ordered(self) -> _ClueRange:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        if not self.min <= self.default <= self.max:
            raise ValueError(f"default {self.default} is not within min {self.min}, max {self.max}")
        return self


class _VariantSettings(_Model):
    variant: Variant
    size: StrictInt
    clues: _ClueRange
    take_price: TakePrice

    @model_validator(mode="after")
    def _fits_board(self) -> _VariantSettings:
        board = rt.VARIANT_SIZES[self.variant]
        if self.size != board:
            raise ValueError(f"size: a {self.variant} board has size {board}, not {self.size}")
        cells = self.size * self.size
        if self.clues.max >= cells:
            raise ValueError(
                f"clues.max {self.clues.max} leaves no empty cell on a {cells}-cell board"
            )
        return self


class _VariantSpec(_Model):
    """A variant's settings as written: explicit, or ``like`` another room plus overrides."""

    like: RoomId | None = None
    size: StrictInt | None = None
    clues: _ClueRange | None = None
    take_price: TakePrice | None = None

    @model_validator(mode="after")
    def _complete(self) -> _VariantSpec:
        if self.like is None:
            missing = [k for k in ("size", "clues", "take_price") if getattr(self, k) is None]
            if missing:
                raise ValueError(f"give {', '.join(missing)}, or `like: ROOM` to copy them")
        return self


class _RoomBase(_Model):
    id: RoomId
    title: Annotated[StrictStr, Field(min_length=1)]
    move_ms: Millis
    game_ms: Millis | None
    highlighting: StrictBool
    blocks: Annotated[tuple[BlockKind, ...], Field(min_length=1)]
    spectators: StrictBool = True
    grades: tuple[Grade, Grade] | None = None

    @field_validator("grades", mode="before")
    @classmethod
    def _on_ladder(cls, grades: object) -> object:
        # Said here, whole, so a misspelt grade names the ladder it must come from.
        ladder = ", ".join(GRADES)
        if grades is None:
            return None
        if not isinstance(grades, list | tuple) or len(grades) != 2:
            raise ValueError(f"give [easiest, hardest], two of: {ladder}")
        unknown = [g for g in grades if g not in GRADES]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is no grade; the ladder is: {ladder}")
        if GRADES.index(grades[0]) > GRADES.index(grades[1]):
            raise ValueError(f"easiest first: {grades[0]} is harder than {grades[1]} "
                             f"(the ladder: {ladder})")
        return grades

    @field_validator("blocks")
    @classmethod
    def _distinct(cls, blocks: tuple[BlockKind, ...]) -> tuple[BlockKind, ...]:
        if len(set(blocks)) != len(blocks):
            raise ValueError("a block kind is listed twice")
        return blocks


class _RoomSpec(_RoomBase):
    variants: Annotated[dict[Variant, _VariantSpec], Field(min_length=1)]


class _Room(_RoomBase):
    variants: Annotated[dict[Variant, _VariantSettings], Field(min_length=1)]

    @model_validator(mode="after")
    def _keys_match(self) -> _Room:
        for key, settings in self.variants.items():
            if settings.variant != key:
                raise ValueError(f"variants.{key} holds settings for {settings.variant}")
        return self


def _plain(room: _Room) -> rt.Room:
    """The validated room as the frozen value the rest of the code uses: each room
    option as checked, the variants as the club's values."""
    variants = {
        variant: rt.VariantSettings(
            variant=s.variant, size=s.size, clues=rt.ClueRange(**s.clues.model_dump()),
            take_price=s.take_price)
        for variant, s in room.variants.items()
    }
    return rt.Room(**room.model_dump(exclude={"variants"}), variants=variants)


# -- loading -------------------------------------------------------------------------------


def parse_rooms(data: object, source: str = "(data)") -> rt.Rooms:
    """Validate a rooms configuration already parsed into plain data."""
    if not isinstance(data, dict) or set(data) != {"rooms"}:
        raise rt.RoomsConfigError(source, ["the file must hold one key, `rooms`: a list of rooms"])
    entries = data["rooms"]
    if not isinstance(entries, list) or not entries:
        raise rt.RoomsConfigError(source, ["`rooms` must be a non-empty list of rooms"])

    specs, problems = validated_entries(entries, _RoomSpec, "room", lambda spec: spec.id,
                                        whole="(room)")

    known_ids = {e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)}
    rooms: list[_Room] = []
    for spec in specs.values():
        label = f"room {spec.id!r}"
        resolved: dict[str, dict[str, Any]] = {}
        for variant in spec.variants:
            try:
                resolved[variant] = _resolve(specs, known_ids, spec.id, variant, ())
            except _Unresolved as exc:
                problems.append(f"{label}: variants.{variant}.like: {exc}")
        if len(resolved) != len(spec.variants):
            continue
        raw = spec.model_dump(exclude={"variants"}) | {"variants": resolved}
        try:
            rooms.append(_Room.model_validate(raw))
        except ValidationError as exc:
            problems.extend(described(label, exc, _inherited_note(spec), whole="(room)"))

    if problems:
        raise rt.RoomsConfigError(source, problems)
    return rt.Rooms(_plain(room) for room in rooms)


class _Unresolved(Exception):
    pass


def _resolve(
    specs: Mapping[str, _RoomSpec],
    known_ids: set[str],
    room_id: str,
    variant: Variant,
    trail: tuple[str, ...],
) -> dict[str, Any]:
    """The explicit settings of ``variant`` in room ``room_id``, following ``like``."""
    spec = specs[room_id].variants[variant]
    base: dict[str, Any] = {}
    if spec.like is not None:
        target = spec.like
        if target in trail or target == room_id:
            chain = " → ".join((*trail, room_id, target))
            raise _Unresolved(f"`like` goes round in a circle: {chain}")
        if target not in specs:
            if target in known_ids:
                raise _Unresolved(f"room {target!r} is itself invalid (see its problems)")
            raise _Unresolved(f"there is no room {target!r}")
        if variant not in specs[target].variants:
            raise _Unresolved(f"room {target!r} does not offer {variant}")
        base = _resolve(specs, known_ids, target, variant, (*trail, room_id))
    own = spec.model_dump(exclude={"like"}, exclude_none=True)
    return base | own | {"variant": variant}


def _inherited_note(spec: _RoomSpec) -> Mapping[str, str]:
    return {
        variant: f" (with `like: {vs.like}`)"
        for variant, vs in spec.variants.items()
        if vs.like is not None
    }
