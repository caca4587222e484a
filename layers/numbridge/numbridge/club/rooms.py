"""Rooms from configuration (RULES.md §11): a new room needs no code change.

The configuration is a YAML file (the shipped default is ``rooms.yaml`` beside
this module; its header documents the format)::

    rooms:
      - id: domains
        title: Domains
        variants:
          domains: {size: 9, clues: {min: 22, max: 34, default: 30}, take_price: 1}
        move_ms: 45000
        game_ms: 1200000          # null: no game clock
        highlighting: true        # candidate highlighting may be switched on
        blocks: [regular, irregular]
      - id: study
        title: Study
        variants:                 # several: a proposal names one
          bridge: {like: bridge}  # board, clues and take price as in room "bridge"
          blitz: {like: blitz, take_price: 1}   # ... keys beside ``like`` override
        move_ms: 120000
        game_ms: null
        highlighting: true
        blocks: [regular, irregular]

Per variant: ``size``, ``clues`` and ``take_price`` (the settings that depend on
the board). Per room: clocks, highlighting and block kinds.

:func:`load_rooms` reads the file named by its argument, else by the
``ROOMS_CONFIG`` environment variable, else the packaged default, and raises
:class:`RoomsConfigError` listing every problem as ``room 'ID': FIELD: what``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Final

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

from numbridge.club.proposals import (
    BlockKind,
    ProposalChoices,
    ProposalRejected,
    Variant,
)
from numbridge.rules import GameOptions

ROOMS_CONFIG_ENV: Final = "ROOMS_CONFIG"
DEFAULT_ROOMS_RESOURCE: Final = "rooms.yaml"

# The board of each variant (RULES.md §2, §10): 9x9 Bridge and Domains, 6x6 Blitz.
VARIANT_SIZES: Final[Mapping[Variant, int]] = {"bridge": 9, "blitz": 6, "domains": 9}
# Tiles in a full hand (RULES.md §3): a clue can never cost more.
HAND_SIZE: Final = 3

RoomId = Annotated[StrictStr, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,31}$")]
Millis = Annotated[StrictInt, Field(gt=0)]
TakePrice = Annotated[StrictInt, Field(ge=1, le=HAND_SIZE)]


class RoomsConfigError(ValueError):
    """The rooms configuration is unreadable or invalid; ``problems`` lists each fault."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = tuple(problems)
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(f"invalid rooms configuration {source}:\n{lines}")


class UnknownRoom(LookupError):
    """No room with that id."""

    def __init__(self, room_id: str, known: tuple[str, ...]) -> None:
        self.room_id = room_id
        super().__init__(f"no room {room_id!r}; the rooms are: {', '.join(known)}")


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ClueRange(_Model):
    """How many cells are open at the deal: ``min`` ≤ ``default`` ≤ ``max``."""

    min: Annotated[StrictInt, Field(ge=0)]
    max: Annotated[StrictInt, Field(ge=0)]
    default: Annotated[StrictInt, Field(ge=0)]

    @model_validator(mode="after")
    def _ordered(self) -> ClueRange:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        if not self.min <= self.default <= self.max:
            raise ValueError(f"default {self.default} is not within min {self.min}, max {self.max}")
        return self

    def to_public(self) -> dict[str, int]:
        return {"min": self.min, "max": self.max, "default": self.default}


class VariantSettings(_Model):
    """A variant's board settings in one room."""

    variant: Variant
    size: StrictInt
    clues: ClueRange
    take_price: TakePrice

    @model_validator(mode="after")
    def _fits_board(self) -> VariantSettings:
        board = VARIANT_SIZES[self.variant]
        if self.size != board:
            raise ValueError(f"size: a {self.variant} board has size {board}, not {self.size}")
        cells = self.size * self.size
        if self.clues.max >= cells:
            raise ValueError(
                f"clues.max {self.clues.max} leaves no empty cell on a {cells}-cell board"
            )
        return self

    def to_public(self) -> dict[str, Any]:
        return {"size": self.size, "clues": self.clues.to_public(), "take_price": self.take_price}


