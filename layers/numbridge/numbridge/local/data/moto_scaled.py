"""moto's DynamoDB, its cost per request no longer growing with the table.

Two of moto's ways make every turn slower as the club grows (``python -m bench moto``):

- a ``TransactWriteItems`` backs up every table it names (a deep copy of the whole
  table), to restore it if the transaction is cancelled. A transaction touches at most
  100 items, each named by its key, so those items are what is kept here: copied
  before it runs, put back (or deleted, if they did not exist) when it is cancelled;
  the tables are not copied while it runs.
- a ``Query`` of the table (not of an index) sorts every item of the table and then
  keeps those of the partition asked for. Here it is given only that partition's
  items, sorted as moto sorts them.

And one that makes every answer slow: moto writes each answer by walking botocore's
model of its output shape, member by member, for every attribute of every item (half
of its time per request in the tests). The item operations' answers (``GetItem``,
``Query``, ``BatchGetItem``, …) are already shaped as the wire's JSON once moto
has turned its values into dicts, so they are written by ``json`` here: the output
shape's members kept, nothing that is None, bytes in base64, as moto's own writer does.

And one that costs every request a walk of its class: moto lists a response class's
methods with ``inspect.getmembers`` to find the action's, request after request (an
eighth of its time per request); the list is kept here, once per class.

The first two rely on what moto and this project assume: DynamoDB's requests are taken one at
a time (``embedded_moto``, ``testkit.moto_server``), so no other request sees the
items between a cancelled transaction's writes and their undoing. A table's other
deep copies (backups) and other readers of all its items (scans, index queries) are
moto's own.
"""

from __future__ import annotations

import base64
import copy
import functools
import json
import threading
from typing import Any

import moto.core.responses as moto_responses
from moto.core.common_types import TYPE_RESPONSE
from moto.core.responses import ActionContext
from moto.core.utils import method_names_from_class as _moto_method_names
from moto.dynamodb.models import DynamoDBBackend
from moto.dynamodb.models.dynamo_type import DynamoType, Item
from moto.dynamodb.models.table import Table
from moto.dynamodb.responses import DynamoResult

Touched = dict[tuple[str, str, str], tuple[Table, DynamoType, DynamoType | None, Item | None]]


class _InRequest(threading.local):
    undoing = False  # a transaction undoes its own items
    partition: DynamoType | None = None  # a table query reads this partition only


_now = _InRequest()
_moto_transact = DynamoDBBackend.transact_write_items
_moto_query = Table.query
_moto_all_items = Table.all_items
_moto_execute_result = DynamoResult.execute_result

# Answers made of items, keys, counts and capacities only: no timestamps (which moto's
# writer turns into numbers) and no shapes it renames.
ITEM_OPERATIONS = frozenset({
    "GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem",
    "TransactGetItems",
})


def _table_deepcopy(self: Table, memo: dict[int, Any]) -> Table:
    if _now.undoing:
        return self
    clone = copy.copy(self)
    memo[id(self)] = clone
    clone.__dict__ = copy.deepcopy(self.__dict__, memo)
    return clone


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
    _now.undoing = True
    try:
        _moto_transact(self, transact_items)
    except Exception:
        _undo(touched)
        raise
    finally:
        _now.undoing = False


def _all_items(self: Table) -> list[Item]:
    key = _now.partition
    if key is None:
        return _moto_all_items(self)
    found: Any = self.items.get(key)  # .get: a defaultdict must not grow a partition
    if found is None:
        return []
    if self.range_key_attr:
        return sorted(found.values(), key=lambda item: item.range_key)
    return [found]


def query(self: Table, hash_key: DynamoType | None, *args: Any, **kwargs: Any) -> Any:
    index_name = kwargs.get("index_name", args[6] if len(args) > 6 else None)
    if index_name is not None or hash_key is None:
        return _moto_query(self, hash_key, *args, **kwargs)
    _now.partition = hash_key
    try:
        return _moto_query(self, hash_key, *args, **kwargs)
    finally:
        _now.partition = None


def _wire(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _wire(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_wire(v) for v in value]
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    return value


def answer_body(result: Any, context: ActionContext) -> str:
    """The JSON of an item operation's answer: its output shape's members, as sent."""
    members = context.operation_model.output_shape.members
    return json.dumps(_wire({k: v for k, v in result.items() if k in members}),
                      separators=(",", ":"))


def execute_result(self: DynamoResult, context: ActionContext) -> TYPE_RESPONSE:
    if context.operation_model.name not in ITEM_OPERATIONS or not isinstance(self.result, dict):
        return _moto_execute_result(self, context)
    version = context.service_model.metadata.get("jsonVersion", "1.0")
    return 200, {"Content-Type": f"application/x-amz-json-{version}"}, answer_body(
        self.result, context)


@functools.cache
def _method_names(clazz: object) -> list[str]:
    return _moto_method_names(clazz)


def install() -> None:
    """Idempotent: moto's classes, patched once per process."""
    Table.__deepcopy__ = _table_deepcopy  # type: ignore[attr-defined]
    Table.all_items = _all_items  # type: ignore[method-assign]
    Table.query = query  # type: ignore[method-assign]
    DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]
    DynamoResult.execute_result = execute_result  # type: ignore[method-assign,assignment]
    moto_responses.method_names_from_class = _method_names  # type: ignore[attr-defined]


def uninstall() -> None:
    """moto as it comes (the bench's and the tests' comparison)."""
    if "__deepcopy__" in Table.__dict__:
        del Table.__deepcopy__  # type: ignore[attr-defined]
    Table.all_items = _moto_all_items  # type: ignore[method-assign]
    Table.query = _moto_query  # type: ignore[method-assign]
    DynamoDBBackend.transact_write_items = _moto_transact  # type: ignore[method-assign]
    DynamoResult.execute_result = _moto_execute_result  # type: ignore[method-assign]
    moto_responses.method_names_from_class = _moto_method_names  # type: ignore[attr-defined]
