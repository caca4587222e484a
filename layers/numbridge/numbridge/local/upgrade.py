"""The one-time move from the old data directory (a moto snapshot file) into the database.

Earlier versions kept the club in moto's memory and saved it every 2 s to
``snapshot.json``: every item of every table in DynamoDB's JSON. On the first
start with a database, its game-table items are written into the store (not
connections: no socket survives a restart; not the old idempotency records:
receipts replace them), deadlines moved onto the sharded index, the leaderboard index put in rank
order, and the file
renamed ``snapshot.json.imported`` so it is never read twice.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from numbridge.club.ratings import PROVISIONAL_RD
from numbridge.local.datadir import own_directory, own_file
from numbridge.store import keys
from numbridge.store.port import MAX_TRANSACTION_ITEMS, Item, Put, Store

log = logging.getLogger("numbridge.local")

SNAPSHOT_FILE = "snapshot.json"
IMPORTED_SUFFIX = ".imported"
OLD_GAME_TABLE = "numbridge-games"
SNAPSHOT_FORMAT = 1


def _items(snapshot: dict[str, Any]) -> Iterator[Item]:
    if snapshot.get("format") != SNAPSHOT_FORMAT:
        raise ValueError(f"unknown snapshot format {snapshot.get('format')!r}")
    # Only an old data directory needs boto3's types: a start without one skips
    # importing boto3 (a third of a second).
    from numbridge.store.dynamodb import from_item

    for raw in snapshot.get("tables", {}).get(OLD_GAME_TABLE, []):
        item = from_item(raw)
        if str(item["pk"]).startswith(keys.CONN_PREFIX) or str(item["sk"]).startswith(
            keys.CONN_PREFIX
        ):
            continue
        if str(item.get("gsi1pk", "")).startswith("DEADLINE#"):
            item["gsi1pk"] = keys.deadline_shard(keys.game_id_of(str(item["pk"])))
        if str(item["sk"]).startswith("RATING#"):
            item.update(_ranked(item))
        yield item


def _ranked(rating: Item) -> Item:
    """The leaderboard index ordered by rank, as ratings are written now."""
    name = str(rating["pk"]).removeprefix("PLAYER#")
    provisional = int(rating["rd_e6"]) / 1e6 > PROVISIONAL_RD
    return {"name": name,
            "gsi1sk": keys.leaderboard_rank(provisional, int(rating["rating_e6"]), name)}


def import_snapshot(data_dir: Path, store: Store) -> int:
    """Import ``snapshot.json`` if the data directory has one; how many items.

    Only from a directory, and a file, of the server's own (DataDirError otherwise): a
    club planted by someone else would be taken for ours."""
    path = data_dir / SNAPSHOT_FILE
    if not os.path.lexists(path):
        return 0
    own_directory(data_dir)
    own_file(path, "an old snapshot to import")
    items = list(_items(json.loads(path.read_text(encoding="utf-8"))))
    for start in range(0, len(items), MAX_TRANSACTION_ITEMS):
        store.transact([Put(item) for item in items[start:start + MAX_TRANSACTION_ITEMS]])
    path.rename(path.with_name(SNAPSHOT_FILE + IMPORTED_SUFFIX))
    log.info("imported %d items from %s", len(items), path)
    return len(items)
