"""Quick pairing's waiting seeks: one per player, each bound to its connection.

A waiting seek is two items: ``SEEKS#room`` / ``SEEK#created#s`` (the room's seeks,
oldest first: one query lists them) and ``PLAYER#a`` / ``SEEK`` (the player's one
seek: a second replaces the first, conditioned on the first as read). The player's
item stays when the seek ends, empty (``seek`` ""), its count ``n`` moved on: every
change of a player's seeking — a seek stored, replaced, ended or paired — writes that
one item on condition that it is as read, so two devices of one player seeking at
once cannot both be paired (a condition on an item's absence would not conflict).

A pairing is one transaction (:meth:`Seeks.pair_writes`): each seek it takes is
deleted on condition that it is still there, each player's ``SEEK`` on condition
that it still names that seek, and each connection's item is written back on
condition that it is unchanged — a connection that closed meanwhile (its item
deleted first at ``$disconnect``) fails the pairing. Two pairings that reach for
the same seek cannot both commit: nobody is paired twice.
"""

from __future__ import annotations

from collections.abc import Mapping

from numbridge.store import keys
from numbridge.store.port import (
    Absent,
    ConflictError,
    Delete,
    Equals,
    Item,
    KeyRange,
    Put,
    Store,
    Write,
    unchanged,
)
from numbridge.values import frozen


class ConnectionGone(ConflictError):
    """A pairing's connection has closed (its item is deleted first at ``$disconnect``)."""

    def __init__(self, connection_id: str) -> None:
        super().__init__(f"connection {connection_id} is gone")
        self.connection = connection_id


# A seek outlives no connection (2 h at most); the TTL clears one whose
# $disconnect was lost.
SEEK_TTL_S = 3 * 3600


@frozen
class Seek:
    id: str
    room: str
    player: str
    connection: str
    rating: float
    rated: bool
    created_ms: int
    variant: str | None = None

    @property
    def sort_key(self) -> str:
        return keys.seek_order(self.created_ms, self.id)

    def public(self) -> dict[str, object]:
        """As the ``seek`` answer shows it."""
        shown: dict[str, object] = {"id": self.id, "room": self.room, "rated": self.rated,
                                    "created_ms": self.created_ms}
        if self.variant is not None:
            shown["variant"] = self.variant
        return shown


def _seek(item: Mapping[str, object]) -> Seek:
    variant = item.get("variant")
    return Seek(id=str(item["seek"]), room=str(item["room"]), player=str(item["player"]),
                connection=str(item["connection"]),
                rating=int(str(item["rating_e1"])) / 10, rated=item.get("rated") is True,
                created_ms=int(str(item["created_ms"])),
                variant=None if variant is None else str(variant))


