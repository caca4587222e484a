"""The local runtime's database: a SQLite file in the data directory (the default),
or DynamoDB — an endpoint given, or moto's server in-process to try the AWS path."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import boto3

from numbridge.local.data.datadir import DATABASE_FILE, database_file
from numbridge.local.lambdas.aws_events import REGION
from numbridge.store.dynamodb import DynamoStore
from numbridge.store.port import Store
from numbridge.store.sqlite import SqliteStore

log = logging.getLogger("numbridge.local")

__all__ = ["DATABASE_FILE", "DUMMY_CREDENTIALS", "OpenStore", "open_store"]
TABLE_NAME = "numbridge-games"
STORES = ("sqlite", "dynamodb")
DUMMY_CREDENTIALS = {"aws_access_key_id": "numbridge-local",
                     "aws_secret_access_key": "numbridge-local"}


@dataclass
class OpenStore:
    store: Store
    where: str  # for the banner
    database_file: Path | None = None
    _moto: Any = field(default=None, repr=False)

    def close(self) -> None:
        if isinstance(self.store, SqliteStore):
            self.store.close()
        if self._moto is not None:
            self._moto.stop()
            self._moto = None


def open_store(kind: str, data_dir: Path, *, dynamodb_endpoint: str | None = None,
               synchronous: str = "FULL", template_path: Path | None = None) -> OpenStore:
    if kind == "sqlite":
        path = database_file(data_dir)
        return OpenStore(SqliteStore(path, synchronous=synchronous),
                         f"SQLite {path} (synchronous={synchronous})", path)
    if kind != "dynamodb":
        raise ValueError(f"--store must be one of {', '.join(STORES)}, not {kind!r}")
    endpoint = dynamodb_endpoint or os.environ.get("AWS_ENDPOINT_URL_DYNAMODB") or None
    moto = None
    if endpoint is None:
        from numbridge.local.data.embedded_moto import EmbeddedMoto

        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
        moto = EmbeddedMoto(ip_address="127.0.0.1", port=0, verbose=False)
        moto.start()
        host, port = moto.get_host_and_port()
        endpoint = f"http://{host}:{port}"
    client = boto3.client("dynamodb", endpoint_url=endpoint, region_name=REGION,
                          **_credentials(embedded=moto is not None))
    from numbridge import sam_template

    sam_template.create_tables(client, {"GameTable": TABLE_NAME}, template_path)
    where = (f"DynamoDB, embedded moto at {endpoint} (in memory: gone when the server stops)"
             if moto is not None else f"DynamoDB at {endpoint}")
    return OpenStore(DynamoStore(client, TABLE_NAME), f"{where} (table {TABLE_NAME})", None,
                     moto)


def _credentials(embedded: bool) -> dict[str, Any]:
    """Dummy credentials for moto; real ones, if set, for an external endpoint."""
    if embedded or not os.environ.get("AWS_ACCESS_KEY_ID"):
        return dict(DUMMY_CREDENTIALS)
    return {"aws_access_key_id": os.environ["AWS_ACCESS_KEY_ID"],
            "aws_secret_access_key": os.environ.get("AWS_SECRET_ACCESS_KEY", ""),
            "aws_session_token": os.environ.get("AWS_SESSION_TOKEN") or None}
