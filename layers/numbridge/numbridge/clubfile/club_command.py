"""``numbridge club export`` and ``numbridge club import``: a club to a file and back,
on either store (``--data-dir`` for SQLite, ``--store dynamodb --table``)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

EXIT_REFUSED = 2


def register(subparsers: Any) -> None:
    """Add ``club`` (``export`` and ``import``) to the ``numbridge`` command."""
    club = subparsers.add_parser(
        "club", help="move a club between stores: export it to a file, import one",
        description="Export a whole club (games with their events and records, ratings and "
        "games lists, open proposals, recent request receipts) to one JSON-lines file, or "
        "import such a file. The file holds every game's solution and hands: it is written "
        "readable by its owner only (mode 0600); keep it so.")
    sub = club.add_subparsers(dest="club_command", required=True)
    export = sub.add_parser("export", help="write the club to a file",
                            description="Write the club to FILE (mode 0600). Stop the "
                            "server first, or games played meanwhile may be missing.")
    export.add_argument("--out", required=True, metavar="FILE", help="the file to write")
    _store_arguments(export)
    export.set_defaults(func=_export)
    load = sub.add_parser(
        "import", help="load a club file into a store",
        description="Load FILE into the store. Every line is checked before anything is "
        "written; an item the store already holds with other values refuses the whole "
        "import; items already there as in the file are skipped, so running it again "
        "changes nothing (and finishes an import that was cut short).")
    load.add_argument("file", metavar="FILE", help="a file written by `numbridge club export`")
    _store_arguments(load)
    load.set_defaults(func=_import)


def _store_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", help="with the SQLite store: the data directory "
                        "`numbridge serve` uses (numbridge.db in it)")
    parser.add_argument("--store", choices=("sqlite", "dynamodb"), default=None,
                        help="sqlite (the default) or dynamodb (with --table)")
    parser.add_argument("--table", help="with --store dynamodb: the game table (the stack's "
                        "GameTableName output)")
    parser.add_argument("--dynamodb-endpoint", metavar="URL",
                        help="with --store dynamodb: another endpoint than AWS's (also "
                        "AWS_ENDPOINT_URL_DYNAMODB)")


def _export(args: argparse.Namespace) -> int:
    from numbridge.clubfile.moving import export_club
    from numbridge.service.context import wall_clock_ms

    try:
        opened = _open(args, must_exist=True)
    except _Refused as exc:
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
        opened = _open(args, must_exist=False)
    except _Refused as exc:
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


class _Refused(Exception):
    pass


def _open(args: argparse.Namespace, *, must_exist: bool) -> tuple[Any, str, Any]:
    """The store the arguments name, how to name it, and how to close it."""
    kind = args.store or ("dynamodb" if args.table or args.dynamodb_endpoint else "sqlite")
    if kind == "sqlite":
        if args.table or args.dynamodb_endpoint:
            raise _Refused("--table and --dynamodb-endpoint go with --store dynamodb")
        from numbridge.local.datadir import (
            DATABASE_FILE,
            DataDirError,
            data_dir,
            database_file,
        )
        from numbridge.store.sqlite import SqliteStore

        try:
            directory = data_dir(args.data_dir)
            if must_exist and not (directory / DATABASE_FILE).exists():
                raise _Refused(f"no club at {directory / DATABASE_FILE}")
            path = database_file(directory)
        except DataDirError as exc:
            raise _Refused(str(exc)) from exc
        # An import is run again if it is cut short, even by a power cut: it need not
        # sync each put (closing the store checkpoints, and syncs, the whole of it).
        sqlite = SqliteStore(path, synchronous="FULL" if must_exist else "NORMAL")
        return sqlite, f"SQLite {path}", sqlite.close
    if args.data_dir:
        raise _Refused("--data-dir goes with the SQLite store")
    if not args.table:
        raise _Refused("--store dynamodb needs --table (the stack's GameTableName output)")
    return (*_dynamodb(args.table, args.dynamodb_endpoint), lambda: None)


def _dynamodb(table: str, endpoint: str | None) -> tuple[Any, str]:
    import boto3
    from botocore.exceptions import BotoCoreError, ClientError

    from numbridge.local.aws_events import REGION
    from numbridge.local.stores import DUMMY_CREDENTIALS
    from numbridge.store.dynamodb import DynamoStore

    endpoint = endpoint or os.environ.get("AWS_ENDPOINT_URL_DYNAMODB") or None
    options: dict[str, Any] = {}
    if endpoint is not None:
        # Another endpoint (DynamoDB Local, moto) takes any credentials and region.
        options["endpoint_url"] = endpoint
        if not os.environ.get("AWS_ACCESS_KEY_ID"):
            options.update(DUMMY_CREDENTIALS)
        if not (os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")):
            options["region_name"] = REGION
    client = boto3.client("dynamodb", **options)
    try:
        client.describe_table(TableName=table)
    except ClientError as exc:
        raise _Refused(f"table {table}: {exc.response.get('Error', {}).get('Message', exc)} "
                       "(deploy the stack first: it makes the table)") from exc
    except BotoCoreError as exc:
        raise _Refused(f"DynamoDB: {exc}") from exc
    where = f"DynamoDB table {table}" + (f" at {endpoint}" if endpoint else "")
    return DynamoStore(client, table), where


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
