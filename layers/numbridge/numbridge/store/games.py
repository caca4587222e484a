"""Game state and game events.

The state item carries the condition attributes of every write: ``v`` (the
game's version), ``turn`` and ``step`` (moves left in a Domains pair). A move
is one transaction: the state put under those conditions plus its events, so
events exist exactly when the state that produced them does.

A move's events are one item (``EV#`` + the version of its last event, holding
``first`` and the list ``events``): DynamoDB bills each item written, however
small, and a move makes three events or so. Keyed by the last version, the
items from ``EV#(v+1)`` on are exactly those holding an event after ``v``.
Games written before kept one item per event (``v``, ``to``, ``frame``); those
are read as they are, beside the new ones.

A game is dealt ``unwatched``: its moves then skip the query for its watchers.
The first ``watch`` takes the mark off (:meth:`Games.mark_watched`) before it
reads the state it answers with, and a move commits only if the mark it read
is still there: a move decided before the watch stood fails its commit and is
decided again, now for the watchers. Games dealt before had no mark: watched.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from numbridge.store import keys, state_codec
from numbridge.store.port import (
    MAX_BATCH_GET_KEYS,
    Absent,
    ConflictError,
    Equals,
    Item,
    KeyRange,
    Put,
    Store,
    Value,
    Write,
)
from numbridge.values import frozen

NO_TURN = "-"
# Past this many bytes of events an item is closed and the next begins (an item may
# hold at most 400 KB; a move's events are a few hundred bytes).
EVENTS_ITEM_BYTES = 64 * 1024
# The state item is rewritten by every move and DynamoDB bills writes per KB: stored
# packed (state_codec) it takes a fifth of the units or less (docs/cost.md).
COMPRESS_STATE = True


@frozen
class GameRow:
    """The stored head of a game: its state and the attributes writes are conditioned on."""

    game_id: str
    state: dict[str, Any]
    v: int
    turn: str
    step: int
    status: str
    players: dict[str, str]
    unwatched: bool = False  # nobody has watched it yet: no watchers to read


@frozen
class StoredEvent:
    v: int
    to: str | None  # None: every viewer; else the one seat that may see it
    frame: dict[str, Any]


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


def _packed_state(state: dict[str, Any]) -> dict[str, Value | None]:
    if not COMPRESS_STATE:
        return {"state": _compact(state)}
    return {"stateb": state_codec.pack(state)}


# Where a state item keeps its state, newest layout first; an item has one of them.
# ``statez`` (zlib, then base64 text) and ``state`` (plain JSON) are how states were
# stored before: they are read as they are, and rewritten packed by the next move.
STATE_ATTRIBUTES = ("stateb", "statez", "state")


def state_text(item: Mapping[str, Value | None]) -> str:
    """The state's JSON text in a stored state item, however it is stored."""
    packed = item.get("stateb")
    if isinstance(packed, bytes):
        return state_codec.text(packed)
    if "statez" in item:
        return zlib.decompress(base64.b64decode(str(item["statez"]))).decode()
    return str(item["state"])


def _chunks(events: Sequence[StoredEvent]) -> list[list[StoredEvent]]:
    chunks: list[list[StoredEvent]] = []
    size = EVENTS_ITEM_BYTES
    for event in events:
        bytes_ = len(_compact(event.frame))
        if size + bytes_ > EVENTS_ITEM_BYTES:
            chunks.append([])
            size = 0
        chunks[-1].append(event)
        size += bytes_
    return chunks


def stored_events(item: Mapping[str, Value]) -> list[StoredEvent]:
    """The events of one stored item, in either layout."""
    if "events" not in item:  # one item per event, as games were stored before
        to = item.get("to")
        return [StoredEvent(int(item["v"]), None if to is None else str(to),
                            json.loads(str(item["frame"])))]
    return [StoredEvent(int(v), to, frame) for v, to, frame in json.loads(str(item["events"]))]


def _unpacked_state(item: Mapping[str, Value]) -> dict[str, Any]:
    packed = item.get("stateb")
    if isinstance(packed, bytes):
        return state_codec.unpack(packed)
    return dict(json.loads(state_text(item)))


# A state item read ahead for this request (Games.read_ahead): its first load uses it.
_read_ahead: ContextVar[dict[str, Item | None] | None] = ContextVar("read_ahead", default=None)


