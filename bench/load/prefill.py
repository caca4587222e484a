"""A grown database: the finished games copied (under new ids) into the SQLite file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path


def prefill(data_dir: Path, finished_games: int) -> int:
    """Copy the finished games in the database until there are ``finished_games``;
    the server must be stopped. How many items it holds then."""
    from numbridge.store.port import MAX_TRANSACTION_ITEMS, Put
    from numbridge.store.sqlite import SqliteStore

    path = data_dir / "numbridge.db"
    with sqlite3.connect(path) as db:
        played = [pk.removeprefix("GAME#") for (pk,) in db.execute(
            "SELECT pk FROM items WHERE sk = 'RECORD'")]
        games = {gid: [row[0] for row in db.execute(
            "SELECT item FROM items WHERE pk = ? OR sk = ?", (f"GAME#{gid}", f"GAME#{gid}"))]
            for gid in played}
    if not played:
        raise RuntimeError("no finished game to copy")
    store = SqliteStore(path, synchronous="NORMAL")
    try:
        batch: list[Put] = []
        for n in range(finished_games - len(played)):
            gid = played[n % len(played)]
            for text in games[gid]:
                batch.append(Put(json.loads(text.replace(gid, f"{gid}x{n}"))))
                if len(batch) == MAX_TRANSACTION_ITEMS:
                    store.transact(batch)
                    batch = []
        if batch:
            store.transact(batch)
        return store.count()
    finally:
        store.close()
