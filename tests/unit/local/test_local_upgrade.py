"""An old data directory (moto snapshot file) is imported into the database once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from numbridge.local.upgrade import import_snapshot
from numbridge.store import keys
from numbridge.store.club import Proposals, Ratings, StoredRating
from numbridge.store.dynamodb import to_item
from numbridge.store.games import Games
from numbridge.store.sqlite import SqliteStore


def old_snapshot() -> dict[str, Any]:
    """What the snapshot writer of earlier versions left: DynamoDB JSON per table."""
    proposal = {"id": "p-1", "room": "bridge", "by": "ana", "created_ms": 5}
    games = [
        {"pk": "GAME#g-1", "sk": "STATE", "v": 3, "turn": "red", "step": 1,
         "status": "playing", "state": json.dumps({"v": 3}), "players": json.dumps(
             {"blue": "ana", "red": "bob"}),
         "gsi1pk": "DEADLINE#0", "gsi1sk": f"{1_796_000_045_000:015d}"},
        {"pk": "GAME#g-1", "sk": "EV#000000001", "v": 1, "frame": "{}"},
        {"pk": "PROPOSAL#p-1", "sk": "PROPOSAL", "gsi1pk": "ROOM#bridge",
         "gsi1sk": "PROPOSAL#000000000000005#p-1", "proposal": json.dumps(proposal)},
        {"pk": "CONN#c1=", "sk": "CONN", "player": "ana", "expires_at": 1},
        {"pk": "PLAYER#ana", "sk": "CONN#c1=", "expires_at": 1},
        {"pk": "PLAYER#ana", "sk": "RATING#bridge", "rv": 1, "games": 1,
         "rating_e6": 1_500_000_000, "rd_e6": 350_000_000, "volatility_e6": 60_000,
         "gsi1pk": "LEADERBOARD#bridge", "gsi1sk": "ana"},
    ]
    return {"format": 1, "tables": {
        "numbridge-games": [to_item(i) for i in games],
        "numbridge-idempotency": [to_item({"id": "x", "expiration": 9})],
    }}


def test_an_old_snapshot_is_imported_once_and_nothing_a_player_did_is_lost(
    tmp_path: Path,
) -> None:
    (tmp_path / "snapshot.json").write_text(json.dumps(old_snapshot()))
    store = SqliteStore(tmp_path / "numbridge.db")
    try:
        assert import_snapshot(tmp_path, store) == 4
        games = Games(store)
        row = games.load("g-1")
        assert row is not None and (row.v, row.turn, row.players["red"]) == (3, "red", "bob")
        assert [e.v for e in games.events_after("g-1", 0)] == [1]
        # The deadline moved onto its shard of the index, and the sweep finds it.
        assert store.get("GAME#g-1", "STATE")["gsi1pk"] == keys.deadline_shard("g-1")
        assert games.deadlines() == [("g-1", 3, 1_796_000_045_000)]
        assert [p["id"] for p in Proposals(store).in_room("bridge")[0]] == ["p-1"]
        assert Ratings(store).leaderboard("bridge")[0] == [
            StoredRating("ana", 1, 1, rating=1500.0, rd=350.0, volatility=0.06)]
        assert store.get("CONN#c1=", "CONN") is None  # no socket outlives a restart
        assert store.get("PLAYER#ana", "CONN#c1=") is None
        assert not (tmp_path / "snapshot.json").exists()
        assert (tmp_path / "snapshot.json.imported").exists()
        assert import_snapshot(tmp_path, store) == 0
        assert store.count() == 4
    finally:
        store.close()


def test_without_a_snapshot_nothing_happens(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "numbridge.db")
    try:
        assert import_snapshot(tmp_path, store) == 0
        assert store.count() == 0
    finally:
        store.close()