class Games:
    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def state_key(game_id: str) -> tuple[str, str]:
        return keys.game(game_id), keys.STATE

    @staticmethod
    @contextmanager
    def read_ahead(game_id: str, item: Item | None) -> Iterator[None]:
        """Within this block (this thread or task), the first load of ``game_id`` is
        ``item``, read with something else in one request; later loads read again (a
        decision taken again after a lost race sees what won it)."""
        token = _read_ahead.set({game_id: item})
        try:
            yield
        finally:
            _read_ahead.reset(token)

    def load(self, game_id: str) -> GameRow | None:
        ahead = _read_ahead.get()
        if ahead is not None and game_id in ahead:
            item = ahead.pop(game_id)
        else:
            item = self.store.get(*self.state_key(game_id))
        if item is None:
            return None
        return GameRow(
            game_id=game_id,
            state=_unpacked_state(item),
            v=int(item["v"]),
            turn=str(item["turn"]),
            step=int(item["step"]),
            status=str(item["status"]),
            players=json.loads(str(item["players"])),
            unwatched=item.get("unwatched") is True,
        )

    def status(self, game_id: str) -> str | None:
        """The game's status, or None if there is no such game."""
        item = self.store.get(keys.game(game_id), keys.STATE)
        return None if item is None else str(item["status"])

    def version(self, game_id: str) -> int | None:
        """The game's version, or None if there is no such game."""
        item = self.store.get(keys.game(game_id), keys.STATE)
        return None if item is None else int(item["v"])

    @staticmethod
    def state_put(game_id: str, state: dict[str, Any], *, v: int, turn: str | None,
                  step: int, status: str, players: Mapping[Any, str],
                  deadline_ms: int | None, expected: GameRow | None) -> Write:
        """The conditional put of a game's state: new (no such game yet) or the
        successor of ``expected`` (same version, turn and pair step)."""
        values: dict[str, Value | None] = {
            "pk": keys.game(game_id), "sk": keys.STATE, "v": v, "turn": turn or NO_TURN,
            "step": step, "status": status, **_packed_state(state),
            "players": json.dumps(dict(players)),
        }
        if deadline_ms is not None and status == "playing":
            # A plain attribute, not an index key: the deadline moves with every move, and
            # an index keyed by it was written again at every move (the state's whole
            # size, twice: docs/cost.md). The sweep finds the games in play by their room.
            values["deadline"] = deadline_ms
        if expected is None:
            return Put({**values, "unwatched": True}, Absent())
        condition: dict[str, Value] = {"v": expected.v, "turn": expected.turn,
                                       "step": expected.step}
        if expected.unwatched:
            values["unwatched"] = condition["unwatched"] = True
        return Put(values, Equals(condition))

    def mark_watched(self, game_id: str, attempts: int = 10) -> None:
        """Take the ``unwatched`` mark off the game's state (if it is there): from now on
        every move reads the game's watchers after its commit."""
        for _ in range(attempts):
            item = self.store.get(keys.game(game_id), keys.STATE)
            if item is None or item.get("unwatched") is not True:
                return
            unchanged = {k: v for k, v in item.items() if k not in {"pk", "sk"}}
            try:
                self.store.put({**item, "unwatched": None}, Equals(unchanged))
                return
            except ConflictError:
                continue  # a move landed meanwhile: read it again
        raise ConflictError(f"game {game_id} kept changing while it was marked watched")

    @staticmethod
    def event_puts(game_id: str, events: Sequence[StoredEvent]) -> list[Write]:
        """The puts of one transition's events (in ``v`` order): one item, or a few if
        they are large; each only if new, so a version is never written twice."""
        return [
            Put({"pk": keys.game(game_id), "sk": keys.event(chunk[-1].v),
                 "first": chunk[0].v, "v": chunk[-1].v,
                 "events": _compact([[e.v, e.to, e.frame] for e in chunk])}, Absent())
            for chunk in _chunks(events)
        ]

    def events_after(self, game_id: str, v: int, limit: int | None = None) -> list[StoredEvent]:
        """The stored events after version ``v``, in order (at most ``limit``)."""
        page = self.store.query(
            keys.game(game_id), KeyRange(low=keys.event(v + 1), high=keys.LAST_EVENT),
            limit=limit,
        )
        found = [e for item in page.items for e in stored_events(item) if e.v > v]
        return found if limit is None else found[:limit]

    def deadlines(self, room_ids: Sequence[str], upto_ms: int | None = None,
                  ) -> list[tuple[str, int, int]]:
        """(game, v, deadline) of every game being played in ``room_ids`` whose deadline
        runs (at or before ``upto_ms``), earliest first. The games being played are the
        ones their room lists (``PLAYING#room``: listed when a game starts, out of the
        list while it is adjourned, gone when it ends); their deadlines are read from
        their states, a hundred a request."""
        playing: list[str] = []
        for room in room_ids:
            after = None
            while True:
                page = self.store.query(keys.playing_in(room), index=True, after=after)
                playing += [keys.game_id_of(str(i["pk"])) for i in page.items]
                if page.next is None:
                    break
                after = page.next
        found = []
        for start in range(0, len(playing), MAX_BATCH_GET_KEYS):
            chunk = playing[start:start + MAX_BATCH_GET_KEYS]
            for game_id, item in zip(chunk, self.store.get_many(
                    [(keys.game(g), keys.STATE) for g in chunk]), strict=True):
                deadline = None if item is None else _deadline(item)
                if item is not None and deadline is not None and (
                        upto_ms is None or deadline <= upto_ms):
                    found.append((game_id, int(item["v"]), deadline))
        return sorted(found, key=lambda row: row[2])

    def due(self, room_ids: Sequence[str], now_ms: int) -> list[str]:
        """Games whose current deadline is at or before ``now_ms`` (the sweep)."""
        return [game_id for game_id, _, _ in self.deadlines(room_ids, now_ms)]


def _deadline(state_item: Mapping[str, Any]) -> int | None:
    """The deadline a game's state runs to, if it is being played; a state stored before
    the deadline left the index keeps it in its index key (``DEADLINE#n`` / deadline)."""
    if state_item.get("status") != "playing":
        return None
    if state_item.get("deadline") is not None:
        return int(state_item["deadline"])
    if str(state_item.get("gsi1pk", "")).startswith("DEADLINE#"):
        return int(str(state_item["gsi1sk"]))
    return None
