"""Export a club from a store to a file, and import one into a store.

An import reads the file three times and writes only in the last pass: first
every line is checked (a file it cannot read whole is refused); then each
record's items are compared with what the store holds — an item already there
and equal is skipped, one there and different is a conflict and the import is
refused, still with nothing written (as is a file two of whose records would put the
same item); then the missing items are put, each only
where no item is. So a second import of the same file writes nothing, and an
import cut short (a lost connection) is finished by running it again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from numbridge.clubfile.files import ClubFile, ClubFileError, write_file
from numbridge.clubfile.lines import Header, Line
from numbridge.clubfile.sections import SECTIONS, Section
from numbridge.store.port import (
    Item,
    ListingStore,
    Put,
    Store,
    clean,
)
from numbridge.values import frozen

T = TypeVar("T")
# Wraps an iterable to show how far it has got: (items, what is being done, how many).
Progress = Callable[[Iterable[Any], str, int | None], Iterable[Any]]
MAX_CONFLICTS_SHOWN = 5
RECORDS_PER_BATCH = 50


def quiet(items: Iterable[T], doing: str, total: int | None) -> Iterable[T]:
    return items


class ImportConflict(Exception):
    """The store already holds some of the file's items, with other values (a club
    that went on playing after the export, or another club): nothing was written."""

    def __init__(self, conflicts: Sequence[tuple[str, str]], count: int) -> None:
        shown = ", ".join(f"({pk}, {sk})" for pk, sk in conflicts[:MAX_CONFLICTS_SHOWN])
        more = f" and {count - MAX_CONFLICTS_SHOWN} more" if count > MAX_CONFLICTS_SHOWN else ""
        super().__init__(f"{count} items differ from the file's: {shown}{more}")
        self.conflicts = list(conflicts)
        self.count = count


@frozen
class Imported:
    """What an import did: items written, and items found already there, by section."""

    written: dict[str, int]
    present: dict[str, int]


def export_club(store: ListingStore, path: Path, *, source: str, now_ms: int,
                sections: Sequence[Section] = SECTIONS,
                progress: Progress = quiet) -> dict[str, int]:
    """Write the whole club in ``store`` to ``path`` (mode 0600); records per section."""
    partitions = store.partitions()
    header = Header(sections=[s.kind for s in sections], exported_ms=now_ms, source=source)

    def records() -> Iterator[tuple[str, Line]]:
        for section in sections:
            for line in progress(section.export(store, partitions, now_ms),
                                 f"exporting {section.kind}s", None):
                yield section.kind, line

    return write_file(path, header, records())


def import_club(store: Store, path: Path, *, sections: Sequence[Section] = SECTIONS,
                progress: Progress = quiet) -> Imported:
    """Load the club file at ``path`` into ``store``: :class:`ClubFileError` if the file
    is not whole and valid, :class:`ImportConflict` if the store holds other values
    for its items; in both cases nothing is written."""
    club = ClubFile(path, sections)
    _, end = club.check()
    total = sum(end.counts.values())
    conflicts: list[tuple[str, str]] = []
    count = 0
    missing = {s.kind: 0 for s in sections}
    present = {s.kind: 0 for s in sections}
    keys_seen: set[tuple[str, str]] = set()
    for batch in _batches(progress(club.records(), "comparing", total)):
        held = _held(store, batch)
        for kind, writes in batch:
            _once_each(writes, keys_seen, kind)
            absent, differ, same = _compare(held, writes)
            missing[kind] += len(absent)
            present[kind] += same
            count += len(differ)
            conflicts += differ[:MAX_CONFLICTS_SHOWN - len(conflicts)]
    if count:
        raise ImportConflict(conflicts, count)
    if not any(missing.values()):  # imported before: nothing to do
        return Imported(missing, present)
    written = {s.kind: 0 for s in sections}
    present = {s.kind: 0 for s in sections}
    for batch in _batches(progress(club.records(), "importing", total)):
        held = _held(store, batch)
        for kind, writes in batch:
            absent, differ, same = _compare(held, writes)
            if differ:  # written by someone else since the comparison
                raise ImportConflict(differ, len(differ))
            # One put each, in the file's order (a game's state after its events): a
            # transaction would add nothing (the file's records are independent), costs
            # twice the write units, and on moto copies the whole table each time
            # (measured: 200 games in 292 s in transactions, 5-15 s in puts).
            for write in absent:
                store.put(write.item, write.condition)
            written[kind] += len(absent)
            present[kind] += same
    return Imported(written, present)


def _once_each(writes: Sequence[Put], seen: set[tuple[str, str]], kind: str) -> None:
    """Refuse a file two of whose records put the same item (two accounts whose names
    fold alike, a game twice): the second put would fail half-way through the writes."""
    for write in writes:
        if write.key in seen:
            raise ClubFileError(f"two records put the item {write.key} (the second a "
                                f"{kind}): a damaged or hand-made file")
        seen.add(write.key)


def _batches(records: Iterable[tuple[Section, Line]]) -> Iterator[list[tuple[str, list[Put]]]]:
    """The records' writes, a few records at a time: one read of a partition serves all
    the batch's items in it (a player's receipts)."""
    batch: list[tuple[str, list[Put]]] = []
    for section, line in records:
        batch.append((section.kind, section.writes(line)))
        if len(batch) == RECORDS_PER_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _compare(held: dict[tuple[str, str], Item], writes: Sequence[Put]
             ) -> tuple[list[Put], list[tuple[str, str]], int]:
    """The writes whose item is missing (in order), the keys whose item differs, and how
    many are there as they would be written."""
    missing: list[Put] = []
    differ: list[tuple[str, str]] = []
    same = 0
    for write in writes:
        current = held.get(write.key)
        if current is None:
            missing.append(write)
        elif current == clean(write.item):
            same += 1
        else:
            differ.append(write.key)
    return missing, differ, same


def _held(store: Store, batch: Sequence[tuple[str, Sequence[Put]]]
          ) -> dict[tuple[str, str], Item]:
    """The items the store holds where the batch writes: one read per item, or one query
    of a partition when several are wanted from it (a game's events)."""
    by_partition: dict[str, set[str]] = {}
    for _, writes in batch:
        for write in writes:
            pk, sk = write.key
            by_partition.setdefault(pk, set()).add(sk)
    held: dict[tuple[str, str], Item] = {}
    for pk, sort_keys in by_partition.items():
        if len(sort_keys) == 1:
            [sk] = sort_keys
            item = store.get(pk, sk)
            if item is not None:
                held[pk, sk] = item
            continue
        for item in store.query(pk).items:
            if str(item["sk"]) in sort_keys:
                held[pk, str(item["sk"])] = item
    return held
