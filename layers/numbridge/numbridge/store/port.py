"""The storage port: what the service needs of a database, said once.

Items are flat mappings of attribute name to ``str``, ``int``, ``bool`` or
``bytes`` (``None`` means "no such attribute"; ``bytes`` is DynamoDB's Binary,
billed by its length where text would be billed by its UTF-8). Every item has a partition key ``pk``
and a sort key ``sk``; an item that carries ``gsi1pk``/``gsi1sk`` is also in
the secondary index ``gsi1`` (proposals by room, challenges by their player, the
leaderboard, the deadline index). Conditions are data (:class:`Absent`, :class:`Present`,
:class:`Equals`) that each adapter renders in its own terms; a lost condition
is :class:`ConflictError` on every adapter.

Both adapters keep DynamoDB's limits, so what works on one machine works in
AWS: at most :data:`MAX_TRANSACTION_ITEMS` writes in a transaction, at most
:data:`MAX_ITEM_BYTES` per item (:class:`LimitError` beyond).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Protocol, TypeAlias, runtime_checkable

from numbridge.values import frozen

Value: TypeAlias = str | int | bool | bytes
Item: TypeAlias = dict[str, Value]

INDEX = "gsi1"
MAX_TRANSACTION_ITEMS = 100
MAX_ITEM_BYTES = 400 * 1024
MAX_CURSOR_CHARS = 1024
MAX_BATCH_GET_KEYS = 100


class StoreError(Exception):
    """Base of the store's errors."""


class ConflictError(StoreError):
    """A condition did not hold: someone else changed the item first. Nothing was written."""


class LimitError(StoreError):
    """A request over the store's limits (transaction size, item size). Nothing was written."""


class BadCursor(StoreError):
    """A pagination cursor this store did not hand out."""


# ---------------------------------------------------------------- conditions


@frozen
class Absent:
    """The item does not exist."""


@frozen
class Present:
    """The item exists."""


@frozen
class Equals:
    """The item exists and each named attribute has the given value."""

    values: Mapping[str, Value]


Condition: TypeAlias = Absent | Present | Equals


def unchanged(item: Mapping[str, Value]) -> Equals:
    """The item is still as it was read (every attribute the same; a counter kept in
    it included): the condition of a read-modify-write."""
    return Equals({k: v for k, v in item.items() if k not in ("pk", "sk")})


def holds(condition: Condition | None, item: Mapping[str, Value] | None) -> bool:
    """Whether ``condition`` holds for the stored ``item`` (``None``: no such item)."""
    match condition:
        case None:
            return True
        case Absent():
            return item is None
        case Present():
            return item is not None
        case Equals(values=values):
            return item is not None and all(item.get(k) == v for k, v in values.items())
    raise TypeError(f"not a condition: {condition!r}")


# ---------------------------------------------------------------- writes


@frozen
class Put:
    item: Mapping[str, Value | None]
    condition: Condition | None = None

    @property
    def key(self) -> tuple[str, str]:
        return str(self.item["pk"]), str(self.item["sk"])


@frozen
class Delete:
    pk: str
    sk: str
    condition: Condition | None = None

    @property
    def key(self) -> tuple[str, str]:
        return self.pk, self.sk


Write: TypeAlias = Put | Delete


def clean(item: Mapping[str, Value | None]) -> Item:
    """The item without its ``None`` attributes (absent, as DynamoDB has no nulls here)."""
    return {k: v for k, v in item.items() if v is not None}


def item_bytes(item: Mapping[str, Value | None]) -> int:
    """An item's size as DynamoDB counts it (attribute names plus values), rounded up."""
    return sum(len(k.encode()) + _value_bytes(v) for k, v in item.items() if v is not None)


def _value_bytes(value: Value) -> int:
    return len(value) if isinstance(value, bytes) else len(str(value).encode())


def check_limits(writes: Sequence[Write], item_bytes: Mapping[int, int]) -> None:
    """Refuse what DynamoDB would refuse; ``item_bytes``: write index → encoded size."""
    if not writes:
        raise LimitError("a transaction needs at least one write")
    if len(writes) > MAX_TRANSACTION_ITEMS:
        raise LimitError(f"{len(writes)} writes in one transaction (at most "
                         f"{MAX_TRANSACTION_ITEMS})")
    keys = [w.key for w in writes]
    if len(set(keys)) != len(keys):
        raise LimitError("a transaction writes the same item twice")
    for index, size in item_bytes.items():
        if size > MAX_ITEM_BYTES:
            raise LimitError(f"item {keys[index]} is {size} bytes (at most {MAX_ITEM_BYTES})")


def check_batch_get(keys: Sequence[tuple[str, str]]) -> None:
    if len(set(keys)) != len(keys):
        raise LimitError("a batch read names the same item twice")
    if len(keys) > MAX_BATCH_GET_KEYS:
        raise LimitError(f"{len(keys)} keys in one batch read (at most {MAX_BATCH_GET_KEYS})")


# ---------------------------------------------------------------- queries


@frozen
class Page:
    """Items in sort-key order, and where the next page starts (``None``: no more)."""

    items: list[Item] = field(default_factory=list)
    next: str | None = None


@frozen
class KeyRange:
    """Which sort keys of a partition a query takes: a prefix, or ``low..high`` (both
    included); either end may be open."""

    prefix: str = ""
    low: str | None = None
    high: str | None = None

    def admits(self, sort_key: str) -> bool:
        return (sort_key.startswith(self.prefix)
                and (self.low is None or sort_key >= self.low)
                and (self.high is None or sort_key <= self.high))


class Store(Protocol):
    """A key-value store with conditional writes, transactions and one secondary index."""

    def get(self, pk: str, sk: str) -> Item | None:
        """The item, read consistently (what the last committed write left)."""

    def get_many(self, keys: Sequence[tuple[str, str]]) -> list[Item | None]:
        """Several items in one request (each read consistently, not all at one instant),
        in the order of ``keys``; at most :data:`MAX_BATCH_GET_KEYS` distinct keys."""

    def put(self, item: Mapping[str, Value | None], condition: Condition | None = None) -> None:
        """Write one item (replacing any); :class:`ConflictError` if ``condition`` fails."""

    def delete(self, pk: str, sk: str, condition: Condition | None = None) -> Item | None:
        """Remove one item; the item it removed, if any."""

    def transact(self, writes: Sequence[Write]) -> None:
        """All of ``writes`` or none: :class:`ConflictError` if any condition fails."""

    def query(self, pk: str, keys: KeyRange | None = None, *, index: bool = False,
              limit: int | None = None, after: str | None = None,
              forward: bool = True) -> Page:
        """One page of a partition (of the table, or of ``gsi1`` when ``index``), in
        sort-key order; ``after`` is a cursor from an earlier page of the same query."""


@runtime_checkable
class ListingStore(Store, Protocol):
    """A store that can also list its partitions: what a whole-club export walks
    (the service never does: on DynamoDB it reads the whole table)."""

    def partitions(self, prefix: str = "") -> list[str]:
        """Every partition key of the table that begins with ``prefix``, once each, sorted."""
