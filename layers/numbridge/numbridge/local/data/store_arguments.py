"""The store arguments of the host commands, taken as ``numbridge serve`` takes them:
``--data-dir D`` (the SQLite store, the default) or ``--store dynamodb --table T
[--dynamodb-endpoint URL]`` — ``numbridge club``, ``numbridge account`` and
``numbridge token`` share them."""

from __future__ import annotations

import argparse
import os
from typing import Any


def add_store_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", help="with the SQLite store: the data directory "
                        "`numbridge serve` uses (numbridge.db in it)")
    parser.add_argument("--store", choices=("sqlite", "dynamodb"), default=None,
                        help="sqlite (the default) or dynamodb (with --table)")
    parser.add_argument("--table", help="with --store dynamodb: the game table (the stack's "
                        "GameTableName output)")
    parser.add_argument("--dynamodb-endpoint", metavar="URL",
                        help="with --store dynamodb: another endpoint than AWS's (also "
                        "AWS_ENDPOINT_URL_DYNAMODB)")


class StoreRefused(ValueError):
    """The store arguments name no store that can be opened: the message says why."""


def open_named_store(args: argparse.Namespace, *, must_exist: bool) -> tuple[Any, str, Any]:
    """The store the arguments name, how to name it, and how to close it."""
    kind = args.store or ("dynamodb" if args.table or args.dynamodb_endpoint else "sqlite")
    if kind == "sqlite":
        if args.table or args.dynamodb_endpoint:
            raise StoreRefused("--table and --dynamodb-endpoint go with --store dynamodb")
        from numbridge.local.data.datadir import (
            DATABASE_FILE,
            DataDirError,
            data_dir,
            database_file,
        )
        from numbridge.store.sqlite import SqliteStore

        try:
            directory = data_dir(args.data_dir)
            if must_exist and not (directory / DATABASE_FILE).exists():
                raise StoreRefused(f"no club at {directory / DATABASE_FILE}")
            path = database_file(directory)
        except DataDirError as exc:
            raise StoreRefused(str(exc)) from exc
        # An import is run again if it is cut short, even by a power cut: it need not
        # sync each put (closing the store checkpoints, and syncs, the whole of it).
        sqlite = SqliteStore(path, synchronous="FULL" if must_exist else "NORMAL")
        return sqlite, f"SQLite {path}", sqlite.close
    if args.data_dir:
        raise StoreRefused("--data-dir goes with the SQLite store")
    if not args.table:
        raise StoreRefused("--store dynamodb needs --table (the stack's GameTableName output)")
    return (*_dynamodb(args.table, args.dynamodb_endpoint), lambda: None)


def _dynamodb(table: str, endpoint: str | None) -> tuple[Any, str]:
    import boto3
    from botocore.exceptions import BotoCoreError, ClientError

    from numbridge.local.data.stores import DUMMY_CREDENTIALS
    from numbridge.local.lambdas.aws_events import REGION
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
        raise StoreRefused(f"table {table}: {exc.response.get('Error', {}).get('Message', exc)} "
                       "(deploy the stack first: it makes the table)") from exc
    except BotoCoreError as exc:
        raise StoreRefused(f"DynamoDB: {exc}") from exc
    where = f"DynamoDB table {table}" + (f" at {endpoint}" if endpoint else "")
    return DynamoStore(client, table), where
