"""Table snapshots: moto keeps everything in memory, so the local runtime saves it.

A snapshot is every item of every table (Scan, DynamoDB JSON) in one JSON
file, replaced atomically. Restoring writes the items back (BatchWriteItem),
leaving out connections (no socket survives a restart) and items whose TTL has
passed (moto never expires them).
"""

from __future__ import annotations

import base64
import json
import logging
import os
import tempfile
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger("numbridge.local")

FORMAT = 1
CONNECTION_PREFIX = "CONN#"
BATCH = 25

Item = dict[str, Any]


# ---------------------------------------------------------------- item encoding


def _map_binary(value: Any, convert: Any) -> Any:
    """Apply ``convert`` to every binary (``B``/``BS``) inside an attribute value."""
    ((kind, inner),) = value.items()
    if kind == "B":
        return {"B": convert(inner)}
    if kind == "BS":
        return {"BS": [convert(each) for each in inner]}
    if kind == "L":
        return {"L": [_map_binary(each, convert) for each in inner]}
    if kind == "M":
        return {"M": {key: _map_binary(each, convert) for key, each in inner.items()}}
    return value


def encode_item(item: Mapping[str, Any]) -> Item:
    """An item as JSON data (binaries in base64)."""
    return {
        key: _map_binary(value, lambda raw: base64.b64encode(raw).decode())
        for key, value in item.items()
    }


def decode_item(item: Mapping[str, Any]) -> Item:
    """The inverse of :func:`encode_item`."""
    return {key: _map_binary(value, base64.b64decode) for key, value in item.items()}


# ---------------------------------------------------------------- what is not restored


def is_connection(item: Mapping[str, Any]) -> bool:
    """A connection item (``CONN#…`` key): stale once the server restarts."""
    return any(
        str(item.get(key, {}).get("S", "")).startswith(CONNECTION_PREFIX) for key in ("pk", "sk")
    )


def is_expired(item: Mapping[str, Any], ttl_attribute: str | None, now_s: float) -> bool:
    if ttl_attribute is None or "N" not in item.get(ttl_attribute, {}):
        return False
    try:
        return float(item[ttl_attribute]["N"]) < now_s
    except ValueError:
        return False


# ---------------------------------------------------------------- the tables


def scan(client: Any, table: str) -> list[Item]:
    items: list[Item] = []
    for page in client.get_paginator("scan").paginate(TableName=table, ConsistentRead=True):
        items.extend(page["Items"])
    return items


def dump(client: Any, tables: Iterable[str]) -> dict[str, Any]:
    """Every item of every table, in a stable order."""
    dumped: dict[str, list[Item]] = {}
    for table in tables:
        items = [encode_item(item) for item in scan(client, table)]
        items.sort(key=lambda item: json.dumps(item, sort_keys=True))
        dumped[table] = items
    return {"format": FORMAT, "tables": dumped}


def ttl_attribute(client: Any, table: str) -> str | None:
    description = client.describe_time_to_live(TableName=table)["TimeToLiveDescription"]
    if description.get("TimeToLiveStatus") in ("ENABLED", "ENABLING"):
        return str(description["AttributeName"])
    return None


def _batch_write(client: Any, table: str, items: list[Item]) -> None:
    for start in range(0, len(items), BATCH):
        chunk = items[start : start + BATCH]
        requests = {table: [{"PutRequest": {"Item": item}} for item in chunk]}
        for attempt in range(10):
            unprocessed = client.batch_write_item(RequestItems=requests).get("UnprocessedItems")
            if not unprocessed:
                break
            requests = unprocessed
            time.sleep(0.05 * 2**attempt)
        else:
            raise RuntimeError(f"could not restore {table}: writes kept coming back unprocessed")


def load(client: Any, snapshot: Mapping[str, Any], tables: Iterable[str]) -> dict[str, int]:
    """Write a snapshot's items back into ``tables``; the count restored per table."""
    if snapshot.get("format") != FORMAT:
        raise ValueError(f"unknown snapshot format {snapshot.get('format')!r}")
    saved: Mapping[str, list[Item]] = snapshot.get("tables", {})
    now = time.time()
    restored: dict[str, int] = {}
    for table in tables:
        ttl = ttl_attribute(client, table)
        items = [
            decode_item(item)
            for item in saved.get(table, [])
            if not is_connection(item) and not is_expired(item, ttl, now)
        ]
        _batch_write(client, table, items)
        restored[table] = len(items)
    return restored


# ---------------------------------------------------------------- the file


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text``: readers see the old file or the new, never half of one."""
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


class Snapshots:
    """Saves ``tables`` to ``path`` when they changed; restores them from it."""

    def __init__(self, client: Any, tables: Iterable[str], path: Path) -> None:
        self._client = client
        self._tables = list(tables)
        self.path = path
        self._last: str | None = None

    def restore(self) -> dict[str, int]:
        """Load the snapshot file, if there is one, into the (empty) tables."""
        if not self.path.exists():
            return {}
        text = self.path.read_text(encoding="utf-8")
        restored = load(self._client, json.loads(text), self._tables)
        self._last = text
        return restored

    def save(self) -> bool:
        """Write a snapshot if anything changed since the last one; whether it wrote."""
        text = json.dumps(dump(self._client, self._tables), separators=(",", ":"))
        if text == self._last:
            return False
        write_atomically(self.path, text)
        self._last = text
        return True
