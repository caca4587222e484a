"""Game state and game events in the game table.

The state item carries the condition attributes of every write: ``v`` (the
game's version), ``turn`` and ``step`` (moves left in a Domains pair). A move
is one transaction: the state put under those conditions plus one item per
new event, so events exist exactly when the state that produced them does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from numbridge.store.table import Table, Write

DEADLINE_PARTITION = "DEADLINE#0"
EVENT_KEY = "EV#{:09d}"
MAX_EVENT_KEY = EVENT_KEY.format(999_999_999)
NO_TURN = "-"


def game_pk(game_id: str) -> str:
    return f"GAME#{game_id}"


def deadline_sort_key(deadline_ms: int) -> str:
    return f"{deadline_ms:015d}"


@dataclass(frozen=True)
class GameRow:
    """The stored head of a game: its state and the attributes writes are conditioned on."""

    game_id: str
    state: dict[str, Any]
    v: int
    turn: str
    step: int
    status: str
    players: dict[str, str]


@dataclass(frozen=True)
class StoredEvent:
    v: int
    to: str | None  # None: every viewer; else the one seat that may see it
    frame: dict[str, Any]


class Games:
    def __init__(self, table: Table) -> None:
        self.table = table

    def load(self, game_id: str) -> GameRow | None:
        item = self.table.get(game_pk(game_id), "STATE")
        if item is None:
            return None
        return GameRow(
            game_id=game_id,
            state=json.loads(item["state"]),
            v=item["v"],
            turn=item["turn"],
            step=item["step"],
            status=item["status"],
            players=json.loads(item["players"]),
        )

    def state_put(self, game_id: str, state: dict[str, Any], *, v: int, turn: str | None,
                  step: int, status: str, players: Mapping[Any, str],
                  deadline_ms: int | None, expected: GameRow | None) -> Write:
        """The conditional put of a game's state: new (no such game yet) or the
        successor of ``expected`` (same version, turn and pair step)."""
        values: dict[str, Any] = {
            "pk": game_pk(game_id), "sk": "STATE", "v": v, "turn": turn or NO_TURN,
            "step": step, "status": status, "state": json.dumps(state, separators=(",", ":")),
            "players": json.dumps(dict(players)),
        }
        if deadline_ms is not None and status == "playing":
            values["gsi1pk"] = DEADLINE_PARTITION
            values["gsi1sk"] = deadline_sort_key(deadline_ms)
        if expected is None:
            return Write.put(values, "attribute_not_exists(pk)")
        return Write.put(
            values,
            "#v = :v AND #turn = :turn AND #step = :step",
            {"#v": "v", "#turn": "turn", "#step": "step"},
            {":v": expected.v, ":turn": expected.turn, ":step": expected.step},
        )

    @staticmethod
    def event_puts(game_id: str, events: Sequence[StoredEvent]) -> list[Write]:
        return [
            Write.put(
                {"pk": game_pk(game_id), "sk": EVENT_KEY.format(e.v), "v": e.v,
                 "to": e.to, "frame": json.dumps(e.frame, separators=(",", ":"))},
                "attribute_not_exists(pk)",
            )
            for e in events
        ]

    def events_after(self, game_id: str, v: int, limit: int | None = None) -> list[StoredEvent]:
        items = self.table.query(
            game_pk(game_id), between=(EVENT_KEY.format(v + 1), MAX_EVENT_KEY),
            limit=limit, consistent=True,
        )
        return [StoredEvent(i["v"], i.get("to"), json.loads(i["frame"])) for i in items]

    def due(self, now_ms: int) -> list[str]:
        """Games whose current deadline is at or before ``now_ms`` (the sweep)."""
        items = self.table.query_range("gsi1", DEADLINE_PARTITION, deadline_sort_key(now_ms))
        return [i["pk"].removeprefix("GAME#") for i in items]