class _VariantSpec(_Model):
    """A variant's settings as written: explicit, or ``like`` another room plus overrides."""

    like: RoomId | None = None
    size: StrictInt | None = None
    clues: ClueRange | None = None
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

    @field_validator("blocks")
    @classmethod
    def _distinct(cls, blocks: tuple[BlockKind, ...]) -> tuple[BlockKind, ...]:
        if len(set(blocks)) != len(blocks):
            raise ValueError("a block kind is listed twice")
        return blocks


class _RoomSpec(_RoomBase):
    variants: Annotated[dict[Variant, _VariantSpec], Field(min_length=1)]


class Room(_RoomBase):
    """One room: the variants it offers (each with its board settings) and its clocks.

    - ``variants``: variant → :class:`VariantSettings`, in the configured order;
    - ``move_ms``: per-move limit; ``game_ms``: each player's game time, ``None``
      for no game clock;
    - ``highlighting``: whether a proposal may switch candidate highlighting on;
    - ``blocks``: the block kinds a proposal may choose.
    """

    variants: Annotated[dict[Variant, VariantSettings], Field(min_length=1)]

    @model_validator(mode="after")
    def _keys_match(self) -> Room:
        for key, settings in self.variants.items():
            if settings.variant != key:
                raise ValueError(f"variants.{key} holds settings for {settings.variant}")
        return self

    @property
    def variant(self) -> Variant | None:
        """The room's only variant, or ``None`` when a proposal must choose one."""
        if len(self.variants) == 1:
            return next(iter(self.variants))
        return None

    def settings(self, variant: Variant) -> VariantSettings:
        """The board settings of ``variant`` here; :class:`ProposalRejected` if not offered."""
        try:
            return self.variants[variant]
        except KeyError:
            offered = ", ".join(self.variants)
            raise ProposalRejected(
                f"room {self.id!r} does not offer {variant!r} (it offers: {offered})"
            ) from None

    def to_public(self) -> dict[str, Any]:
        """This room as listed in the ``rooms`` frame.

        ``variant``, ``size``, ``clues`` and ``take_price`` describe the room's
        only variant; in a room offering several they are ``None`` and a
        proposal must name one. ``by_variant`` always holds each offered
        variant's ``size``, ``clues`` and ``take_price``.
        """
        only = self.variant
        single = self.variants[only].to_public() if only is not None else None
        return {
            "id": self.id,
            "title": self.title,
            "variant": only,
            "variants": list(self.variants),
            "size": single["size"] if single else None,
            "clues": single["clues"] if single else None,
            "take_price": single["take_price"] if single else None,
            "move_ms": self.move_ms,
            "game_ms": self.game_ms,
            "highlighting": self.highlighting,
            "blocks": list(self.blocks),
            "by_variant": {v: s.to_public() for v, s in self.variants.items()},
        }

    def game_options(self, choices: ProposalChoices) -> GameOptions:
        """The options of a game proposed here with ``choices``.

        Raises :class:`ProposalRejected` for a variant not offered (or missing
        where the room offers several), a block kind not allowed, a clue count
        outside the room's range, or highlighting where the room forbids it.
        """
        if choices.variant is not None:
            variant = choices.variant
        elif self.variant is not None:
            variant = self.variant
        else:
            raise ProposalRejected(
                f"room {self.id!r} offers {', '.join(self.variants)}: choose a variant"
            )
        settings = self.settings(variant)
        if choices.blocks not in self.blocks:
            raise ProposalRejected(
                f"room {self.id!r} does not allow {choices.blocks} blocks"
                f" (allowed: {', '.join(self.blocks)})"
            )
        clues = settings.clues.default if choices.clues is None else choices.clues
        if not settings.clues.min <= clues <= settings.clues.max:
            raise ProposalRejected(
                f"clues must be between {settings.clues.min} and {settings.clues.max}"
                f" for {variant} in room {self.id!r}, not {clues}"
            )
        if choices.highlighting and not self.highlighting:
            raise ProposalRejected(f"room {self.id!r} does not allow candidate highlighting")
        highlighting = self.highlighting if choices.highlighting is None else choices.highlighting
        return GameOptions(
            room=self.id,
            variant=variant,
            size=settings.size,
            blocks=choices.blocks,
            clues=clues,
            take_price=settings.take_price,
            move_ms=self.move_ms,
            game_ms=self.game_ms,
            highlighting=highlighting,
            rated=choices.rated,
        )


