"""Loading the tournament schedule: :func:`load_schedule` reads the file named by its
argument, else by ``$TOURNAMENTS_CONFIG``, else the packaged ``club/tournaments.yaml``
(beside ``rooms.yaml``), and validates it with pydantic as
``numbridge.club.rooms_config`` does the rooms.

The one module of this package that reads files: the entries it hands out are
:mod:`numbridge.tournaments.schedule`'s plain values, zones already looked up, so
the schedule's arithmetic stays pure. A bad file raises
:class:`ScheduleConfigError` listing every problem as ``entry 'ID': FIELD: what``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection
from datetime import time
from importlib import resources
from pathlib import Path
from typing import Annotated, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)

from numbridge.club.config_entries import validated_entries
from numbridge.tournaments.schedule import WEEKDAYS, Kind, ScheduleEntry

TOURNAMENTS_CONFIG_ENV: Final = "TOURNAMENTS_CONFIG"
DEFAULT_RESOURCE: Final = "tournaments.yaml"
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_AT = re.compile(r"^([01][0-9]|2[0-3]):([0-5][0-9])$")

EntryId = Annotated[StrictStr, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,31}$")]


class ScheduleConfigError(ValueError):
    """The schedule is unreadable or invalid; ``problems`` lists each fault."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = tuple(problems)
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(f"invalid tournament schedule {source}:\n{lines}")


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: EntryId
    name: Annotated[StrictStr, Field(min_length=1, max_length=80)]
    kind: Kind
    room: Annotated[StrictStr, Field(min_length=1)]
    at: StrictStr
    zone: StrictStr = "UTC"
    days: Annotated[tuple[StrictStr, ...], Field(min_length=1)] = WEEKDAYS
    minutes: Annotated[StrictInt, Field(ge=1, le=24 * 60)] | None = None
    rounds: Annotated[StrictInt, Field(ge=1, le=30)] | None = None
    rated: StrictBool = True

    @field_validator("at")
    @classmethod
    def _wall_time(cls, at: str) -> str:
        if not _AT.match(at):
            raise ValueError(f"{at!r} is not a time of day as HH:MM (00:00 to 23:59)")
        return at

    @field_validator("zone")
    @classmethod
    def _known_zone(cls, zone: str) -> str:
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{zone!r} is no time zone (UTC, or an IANA name such as "
                             "Europe/Athens)") from None
        return zone

    @field_validator("days")
    @classmethod
    def _weekdays(cls, days: tuple[str, ...]) -> tuple[str, ...]:
        unknown = [d for d in days if d not in WEEKDAYS]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is no weekday; write {', '.join(WEEKDAYS)}")
        if len(set(days)) != len(days):
            raise ValueError("a day is listed twice")
        return days

    @model_validator(mode="after")
    def _fits_kind(self) -> _Entry:
        if self.kind == "arena" and self.minutes is None:
            raise ValueError("an arena needs `minutes`: how long it runs")
        if self.kind != "arena" and self.minutes is not None:
            raise ValueError(f"`minutes` is for an arena; a {self.kind} runs by rounds")
        if self.kind == "swiss" and self.rounds is None:
            raise ValueError("a swiss needs `rounds`")
        if self.kind != "swiss" and self.rounds is not None:
            raise ValueError(f"`rounds` is for a swiss, not a {self.kind}")
        return self

    def plain(self) -> ScheduleEntry:
        hour, minute = (int(part) for part in self.at.split(":"))
        return ScheduleEntry(
            id=self.id, name=self.name, kind=self.kind, room=self.room,
            at=time(hour, minute), zone=ZoneInfo(self.zone),
            days=frozenset(WEEKDAYS.index(d) for d in self.days),
            minutes=self.minutes, rounds=self.rounds, rated=self.rated)


def load_schedule(path: str | Path | None = None,
                  rooms: Collection[str] | None = None) -> tuple[ScheduleEntry, ...]:
    """Read and validate the schedule: ``path`` if given, else ``$TOURNAMENTS_CONFIG`` if
    set and not empty, else the packaged file. ``rooms``, if given, are the room ids an
    entry may name."""
    if path is None:
        path = os.environ.get(TOURNAMENTS_CONFIG_ENV) or None
        if path is None:
            resource = resources.files("numbridge.club") / DEFAULT_RESOURCE
            return parse_schedule_yaml(resource.read_text(encoding="utf-8"),
                                       "(packaged tournaments.yaml)", rooms)
        source = f"{path} (from ${TOURNAMENTS_CONFIG_ENV})"
    else:
        source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ScheduleConfigError(source, [f"cannot read the file: {exc.strerror or exc}"]) \
            from exc
    return parse_schedule_yaml(text, source, rooms)


def parse_schedule_yaml(text: str, source: str = "(text)",
                        rooms: Collection[str] | None = None) -> tuple[ScheduleEntry, ...]:
    """Validate schedule text (YAML); ``source`` names it in errors."""
    try:
        data = yaml.load(text, Loader=_Loader)  # both loaders are safe: plain data only
    except yaml.YAMLError as exc:
        raise ScheduleConfigError(source, [f"not valid YAML: {exc}"]) from exc
    return parse_schedule(data, source, rooms)


def parse_schedule(data: object, source: str = "(data)",
                   rooms: Collection[str] | None = None) -> tuple[ScheduleEntry, ...]:
    """Validate a schedule already parsed into plain data."""
    if not isinstance(data, dict) or set(data) != {"schedule"}:
        raise ScheduleConfigError(source, ["the file must hold one key, `schedule`: a list "
                                           "of entries (it may be empty)"])
    entries = data["schedule"]
    if entries is None:
        entries = []
    if not isinstance(entries, list):
        raise ScheduleConfigError(source, ["`schedule` must be a list of entries"])
    def known_room(label: str, entry: _Entry) -> str | None:
        if rooms is None or entry.room in rooms:
            return None
        return f"{label}: room: there is no room {entry.room!r} (the rooms: {', '.join(rooms)})"

    found, problems = validated_entries(entries, _Entry, "entry", lambda e: e.id, known_room)
    if problems:
        raise ScheduleConfigError(source, problems)
    return tuple(entry.plain() for entry in found.values())
