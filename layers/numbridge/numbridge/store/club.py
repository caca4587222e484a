"""Club data: proposals, each player's games, ratings, the archive."""

from __future__ import annotations

import json
from typing import Any

from numbridge.store import keys
from numbridge.store.port import Absent, Delete, Equals, KeyRange, Present, Put, Store, Write

RATING_FIELDS = ("rating", "rd", "volatility")


class Proposals:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, proposal: dict[str, Any]) -> None:
        self.store.put(self.add_write(proposal).item, Absent())

    @staticmethod
    def add_write(proposal: dict[str, Any]) -> Put:
        pid, room = proposal["id"], proposal["room"]
        return Put({"pk": keys.proposal(pid), "sk": keys.PROPOSAL, "gsi1pk": keys.room(room),
                    "gsi1sk": keys.proposal_order(proposal["created_ms"], pid),
                    "proposal": json.dumps(proposal)}, Absent())

    def get(self, pid: str) -> dict[str, Any] | None:
        item = self.store.get(keys.proposal(pid), keys.PROPOSAL)
        return None if item is None else dict(json.loads(str(item["proposal"])))

    def in_room(self, room: str) -> list[dict[str, Any]]:
        page = self.store.query(keys.room(room), index=True)
        return [json.loads(str(i["proposal"])) for i in page.items]

    def remove(self, pid: str) -> None:
        """Delete a proposal that must still exist (ConflictError if it is gone)."""
        self.store.delete(keys.proposal(pid), keys.PROPOSAL, Present())

    @staticmethod
    def remove_write(pid: str) -> Write:
        return Delete(keys.proposal(pid), keys.PROPOSAL, Present())


class PlayerGames:
    """One item per (player, game): what ``games`` lists."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def put_write(player: str, game_id: str, summary: dict[str, Any]) -> Write:
        return Put({"pk": keys.player(player), "sk": keys.player_game(game_id),
                    "summary": json.dumps(summary)})

    def of_player(self, player: str) -> list[dict[str, Any]]:
        page = self.store.query(keys.player(player), KeyRange(prefix=keys.GAME_PREFIX))
        return [json.loads(str(i["summary"])) for i in page.items]


class Ratings:
    """Glicko-2 ratings per (player, variant); ``rv`` versions each rating item."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, player: str, variant: str) -> dict[str, Any] | None:
        item = self.store.get(keys.player(player), keys.rating(variant))
        if item is None:
            return None
        return {"name": player, "rv": item["rv"], "games": item["games"],
                **{f: int(item[f"{f}_e6"]) / 1e6 for f in RATING_FIELDS}}

    @staticmethod
    def put_write(player: str, variant: str, rating: dict[str, float], games: int,
                  expected_rv: int | None) -> Write:
        # Floats are stored as scaled integers: exact in both stores.
        values: dict[str, str | int] = {
            "pk": keys.player(player), "sk": keys.rating(variant),
            "gsi1pk": keys.leaderboard(variant), "gsi1sk": player,
            "rv": (expected_rv or 0) + 1, "games": games,
            **{f"{f}_e6": round(rating[f] * 1e6) for f in RATING_FIELDS},
        }
        if expected_rv is None:
            return Put(values, Absent())
        return Put(values, Equals({"rv": expected_rv}))

    def leaderboard(self, variant: str) -> list[dict[str, Any]]:
        page = self.store.query(keys.leaderboard(variant), index=True)
        return [{"name": item["gsi1sk"], "games": item["games"],
                 **{f: int(item[f"{f}_e6"]) / 1e6 for f in RATING_FIELDS}}
                for item in page.items]


class Archive:
    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def put_write(game_id: str, record: dict[str, Any]) -> Write:
        return Put({"pk": keys.game(game_id), "sk": keys.RECORD,
                    "record": json.dumps(record, separators=(",", ":"))}, Absent())

    def get(self, game_id: str) -> dict[str, Any] | None:
        item = self.store.get(keys.game(game_id), keys.RECORD)
        return None if item is None else dict(json.loads(str(item["record"])))
