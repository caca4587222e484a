"""WebSocket connections: which player each belongs to, and each player's devices.

Each open connection holds one of its player's connection slots (``PLAYER#a`` /
``CONNSLOT#n``, taken conditionally with the connection's items), so that at most
:data:`~numbridge.caps.CONNECTIONS_PER_PLAYER` are open at once even when they
connect together. ``$disconnect`` frees the slot; a slot older than a connection
can live (:data:`~numbridge.caps.CONNECTION_LIFE_MS`) belongs to a connection that
vanished without one, and is taken over — a lost ``$disconnect`` cannot lock a
player out.

The connection's items (its own and the player's) keep when its token expires
(``token_expires_at``): a request after that is refused and the connection closed
(``service.dispatch``), and the fan-out posts nothing to it but closes it
(``service.delivery``).

Both items of a connection carry ``batch`` when it asked for batched events
(``batch=1``); rows written before had no such attribute and read as not batched.
"""

from __future__ import annotations

import contextlib
import time
import zlib

from numbridge.caps import CONNECTION_LIFE_MS, CONNECTIONS_PER_PLAYER, TooManyConnections
from numbridge.store import keys
from numbridge.store.port import (
    Absent,
    ConflictError,
    Equals,
    Item,
    KeyRange,
    Put,
    Store,
    Write,
)
from numbridge.store.seeks import Seek, Seeks
from numbridge.store.subscriptions import Subscriptions
from numbridge.store.watches import Receiver, Watches, token_expired
from numbridge.values import frozen

CONNECTION_TTL_S = 3 * 3600  # API Gateway closes connections after 2 h
# A slot lost to a condition is a slot another connection took: after one loss more than
# there are slots, they were all taken while this one tried (none is refused in a race
# that left a slot free).
SLOT_ATTEMPTS = CONNECTIONS_PER_PLAYER + 1


@frozen
class ConnectionSlot:
    n: int
    connection: str
    connected_ms: int


@frozen
class Connection:
    player: str
    batch: bool
    # When the token it connected with expires (epoch seconds; None: rows from before).
    token_expires_at: int | None = None

    def expired(self, now_ms: int) -> bool:
        return token_expired(self.token_expires_at, now_ms)


@frozen
class Removed:
    """What a connection's removal took away: its player (None: not known) and the
    seek that ended with it."""

    player: str | None
    seek: Seek | None


class Connections:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, connection_id: str, player: str, now_ms: int, batch: bool = False,
            token_expires_at: int | None = None) -> None:
        """Bind the connection to its player; :class:`TooManyConnections` when the
        player's slots are all held by live connections."""
        for _ in range(SLOT_ATTEMPTS):
            n, taken = self._free_slot(player, connection_id, now_ms)
            try:
                self.store.transact(self._add_writes(connection_id, player, now_ms, n, taken,
                                                     batch, token_expires_at))
                return
            except ConflictError:
                continue  # another connection took that slot first: read them again
        raise TooManyConnections("the player's connection slots are being taken")

    def slots(self, player: str) -> list[ConnectionSlot]:
        page = self.store.query(keys.player(player),
                                KeyRange(prefix=keys.CONNECTION_SLOT_PREFIX))
        return [ConnectionSlot(int(str(i["sk"]).removeprefix(keys.CONNECTION_SLOT_PREFIX)),
                               str(i["connection"]), int(i["connected_ms"]))
                for i in page.items]

    def _free_slot(self, player: str, connection_id: str,
                   now_ms: int) -> tuple[int, ConnectionSlot | None]:
        held = {slot.n: slot for slot in self.slots(player)}
        for mine in held.values():
            if mine.connection == connection_id:
                return mine.n, mine
        # Connects that race do not all reach for the same free slot first.
        start = zlib.crc32(connection_id.encode()) % CONNECTIONS_PER_PLAYER
        for i in range(CONNECTIONS_PER_PLAYER):
            n = (start + i) % CONNECTIONS_PER_PLAYER
            slot = held.get(n)
            if slot is None or slot.connected_ms + CONNECTION_LIFE_MS <= now_ms:
                return n, slot
        raise TooManyConnections(
            f"at most {CONNECTIONS_PER_PLAYER} connections each: close one first")

    @staticmethod
    def _add_writes(connection_id: str, player: str, now_ms: int, n: int,
                    taken: ConnectionSlot | None, batch: bool,
                    token_expires_at: int | None) -> list[Write]:
        expires = now_ms // 1000 + CONNECTION_TTL_S
        flag = True if batch else None
        held = Absent() if taken is None else Equals({"connection": taken.connection,
                                                      "connected_ms": taken.connected_ms})
        return [
            Put({"pk": keys.connection(connection_id), "sk": keys.CONN, "player": player,
                 "connected_ms": now_ms, "expires_at": expires, "slot": n, "watching": 0,
                 "subscribed": 0, "batch": flag, "token_expires_at": token_expires_at}),
            Put({"pk": keys.player(player), "sk": keys.connection(connection_id),
                 "expires_at": expires, "batch": flag, "token_expires_at": token_expires_at}),
            Put({"pk": keys.player(player), "sk": keys.connection_slot(n),
                 "connection": connection_id, "connected_ms": now_ms, "expires_at": expires},
                held),
        ]

    @staticmethod
    def key(connection_id: str) -> tuple[str, str]:
        return keys.connection(connection_id), keys.CONN

    @staticmethod
    def parse(item: Item | None) -> Connection | None:
        """The connection in its stored item (``None``: no such connection)."""
        if item is None:
            return None
        token_expires = item.get("token_expires_at")
        return Connection(str(item["player"]), item.get("batch") is True,
                          None if token_expires is None else int(token_expires))

    def get(self, connection_id: str) -> Connection | None:
        return self.parse(self.store.get(*self.key(connection_id)))

    def player_of(self, connection_id: str) -> str | None:
        found = self.get(connection_id)
        return None if found is None else found.player

    def remove(self, connection_id: str) -> str | None:
        """Forget a connection, its watches, subscriptions and seek; the player it
        belonged to, if it was known."""
        return self.remove_all(connection_id).player

    def remove_all(self, connection_id: str) -> Removed:
        """Forget a connection and all that was bound to it: what went with it.

        Its own item goes before its subscriptions and seek: a subscribe or a pairing
        that reads it after that fails (each is conditioned on it)."""
        Watches(self.store).drop_connection(connection_id)
        old = self.store.delete(keys.connection(connection_id), keys.CONN)
        Subscriptions(self.store).drop_connection(connection_id)
        if old is None:
            return Removed(None, None)
        player = str(old["player"])
        # The clock only dates the player's emptied seek item for the TTL.
        seek = Seeks(self.store).drop_connection(player, connection_id,
                                                 time.time_ns() // 1_000_000)
        self.store.delete(keys.player(player), keys.connection(connection_id))
        if "slot" in old:
            # Unless a newer connection took it over (this one outlived its life).
            with contextlib.suppress(ConflictError):
                self.store.delete(keys.player(player), keys.connection_slot(int(old["slot"])),
                                  Equals({"connection": connection_id}))
        return Removed(player, seek)

    def of_player(self, player: str) -> list[str]:
        return [r.connection for r in self.receivers(player)]

    def receivers(self, player: str) -> list[Receiver]:
        """The player's connections, each with whether it takes batched events and when
        its token expires."""
        page = self.store.query(keys.player(player), KeyRange(prefix=keys.CONN_PREFIX))
        return [Receiver.of(str(item["sk"]).removeprefix(keys.CONN_PREFIX), item)
                for item in page.items]
