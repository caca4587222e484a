"""Club data in the game table: proposals, each player's games, ratings, the archive."""

from __future__ import annotations

import json
from typing import Any

from numbridge.store.table import Table, Write

RATING_FIELDS = ("rating", "rd", "volatility")


def _player_pk(player: str) -> str:
    return f"PLAYER#{player}"


class Proposals:
    def __init__(self, table: Table) -> None:
        self.table = table

    def add(self, proposal: dict[str, Any]) -> None:
        pid, room = proposal["id"], proposal["room"]
        self.table.put(
            {"pk": f"PROPOSAL#{pid}", "sk": "PROPOSAL", "gsi1pk": f"ROOM#{room}",
             "gsi1sk": f"PROPOSAL#{proposal['created_ms']:015d}#{pid}",
             "proposal": json.dumps(proposal)},
            "attribute_not_exists(pk)",
        )

    def get(self, pid: str) -> dict[str, Any] | None:
        item = self.table.get(f"PROPOSAL#{pid}", "PROPOSAL")
        return None if item is None else dict(json.loads(item["proposal"]))

    def in_room(self, room: str) -> list[dict[str, Any]]:
        return [json.loads(i["proposal"]) for i in self.table.query(f"ROOM#{room}", index="gsi1")]

    def remove(self, pid: str) -> None:
        """Delete a proposal that must still exist (ConflictError if it is gone)."""
        self.table.delete(f"PROPOSAL#{pid}", "PROPOSAL", "attribute_exists(pk)")

    @staticmethod
    def remove_write(pid: str) -> Write:
        return Write.delete(f"PROPOSAL#{pid}", "PROPOSAL", "attribute_exists(pk)")


class PlayerGames:
    """One item per (player, game): what ``games`` lists."""

    def __init__(self, table: Table) -> None:
        self.table = table

    @staticmethod
    def put_write(player: str, game_id: str, summary: dict[str, Any]) -> Write:
        return Write.put({"pk": _player_pk(player), "sk": f"GAME#{game_id}",
                          "summary": json.dumps(summary)})

    def of_player(self, player: str) -> list[dict[str, Any]]:
        return [json.loads(i["summary"]) for i in self.table.query(_player_pk(player), "GAME#")]


class Ratings:
    """Glicko-2 ratings per (player, variant); ``rv`` versions each rating item."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def get(self, player: str, variant: str) -> dict[str, Any] | None:
        item = self.table.get(_player_pk(player), f"RATING#{variant}")
        if item is None:
            return None
        return {"name": player, "rv": item["rv"], "games": item["games"],
                **{f: float(item[f"{f}_e6"]) / 1e6 for f in RATING_FIELDS}}

    @staticmethod
    def put_write(player: str, variant: str, rating: dict[str, float], games: int,
                  expected_rv: int | None) -> Write:
        # Floats are stored as scaled integers: no Decimal context surprises.
        values: dict[str, Any] = {
            "pk": _player_pk(player), "sk": f"RATING#{variant}",
            "gsi1pk": f"LEADERBOARD#{variant}", "gsi1sk": player,
            "rv": (expected_rv or 0) + 1, "games": games,
            **{f"{f}_e6": round(rating[f] * 1e6) for f in RATING_FIELDS},
        }
        if expected_rv is None:
            return Write.put(values, "attribute_not_exists(pk)")
        return Write.put(values, "rv = :rv", None, {":rv": expected_rv})

    def leaderboard(self, variant: str) -> list[dict[str, Any]]:
        rows = []
        for item in self.table.query(f"LEADERBOARD#{variant}", index="gsi1"):
            rows.append({"name": item["gsi1sk"], "games": item["games"],
                         **{f: item[f"{f}_e6"] / 1e6 for f in RATING_FIELDS}})
        return rows


class Archive:
    def __init__(self, table: Table) -> None:
        self.table = table

    @staticmethod
    def put_write(game_id: str, record: dict[str, Any]) -> Write:
        return Write.put({"pk": f"GAME#{game_id}", "sk": "RECORD",
                          "record": json.dumps(record, separators=(",", ":"))},
                         "attribute_not_exists(pk)")

    def get(self, game_id: str) -> dict[str, Any] | None:
        item = self.table.get(f"GAME#{game_id}", "RECORD", consistent=False)
        return None if item is None else dict(json.loads(item["record"]))
