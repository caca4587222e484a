"""The storage port on SQLite: one database file, WAL, durable at commit.

One table holds every item as JSON beside its key columns, the secondary
index and the TTL attribute. Readers run concurrently (WAL). A conditional
write reads the item and checks the condition inside the write transaction,
so check and write are one atomic step.

Writes commit in groups. With ``synchronous=FULL`` a commit waits for the
disk (an fsync, milliseconds), so writers that come while one commits queue
(in process: SQLite's own busy wait sleeps in coarse steps, its busy timeout
is only for another process, a backup), and the next of them commits all
that queued in one SQLite transaction: each write in a savepoint of its own,
run one after another as if alone — its conditions see the writes before it,
and one that fails is rolled back to its savepoint, alone — then one COMMIT,
one fsync for the group. No caller returns before the COMMIT that holds its
write: what a caller was told is written is on disk.

``synchronous=FULL`` (the default) makes a commit survive a power cut;
``NORMAL`` survives a killed process only, and is faster.
"""

from __future__ import annotations

import base64
import binascii
import json
import sqlite3
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

from numbridge.store.port import (
    MAX_CURSOR_CHARS,
    BadCursor,
    Condition,
    ConflictError,
    Delete,
    Item,
    KeyRange,
    Page,
    Put,
    Value,
    Write,
    check_batch_get,
    check_limits,
    clean,
    holds,
    item_bytes,
)

