"""Spectators: which connections watch which game, and how many.

A watch is two items, written and deleted together: ``GAME#g`` / ``WATCH#c``
(a game's watchers are one query of its partition, for the fan-out) and
``CONN#c`` / ``WATCH#g`` (a connection's watches, deleted with the connection
at ``$disconnect`` or when a post finds it gone). Both carry ``expires_at``: a
connection that vanished without ``$disconnect`` is forgotten by the TTL, and
reads skip an expired watch before the TTL gets to it (DynamoDB's deletes late).

Two counters go in the same transactions, each a read-modify-write conditioned
on its item as read: ``watching`` on the connection's item (at most
:data:`~numbridge.caps.WATCHES_PER_CONNECTION`) and ``watchers`` on the game's
live item (``GAME#g`` / ``PLAYING``, kept unlisted while the game is adjourned;
at most :data:`~numbridge.caps.WATCHERS_PER_GAME`), which is what ``live``
shows. A watch that the TTL removed leaves a counter high: at a cap the watches
are counted again before anyone is refused (and the game's count again whenever
it is adjourned or resumed).

The game's item carries ``batch`` when the connection takes batched events, and
when the token the connection signed in with expires (``token_expires_at``): the
fan-out posts nothing to a connection past it (``service.delivery``).
"""

from __future__ import annotations

from numbridge.caps import WATCHERS_PER_GAME, WATCHES_PER_CONNECTION, GameFull, TooManyWatches
from numbridge.store import keys
from numbridge.store.port import (
    Absent,
    ConflictError,
    Delete,
    Item,
    KeyRange,
    Present,
    Put,
    Store,
    Write,
    unchanged,
)
from numbridge.values import frozen

# As long as a connection's own item: API Gateway closes every connection after 2 h.
WATCH_TTL_S = 3 * 3600
# Reads and commits before a watch gives up when others keep changing the counters.
ATTEMPTS = 8


@frozen
class Audience:
    """A game's version and how many connections watch it, read together."""

    v: int
    watchers: int


@frozen
class Receiver:
    """A connection frames are posted to, and whether it takes batched events."""

    connection: str
    batch: bool
    # When the token the connection signed in with expires (epoch seconds; None: rows
    # from before, or a token without one).
    token_expires_at: int | None = None

    def expired(self, now_ms: int) -> bool:
        return token_expired(self.token_expires_at, now_ms)

    @classmethod
    def of(cls, connection: str, item: Item) -> Receiver:
        expires = item.get("token_expires_at")
        return cls(connection, item.get("batch") is True,
                   None if expires is None else int(expires))


def token_expired(token_expires_at: int | None, now_ms: int) -> bool:
    """Whether a connection's token (expiry in epoch seconds; None: never recorded) is
    past at ``now_ms``."""
    return token_expires_at is not None and now_ms >= token_expires_at * 1000


def _current(item: Item, now_ms: int) -> bool:
    return int(item.get("expires_at", 0)) > now_ms // 1000


def _counted(item: Item, attribute: str, value: int) -> Put:
    return Put({**item, attribute: max(0, value)}, unchanged(item))


