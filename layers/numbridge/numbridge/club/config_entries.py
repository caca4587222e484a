"""The club's configuration files (rooms.yaml, tournaments.yaml) are lists of entries,
each named by its ``id``: validated one by one with pydantic, every fault named with the
entry it is in, so that a host reads all that is wrong at once."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def validated_entries(entries: Iterable[object], model: type[M], noun: str,
                      id_of: Callable[[M], str],
                      check: Callable[[str, M], str | None] | None = None,
                      whole: str = "") -> tuple[dict[str, M], list[str]]:
    """Each entry validated as ``model``, by id, in the file's order, and the faults found:
    an entry that does not validate, repeats an earlier entry's id, or fails ``check`` (which
    says what is wrong, prefixed by the entry's label) is left out. ``whole``: as
    :func:`described`."""
    problems: list[str] = []
    found: dict[str, M] = {}
    for number, raw in enumerate(entries, start=1):
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        label = f"{noun} {raw_id!r}" if isinstance(raw_id, str) else f"{noun} #{number}"
        try:
            entry = model.model_validate(raw)
        except ValidationError as exc:
            problems.extend(described(label, exc, whole=whole))
            continue
        entry_id = id_of(entry)
        if entry_id in found:
            problems.append(f"{label}: id: another {noun} has the id {entry_id!r}")
            continue
        if check is not None and (fault := check(label, entry)) is not None:
            problems.append(fault)
            continue
        found[entry_id] = entry
    return found, problems


def described(label: str, exc: ValidationError, notes: Mapping[str, str] | None = None,
              whole: str = "") -> list[str]:
    """One line per fault pydantic found: the entry, the field's path (``whole`` for a fault
    of the entry as a whole, else none), the message, and a note on the variant named when
    ``notes`` has one."""
    out = []
    for err in exc.errors(include_url=False):
        loc = err["loc"]
        where = ".".join(str(part) for part in loc) or whole
        said = err["msg"].removeprefix("Value error, ")
        note = ""
        if notes and len(loc) >= 2 and loc[0] == "variants":
            note = notes.get(str(loc[1]), "")
        out.append(f"{label}: {where}: {said}{note}" if where else f"{label}: {said}{note}")
    return out