class Rooms:
    """Every room, in the configured order (the order of the ``rooms`` frame). Immutable."""

    __slots__ = ("_by_id", "_rooms")

    def __init__(self, rooms: Iterable[Room]) -> None:
        self._rooms = tuple(rooms)
        self._by_id = {room.id: room for room in self._rooms}
        if len(self._by_id) != len(self._rooms):
            ids = [room.id for room in self._rooms]
            twice = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"room ids used twice: {', '.join(twice)}")

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._by_id)

    def get(self, room_id: str) -> Room:
        """The room ``room_id``; :class:`UnknownRoom` if there is none."""
        try:
            return self._by_id[room_id]
        except (KeyError, TypeError):
            raise UnknownRoom(room_id, self.ids) from None

    def __contains__(self, room_id: object) -> bool:
        return isinstance(room_id, str) and room_id in self._by_id

    def __iter__(self) -> Iterator[Room]:
        return iter(self._rooms)

    def __len__(self) -> int:
        return len(self._rooms)

    def __repr__(self) -> str:
        return f"Rooms({', '.join(self.ids)})"

    def to_public(self) -> list[dict[str, Any]]:
        """The ``rooms`` list of the ``rooms`` frame."""
        return [room.to_public() for room in self._rooms]


# -- loading -------------------------------------------------------------------------------


def load_rooms(path: str | Path | None = None) -> Rooms:
    """Read and validate a rooms configuration.

    ``path`` if given, else the file named by ``$ROOMS_CONFIG`` if set and not
    empty, else the packaged ``rooms.yaml``.
    """
    if path is None:
        path = os.environ.get(ROOMS_CONFIG_ENV) or None
        if path is None:
            resource = resources.files("numbridge.club") / DEFAULT_ROOMS_RESOURCE
            return parse_rooms_yaml(resource.read_text(encoding="utf-8"), "(packaged rooms.yaml)")
        source = f"{path} (from ${ROOMS_CONFIG_ENV})"
    else:
        source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RoomsConfigError(source, [f"cannot read the file: {exc.strerror or exc}"]) from exc
    return parse_rooms_yaml(text, source)


def parse_rooms_yaml(text: str, source: str = "(text)") -> Rooms:
    """Validate rooms configuration text (YAML); ``source`` names it in errors."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise RoomsConfigError(source, [f"not valid YAML: {exc}"]) from exc
    return parse_rooms(data, source)


def parse_rooms(data: object, source: str = "(data)") -> Rooms:
    """Validate a rooms configuration already parsed into plain data."""
    if not isinstance(data, dict) or set(data) != {"rooms"}:
        raise RoomsConfigError(source, ["the file must hold one key, `rooms`: a list of rooms"])
    entries = data["rooms"]
    if not isinstance(entries, list) or not entries:
        raise RoomsConfigError(source, ["`rooms` must be a non-empty list of rooms"])

    problems: list[str] = []
    specs: dict[str, _RoomSpec] = {}
    for number, entry in enumerate(entries, start=1):
        room_id = entry.get("id") if isinstance(entry, dict) else None
        label = f"room {room_id!r}" if isinstance(room_id, str) else f"room #{number}"
        try:
            spec = _RoomSpec.model_validate(entry)
        except ValidationError as exc:
            problems.extend(_describe(label, exc))
            continue
        if spec.id in specs:
            problems.append(f"{label}: id: another room has the id {spec.id!r}")
            continue
        specs[spec.id] = spec

    known_ids = {e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)}
    rooms: list[Room] = []
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
            rooms.append(Room.model_validate(raw))
        except ValidationError as exc:
            problems.extend(_describe(label, exc, _inherited_note(spec)))

    if problems:
        raise RoomsConfigError(source, problems)
    return Rooms(rooms)


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


def _describe(
    label: str, exc: ValidationError, notes: Mapping[str, str] | None = None
) -> list[str]:
    out = []
    for err in exc.errors(include_url=False):
        loc = err["loc"]
        where = ".".join(str(part) for part in loc) or "(room)"
        msg = err["msg"].removeprefix("Value error, ")
        note = ""
        if notes and len(loc) >= 2 and loc[0] == "variants":
            note = notes.get(str(loc[1]), "")
        out.append(f"{label}: {where}: {msg}{note}")
    return out