class Seeks:
    def __init__(self, store: Store) -> None:
        self.store = store

    def in_room(self, room: str, now_ms: int | None = None) -> list[Seek]:
        """The room's waiting seeks, oldest first."""
        found: list[Seek] = []
        after: str | None = None
        while True:
            page = self.store.query(keys.seeks(room), KeyRange(prefix=keys.SEEK_PREFIX),
                                    after=after)
            found += [_seek(i) for i in page.items
                      if now_ms is None or int(i.get("expires_at", 0)) > now_ms // 1000]
            after = page.next
            if after is None:
                return found

    def waiting(self, room: str, now_ms: int) -> int:
        return len(self.in_room(room, now_ms))

    def of_player(self, player: str) -> Item | None:
        """The player's ``SEEK`` item (which seek, in which room; empty when none waits),
        if any."""
        return self.store.get(keys.player(player), keys.SEEK)

    def get(self, player: str) -> Seek | None:
        mine = self.of_player(player)
        if not waiting(mine):
            return None
        assert mine is not None
        item = self.store.get(keys.seeks(str(mine["room"])), str(mine["order"]))
        return None if item is None else _seek(item)

    @staticmethod
    def put_writes(seek: Seek, replacing: Item | None) -> list[Write]:
        """Store a waiting seek, in place of the player's earlier one (its item as read)."""
        expires = seek.created_ms // 1000 + SEEK_TTL_S
        writes: list[Write] = [
            Put({"pk": keys.seeks(seek.room), "sk": seek.sort_key, "seek": seek.id,
                 "room": seek.room, "player": seek.player, "connection": seek.connection,
                 "rating_e1": round(seek.rating * 10), "rated": seek.rated,
                 "created_ms": seek.created_ms, "variant": seek.variant,
                 "expires_at": expires}, Absent()),
            Put({"pk": keys.player(seek.player), "sk": keys.SEEK, "seek": seek.id,
                 "room": seek.room, "order": seek.sort_key, "connection": seek.connection,
                 "n": _next(replacing), "expires_at": expires},
                Absent() if replacing is None else unchanged(replacing)),
        ]
        return writes + _room_item_deletes(replacing)

    @staticmethod
    def end_writes(seek: Seek, now_ms: int, n: int) -> list[Write]:
        """Take a waiting seek away (paired, cancelled, its connection gone): its room's
        item deleted and the player's emptied, each on condition that it is still this
        seek (``n``: the player's item's count as read)."""
        return [Delete(keys.seeks(seek.room), seek.sort_key, Equals({"seek": seek.id})),
                _idle(seek.player, n + 1, now_ms, Equals({"seek": seek.id, "n": n}))]

    def pair_writes(self, taken: list[Seek], requester: str | None, mine: Item | None,
                    connections: list[str], now_ms: int) -> list[Write]:
        """What pairs the seekers: the waiting seeks ``taken`` ended; the ``requester``
        (who has no seek among them) with their item as read (``mine``: their earlier
        seek ended too, or no seek); each connection checked open. :class:`ConflictError`
        now if a seek is already gone, :class:`ConnectionGone` if a connection is."""
        writes: list[Write] = []
        for seek in taken:
            item = self.of_player(seek.player)
            if item is None or item.get("seek") != seek.id:
                raise ConflictError(f"seek {seek.id} is no longer waiting")
            writes += self.end_writes(seek, now_ms, int(item.get("n", 0)))
        if requester is not None:
            writes += [_idle(requester, _next(mine), now_ms,
                             Absent() if mine is None else unchanged(mine)),
                       *_room_item_deletes(mine)]
        for connection_id in connections:
            item = self.store.get(keys.connection(connection_id), keys.CONN)
            if item is None:
                raise ConnectionGone(connection_id)
            writes.append(Put(item, unchanged(item)))
        return writes

    def end(self, seek: Seek, now_ms: int) -> list[Write]:
        """The writes that end a waiting seek, its player's item read now."""
        item = self.of_player(seek.player)
        if item is None or item.get("seek") != seek.id:
            raise ConflictError(f"seek {seek.id} is no longer waiting")
        return self.end_writes(seek, now_ms, int(item.get("n", 0)))

    def drop_connection(self, player: str, connection_id: str,
                        now_ms: int) -> Seek | None:
        """End the player's seek if it belongs to this connection; the seek it ended."""
        seek = self.get(player)
        if seek is None or seek.connection != connection_id:
            return None
        try:
            self.store.transact(self.end(seek, now_ms))
        except ConflictError:
            return None  # paired or replaced meanwhile
        return seek


def waiting(mine: Item | None) -> bool:
    """Whether a player's ``SEEK`` item names a waiting seek."""
    return mine is not None and bool(mine.get("seek"))


def _next(mine: Item | None) -> int:
    return 1 if mine is None else int(mine.get("n", 0)) + 1


def _idle(player: str, n: int, now_ms: int, condition: Absent | Equals) -> Put:
    """The player's item with no seek waiting (kept a while: see above)."""
    return Put({"pk": keys.player(player), "sk": keys.SEEK, "seek": "", "n": n,
                "expires_at": now_ms // 1000 + SEEK_TTL_S}, condition)


def _room_item_deletes(mine: Item | None) -> list[Write]:
    """The room's item of the player's earlier seek, if one waits."""
    if not waiting(mine):
        return []
    assert mine is not None
    return [Delete(keys.seeks(str(mine["room"])), str(mine["order"]))]