class Watches:
    def __init__(self, store: Store) -> None:
        self.store = store

    def add(self, game_id: str, connection_id: str, player: str, now_ms: int,
            batch: bool = False, token_expires_at: int | None = None) -> None:
        """Watch (again: the TTL starts over); :class:`TooManyWatches` or
        :class:`GameFull` at a cap, :class:`ConflictError` if the counters kept
        changing under it."""
        for _ in range(ATTEMPTS):
            try:
                self.store.transact(self._add_writes(game_id, connection_id, player, now_ms,
                                                     batch, token_expires_at))
                return
            except ConflictError:
                continue
        raise ConflictError(f"the watchers of game {game_id} kept changing")

    def _add_writes(self, game_id: str, connection_id: str, player: str,
                    now_ms: int, batch: bool, token_expires_at: int | None) -> list[Write]:
        expires = now_ms // 1000 + WATCH_TTL_S
        watched = self.store.get(keys.connection(connection_id), keys.watched(game_id))
        rows: list[Write] = [
            Put({"pk": keys.game(game_id), "sk": keys.watcher(connection_id),
                 "player": player, "expires_at": expires, "batch": True if batch else None,
                 "token_expires_at": token_expires_at}),
            Put({"pk": keys.connection(connection_id), "sk": keys.watched(game_id),
                 "expires_at": expires}, Absent() if watched is None else Present()),
        ]
        if watched is not None:  # watching already: counted already
            return rows
        writes = rows
        connection = self.store.get(keys.connection(connection_id), keys.CONN)
        if connection is not None:
            watching = int(connection.get("watching", WATCHES_PER_CONNECTION))
            if watching >= WATCHES_PER_CONNECTION:
                watching = len(self.of_connection(connection_id, now_ms))
            if watching >= WATCHES_PER_CONNECTION:
                raise TooManyWatches(f"at most {WATCHES_PER_CONNECTION} games watched on "
                                     "one connection: unwatch one first")
            writes.append(_counted(connection, "watching", watching + 1))
        live = self.store.get(keys.game(game_id), keys.PLAYING)
        watchers = int(live.get("watchers", WATCHERS_PER_GAME)) if live else WATCHERS_PER_GAME
        if watchers >= WATCHERS_PER_GAME:
            watchers = self.count(game_id, now_ms)
        if watchers >= WATCHERS_PER_GAME:
            raise GameFull(f"game {game_id} has {WATCHERS_PER_GAME} watchers already")
        if live is not None:
            writes.append(_counted(live, "watchers", watchers + 1))
        return writes

    def remove(self, game_id: str, connection_id: str, now_ms: int) -> bool:
        """Stop watching; whether the connection was watching the game."""
        for _ in range(ATTEMPTS):
            item = self.store.get(keys.connection(connection_id), keys.watched(game_id))
            if item is None:
                return False
            connection = self.store.get(keys.connection(connection_id), keys.CONN)
            writes = self._remove_writes(game_id, connection_id)
            if connection is not None and "watching" in connection:
                writes.append(_counted(connection, "watching", int(connection["watching"]) - 1))
            try:
                self.store.transact(writes)
            except ConflictError:
                continue
            return _current(item, now_ms)
        raise ConflictError(f"the watchers of game {game_id} kept changing")

    def of_game(self, game_id: str, now_ms: int) -> list[str]:
        """The connections watching a game."""
        return [r.connection for r in self.receivers(game_id, now_ms)]

    def receivers(self, game_id: str, now_ms: int) -> list[Receiver]:
        """The connections watching a game, each with whether it takes batched events."""
        page = self.store.query(keys.game(game_id), KeyRange(prefix=keys.WATCH_PREFIX))
        return [Receiver.of(str(i["sk"]).removeprefix(keys.WATCH_PREFIX), i)
                for i in page.items if _current(i, now_ms)]

    def count(self, game_id: str, now_ms: int) -> int:
        """How many connections watch a game, counted from the watches themselves."""
        return len(self.of_game(game_id, now_ms))

    def of_connection(self, connection_id: str, now_ms: int) -> list[str]:
        """The games a connection watches."""
        page = self.store.query(keys.connection(connection_id),
                                KeyRange(prefix=keys.WATCH_PREFIX))
        return [str(i["sk"]).removeprefix(keys.WATCH_PREFIX) for i in page.items
                if _current(i, now_ms)]

    def audience(self, game_id: str, now_ms: int) -> Audience | None:
        """The game's version and its watchers counted in one query (they sort right
        after its state); None if there is no such game."""
        page = self.store.query(keys.game(game_id),
                                KeyRange(low=keys.STATE, high=keys.WATCHERS_END))
        head = next((i for i in page.items if i["sk"] == keys.STATE), None)
        if head is None:
            return None
        watchers = sum(1 for i in page.items
                       if str(i["sk"]).startswith(keys.WATCH_PREFIX) and _current(i, now_ms))
        return Audience(int(head["v"]), watchers)

    def drop_connection(self, connection_id: str) -> None:
        """Forget every watch of a connection (it closed, or a post found it gone)."""
        page = self.store.query(keys.connection(connection_id),
                                KeyRange(prefix=keys.WATCH_PREFIX))
        for item in page.items:
            game_id = str(item["sk"]).removeprefix(keys.WATCH_PREFIX)
            for _ in range(ATTEMPTS):
                try:
                    self.store.transact(self._remove_writes(game_id, connection_id))
                    break
                except ConflictError:
                    continue
            else:  # the count stays high until it is counted again (see above)
                self.store.transact(self._deletes(game_id, connection_id))

    def _remove_writes(self, game_id: str, connection_id: str) -> list[Write]:
        """The watch's two items (still there), and one watcher fewer in the game's count."""
        writes: list[Write] = [Delete(keys.game(game_id), keys.watcher(connection_id)),
                               Delete(keys.connection(connection_id), keys.watched(game_id),
                                      Present())]
        live = self.store.get(keys.game(game_id), keys.PLAYING)
        if live is not None and "watchers" in live:
            writes.append(_counted(live, "watchers", int(live["watchers"]) - 1))
        return writes

    @staticmethod
    def _deletes(game_id: str, connection_id: str) -> list[Write]:
        return [Delete(keys.game(game_id), keys.watcher(connection_id)),
                Delete(keys.connection(connection_id), keys.watched(game_id))]
