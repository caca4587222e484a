"""``numbridge club export`` and ``numbridge club import``: a club to a file and back,
on either store (``--data-dir`` for SQLite, ``--store dynamodb --table``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from numbridge.local.data.store_arguments import StoreRefused, add_store_arguments, open_named_store

EXIT_REFUSED = 2


def register(subparsers: Any) -> None:
    """Add ``club`` (``export`` and ``import``) to the ``numbridge`` command."""
    club = subparsers.add_parser(
        "club", help="move a club between stores: export it to a file, import one",
        description="Export a whole club (games with their events and records, ratings and "
        "games lists, open proposals, recent request receipts, accounts) to one JSON-lines "
        "file, or import such a file. The file holds every game's solution and hands and the "
        "accounts' password hashes: it is written "
        "readable by its owner only (mode 0600); keep it so.")
    sub = club.add_subparsers(dest="club_command", required=True)
    export = sub.add_parser("export", help="write the club to a file",
                            description="Write the club to FILE (mode 0600). Stop the "
                            "server first, or games played meanwhile may be missing.")
    export.add_argument("--out", required=True, metavar="FILE", help="the file to write")
    add_store_arguments(export)
    export.set_defaults(func=_export)
    load = sub.add_parser(
        "import", help="load a club file into a store",
        description="Load FILE into the store. Every line is checked before anything is "
        "written; an item the store already holds with other values refuses the whole "
        "import; items already there as in the file are skipped, so running it again "
        "changes nothing (and finishes an import that was cut short).")
    load.add_argument("file", metavar="FILE", help="a file written by `numbridge club export`")
    add_store_arguments(load)
    load.set_defaults(func=_import)


def _export(args: argparse.Namespace) -> int:
    from numbridge.clubfile.moving import export_club
    from numbridge.service.context import wall_clock_ms

    try:
        opened = open_named_store(args, must_exist=True)
    except StoreRefused as exc:
        return _refused("export", str(exc))
    store, where, close = opened
    try:
        counts = export_club(store, Path(args.out), source=where, now_ms=wall_clock_ms(),
                             progress=_bar)
    finally:
        close()
    print(f"exported {_counted(counts)} from {where} to {args.out} (mode 0600: it holds "
          "solutions and hands)")
    return 0


def _import(args: argparse.Namespace) -> int:
    from numbridge.clubfile.files import ClubFileError
    from numbridge.clubfile.moving import ImportConflict, import_club
    from numbridge.store.port import ConflictError

    try:
        opened = open_named_store(args, must_exist=False)
    except StoreRefused as exc:
        return _refused("import", str(exc))
    store, where, close = opened
    try:
        done = import_club(store, Path(args.file), progress=_bar)
    except (ClubFileError, ImportConflict) as exc:
        return _refused("import", f"{exc}; nothing was written")
    except ConflictError as exc:  # an item put by someone else while importing
        return _refused("import", f"the store changed while importing ({exc}); run it "
                        "again to finish what it left")
    finally:
        close()
    written, present = sum(done.written.values()), sum(done.present.values())
    print(f"imported {args.file} into {where}: {written} items written "
          f"({_counted(done.written)}), {present} already there")
    return 0


def _bar(items: Iterable[Any], doing: str, total: int | None) -> Iterable[Any]:
    """A progress bar on stderr, only when it is a terminal (tqdm's ``disable=None``)."""
    from tqdm import tqdm

    return tqdm(items, desc=doing, total=total, unit=" records", file=sys.stderr,
                disable=None, leave=False)


def _counted(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind}{'' if n == 1 else 's'}" for kind, n in counts.items())


def _refused(command: str, why: str) -> int:
    print(f"numbridge club {command}: {why}", file=sys.stderr)
    return EXIT_REFUSED
