"""moto's DynamoDB transactions, undone item by item.

moto backs up every table a ``TransactWriteItems`` names (a deep copy of the whole
table) so that it can restore them if the transaction is cancelled. The cost of a
turn then grows with everything the club ever stored (``python -m bench moto``: 646 ms
a turn with 20,000 items stored, 3.8 ms with this). A transaction touches at most 100
items, each named by its key, so those items are what this keeps: copied before it
runs, put back (or deleted, if they did not exist) when it is cancelled. The tables
are not copied while it runs.

It relies on what moto and this project both assume: DynamoDB's requests are taken
one at a time (``embedded_moto``, ``testkit.moto_server``), so no other request sees
the items between the writes and their undoing. moto's own copy still serves
everything else that deep-copies a table (backups).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from moto.dynamodb.models import DynamoDBBackend
from moto.dynamodb.models.dynamo_type import DynamoType, Item
from moto.dynamodb.models.table import Table

Touched = dict[tuple[str, str, str], tuple[Table, DynamoType, DynamoType | None, Item | None]]


class _Undoing(threading.local):
    active = False


_undoing = _Undoing()
_moto_transact = DynamoDBBackend.transact_write_items


def _table_deepcopy(self: Table, memo: dict[int, Any]) -> Table:
    if _undoing.active:
        return self  # this transaction undoes its own items (below)
    clone = copy.copy(self)
    memo[id(self)] = clone
    clone.__dict__ = copy.deepcopy(self.__dict__, memo)
    return clone


@contextmanager
def _tables_not_copied() -> Iterator[None]:
    _undoing.active = True
    try:
        yield
    finally:
        _undoing.active = False


def _touched(backend: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> Touched:
    """Each item the transaction names, as it is now (None: absent)."""
    touched: Touched = {}
    for entry in transact_items:
        for op_type, op in entry.items():
            try:
                table = backend.get_table(op["TableName"])
                attrs = op["Item"] if op_type == "Put" else op["Key"]
                hash_key, range_key = backend.get_keys_value(table, attrs)
            except Exception:  # moto refuses the operation itself
                continue
            where = (table.name, repr(hash_key), repr(range_key))
            if where not in touched:
                now = table.get_item(hash_key, range_key)
                touched[where] = (table, hash_key, range_key, copy.deepcopy(now))
    return touched


def _undo(touched: Touched) -> None:
    for table, hash_key, range_key, before in touched.values():
        if before is None:
            table.delete_item(hash_key, range_key)
        else:
            table.put_item(before.to_json()["Attributes"], overwrite=True)


def transact_write_items(self: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> None:
    touched = _touched(self, transact_items)
    try:
        with _tables_not_copied():
            _moto_transact(self, transact_items)
    except Exception:
        _undo(touched)
        raise


def install() -> None:
    """Idempotent: moto's backend class, patched once per process."""
    Table.__deepcopy__ = _table_deepcopy  # type: ignore[attr-defined]
    DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]