SCHEMA_VERSION = 1
TTL_ATTRIBUTE = "expires_at"
BUSY_TIMEOUT_MS = 30_000
# Sorts after every character a key can hold: the upper end of a prefix range.
_PREFIX_END = "\U0010ffff"
_T = TypeVar("_T")

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS items (
    pk TEXT NOT NULL,
    sk TEXT NOT NULL,
    gsi1pk TEXT,
    gsi1sk TEXT,
    {TTL_ATTRIBUTE} INTEGER,
    item TEXT NOT NULL,
    PRIMARY KEY (pk, sk)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS items_gsi1 ON items (gsi1pk, gsi1sk, pk, sk)
    WHERE gsi1pk IS NOT NULL;
CREATE INDEX IF NOT EXISTS items_expiry ON items ({TTL_ATTRIBUTE})
    WHERE {TTL_ATTRIBUTE} IS NOT NULL;
PRAGMA user_version = {SCHEMA_VERSION};
"""


# A bytes value in the item's JSON: an object (no other value is one), its text base64.
_BYTES = "b64"


def _bytes_as_json(value: object) -> dict[str, str]:
    if isinstance(value, bytes):
        return {_BYTES: base64.b64encode(value).decode()}
    raise TypeError(f"not a value of an item: {value!r}")


def _bytes_from_json(pairs: list[tuple[str, Any]]) -> Any:
    if len(pairs) == 1 and pairs[0][0] == _BYTES:
        return base64.b64decode(pairs[0][1])
    return dict(pairs)


def _encode(item: Item) -> str:
    return json.dumps(item, separators=(",", ":"), ensure_ascii=False, default=_bytes_as_json)


def _decode(text: str) -> Item:
    return dict(json.loads(text, object_pairs_hook=_bytes_from_json))


def _row(item: Item) -> tuple[Any, ...]:
    ttl = item.get(TTL_ATTRIBUTE)
    return (item["pk"], item["sk"], item.get("gsi1pk"), item.get("gsi1sk"),
            ttl if isinstance(ttl, int) and not isinstance(ttl, bool) else None, _encode(item))


def _cursor(values: Sequence[str]) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(values)).encode()).decode()


def _uncursor(cursor: str, length: int) -> list[str]:
    if len(cursor) > MAX_CURSOR_CHARS:
        raise BadCursor("cursor too long")
    try:
        values = json.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, binascii.Error, UnicodeError) as exc:
        raise BadCursor("not a cursor of this store") from exc
    if (not isinstance(values, list) or len(values) != length
            or not all(isinstance(v, str) for v in values)):
        raise BadCursor("not a cursor of this query")
    return values


class _Job(Generic[_T]):
    """One caller's write transaction, waiting in the queue for a group commit."""

    __slots__ = ("error", "finished", "promoted", "result", "wake", "work")

    def __init__(self, work: Callable[[sqlite3.Connection], _T]) -> None:
        self.work = work
        self.wake = threading.Event()  # finished, or promoted to commit the next group
        self.finished = False
        self.promoted = False
        self.result: _T | None = None
        self.error: BaseException | None = None


class SqliteStore:
    """The port on one SQLite file (``":memory:"`` is refused: threads need a shared file)."""

    def __init__(self, path: Path | str, *, synchronous: str = "FULL") -> None:
        if str(path) == ":memory:":
            raise ValueError("SqliteStore needs a file (threads share it)")
        if synchronous.upper() not in {"FULL", "NORMAL", "EXTRA"}:
            raise ValueError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        self.path = Path(path)
        self._synchronous = synchronous.upper()
        self._local = threading.local()
        self._write_lock = threading.Lock()
        self._queue_lock = threading.Lock()
        self._queue: list[_Job[Any]] = []  # under _queue_lock: writes waiting for a commit
        self._leading = False  # under _queue_lock: a thread is committing (or about to)
        self._opened: list[sqlite3.Connection] = []
        self._opened_lock = threading.Lock()
        with self._write_lock:
            self._connection().executescript(_SCHEMA)

    # ------------------------------------------------------------ connections

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            connection = sqlite3.connect(self.path, isolation_level=None,
                                         check_same_thread=False,
                                         timeout=BUSY_TIMEOUT_MS / 1000)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute(f"PRAGMA synchronous={self._synchronous}")
            connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._local.connection = connection
            with self._opened_lock:
                self._opened.append(connection)
        return connection

    def close(self) -> None:
        """Close every thread's connection (the store is unusable afterwards)."""
        with self._opened_lock:
            for connection in self._opened:
                connection.close()
            self._opened.clear()
        self._local = threading.local()

    def _write(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """``work`` in a write transaction: all of it commits, or (if it raises) none of
        it; its result once committed. Run in this thread or in the one committing the
        group it joins (``work`` uses the connection it is given, no other)."""
        job: _Job[_T] = _Job(work)
        with self._queue_lock:
            self._queue.append(job)
            leads = not self._leading
            self._leading = True
        if leads:
            self._lead()
        while not job.finished:
            job.wake.wait()
            job.wake.clear()
            if job.promoted and not job.finished:
                self._lead()
        if job.error is not None:
            raise job.error
        return job.result  # type: ignore[return-value]

    def _lead(self) -> None:
        """Commit what has queued, then hand the lead to the first who queued since."""
        with self._queue_lock:
            group, self._queue = self._queue, []
        try:
            with self._write_lock:
                self._commit(self._connection(), group)
        except BaseException as exc:  # no connection: nothing was written
            for job in group:
                job.error = job.error or exc
        finally:
            for job in group:
                job.finished = True
                job.wake.set()
            with self._queue_lock:
                if self._queue:
                    successor = self._queue[0]
                    successor.promoted = True
                    successor.wake.set()
                else:
                    self._leading = False

    @staticmethod
    def _commit(connection: sqlite3.Connection, group: list[_Job[Any]]) -> None:
        alone = len(group) == 1  # no savepoint needed: its failure rolls all back
        try:
            connection.execute("BEGIN IMMEDIATE")
            for job in group:
                if not alone:
                    connection.execute("SAVEPOINT job")
                try:
                    job.result = job.work(connection)
                except BaseException as exc:
                    job.error = exc
                    connection.execute("ROLLBACK" if alone else "ROLLBACK TO job")
                    if alone:
                        return
                if not alone:
                    connection.execute("RELEASE job")
            connection.execute("COMMIT")
        except BaseException as exc:  # BEGIN or COMMIT failed: nothing of the group landed
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            for job in group:
                if job.error is None:
                    job.error, job.result = exc, None

    @staticmethod
    def _current(connection: sqlite3.Connection, pk: str, sk: str) -> Item | None:
        row = connection.execute("SELECT item FROM items WHERE pk = ? AND sk = ?",
                                 (pk, sk)).fetchone()
        return None if row is None else _decode(row[0])

    # ------------------------------------------------------------ the port

    def get(self, pk: str, sk: str) -> Item | None:
        return self._current(self._connection(), pk, sk)

    def get_many(self, keys: Sequence[tuple[str, str]]) -> list[Item | None]:
        check_batch_get(keys)
        if not keys:
            return []
        where = " OR ".join(["(pk = ? AND sk = ?)"] * len(keys))
        rows = self._connection().execute(f"SELECT pk, sk, item FROM items WHERE {where}",
                                          [part for key in keys for part in key]).fetchall()
        found = {(pk, sk): _decode(item) for pk, sk, item in rows}
        return [found.get(key) for key in keys]

    def put(self, item: Mapping[str, Value | None], condition: Condition | None = None) -> None:
        self.transact([Put(item, condition)])

    def delete(self, pk: str, sk: str, condition: Condition | None = None) -> Item | None:
        def work(connection: sqlite3.Connection) -> Item | None:
            old = self._current(connection, pk, sk)
            if not holds(condition, old):
                raise ConflictError(f"condition {condition!r} failed on ({pk}, {sk})")
            if old is not None:
                connection.execute("DELETE FROM items WHERE pk = ? AND sk = ?", (pk, sk))
            return old

        return self._write(work)

    def transact(self, writes: Sequence[Write]) -> None:
        puts = {i: clean(w.item) for i, w in enumerate(writes) if isinstance(w, Put)}
        check_limits(writes, {i: item_bytes(item) for i, item in puts.items()})
        rows = {i: _row(item) for i, item in puts.items()}  # encoded before the queue

        def work(connection: sqlite3.Connection) -> None:
            for write in writes:
                if write.condition is not None and not holds(
                    write.condition, self._current(connection, *write.key)
                ):
                    raise ConflictError(f"condition {write.condition!r} failed on {write.key}")
            for i, write in enumerate(writes):
                if isinstance(write, Delete):
                    connection.execute("DELETE FROM items WHERE pk = ? AND sk = ?", write.key)
                else:
                    connection.execute("INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, ?, ?)",
                                       rows[i])

        self._write(work)

    def query(self, pk: str, keys: KeyRange | None = None, *, index: bool = False,
              limit: int | None = None, after: str | None = None,
              forward: bool = True) -> Page:
        keys = keys or KeyRange()
        pk_col, sk_col = ("gsi1pk", "gsi1sk") if index else ("pk", "sk")
        # Index entries may share a sort key: the table's key breaks the tie, as a cursor.
        order_cols = [sk_col, "pk", "sk"] if index else ["sk"]
        where = [f"{pk_col} = ?"]
        args: list[Any] = [pk]
        low = max(filter(None, (keys.low, keys.prefix)), default=None)
        if low is not None:
            where.append(f"{sk_col} >= ?")
            args.append(low)
        if keys.high is not None:
            where.append(f"{sk_col} <= ?")
            args.append(keys.high)
        if keys.prefix:
            where.append(f"{sk_col} < ?")
            args.append(keys.prefix + _PREFIX_END)
        if after is not None:
            partition, *start = _uncursor(after, len(order_cols) + 1)
            if partition != pk:
                raise BadCursor("a cursor of another query")
            where.append(f"({', '.join(order_cols)}) {'>' if forward else '<'} "
                         f"({', '.join('?' * len(order_cols))})")
            args += start
        direction = "ASC" if forward else "DESC"
        sql = (f"SELECT item FROM items WHERE {' AND '.join(where)} ORDER BY "
               + ", ".join(f"{c} {direction}" for c in order_cols))
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit + 1)  # one more: whether there is a next page
        rows = self._connection().execute(sql, args).fetchall()
        items = [i for i in (_decode(r[0]) for r in rows)
                 if keys.admits(str(i[sk_col]))]
        if limit is None or len(items) <= limit:
            return Page(items, None)
        items = items[:limit]
        return Page(items, _cursor([pk, *(str(items[-1][c]) for c in order_cols)]))

    def partitions(self, prefix: str = "") -> list[str]:
        rows = self._connection().execute(
            "SELECT DISTINCT pk FROM items WHERE pk >= ? AND pk < ? ORDER BY pk",
            (prefix, prefix + _PREFIX_END)).fetchall()
        return [str(r[0]) for r in rows]

    # ------------------------------------------------------------ housekeeping

    def purge_expired(self, now_s: int) -> int:
        """Delete items whose TTL has passed (what DynamoDB's TTL does, late); how many."""
        return self._write(lambda connection: int(connection.execute(
            f"DELETE FROM items WHERE {TTL_ATTRIBUTE} < ?", (now_s,)).rowcount))

    def purge_partitions(self, prefix: str) -> int:
        """Delete every item whose partition or sort key starts with ``prefix``."""
        end = prefix + _PREFIX_END
        return self._write(lambda connection: int(connection.execute(
            "DELETE FROM items WHERE (pk >= ? AND pk < ?) OR (sk >= ? AND sk < ?)",
            (prefix, end, prefix, end)).rowcount))

    def count(self) -> int:
        row = self._connection().execute("SELECT count(*) FROM items").fetchone()
        return int(row[0])

    def backup(self, target: Path | str) -> None:
        """A consistent copy of the database while it is in use (SQLite's backup API)."""
        destination = sqlite3.connect(target)
        try:
            self._connection().backup(destination)
        finally:
            destination.close()
