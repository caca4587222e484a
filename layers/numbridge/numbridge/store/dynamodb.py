"""The storage port on DynamoDB (boto3's low-level client: transactions need it).

Conditions are rendered as condition expressions here, and boto3's errors
translated into the port's at this boundary.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boto3.dynamodb.types import Binary, TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

from numbridge.store.port import (
    INDEX,
    MAX_CURSOR_CHARS,
    Absent,
    BadCursor,
    Condition,
    ConflictError,
    Delete,
    Equals,
    Item,
    KeyRange,
    LimitError,
    Page,
    Present,
    Put,
    StoreError,
    Value,
    Write,
    check_batch_get,
    check_limits,
    clean,
    item_bytes,
)

_SERIALIZER = TypeSerializer()
_DESERIALIZER = TypeDeserializer()
_KEY_ATTRIBUTES = {"pk", "sk", "gsi1pk", "gsi1sk"}


def to_item(values: Mapping[str, Value | None]) -> dict[str, Any]:
    return {k: _SERIALIZER.serialize(v) for k, v in clean(values).items()}


def from_item(item: Mapping[str, Any]) -> Item:
    out: Item = {}
    for k, raw in item.items():
        v = _DESERIALIZER.deserialize(raw)
        # Numbers come back as Decimal; every number we store is an integer.
        if hasattr(v, "as_integer_ratio") and not isinstance(v, bool):
            v = int(v)
        elif isinstance(v, Binary):
            v = bytes(v.value)
        out[k] = v
    return out


def _key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def render(condition: Condition | None) -> dict[str, Any]:
    """A condition as ``ConditionExpression`` and its names and values."""
    match condition:
        case None:
            return {}
        case Absent():
            return {"ConditionExpression": "attribute_not_exists(pk)"}
        case Present():
            return {"ConditionExpression": "attribute_exists(pk)"}
        case Equals(values=values):
            names = {f"#c{i}": name for i, name in enumerate(values)}
            return {
                "ConditionExpression": " AND ".join(f"#c{i} = :c{i}" for i in range(len(values))),
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": {
                    f":c{i}": _SERIALIZER.serialize(v) for i, v in enumerate(values.values())
                },
            }
    raise TypeError(f"not a condition: {condition!r}")


def _operation(write: Write, table: str) -> dict[str, Any]:
    match write:
        case Put(item=item, condition=condition):
            return {"Put": {"TableName": table, "Item": to_item(item), **render(condition)}}
        case Delete(pk=pk, sk=sk, condition=condition):
            return {"Delete": {"TableName": table, "Key": _key(pk, sk), **render(condition)}}
    raise TypeError(f"not a write: {write!r}")


def encode_cursor(last_key: Mapping[str, Any]) -> str:
    plain = {k: v["S"] for k, v in last_key.items()}
    return base64.urlsafe_b64encode(json.dumps(plain, sort_keys=True).encode()).decode()


def decode_cursor(cursor: str, pk_name: str, pk: str) -> dict[str, Any]:
    """``ExclusiveStartKey`` from a cursor, which must belong to the partition queried."""
    if len(cursor) > MAX_CURSOR_CHARS:
        raise BadCursor("cursor too long")
    try:
        plain = json.loads(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, binascii.Error, UnicodeError) as exc:
        raise BadCursor("not a cursor of this store") from exc
    if (not isinstance(plain, dict) or not set(plain) <= _KEY_ATTRIBUTES
            or not all(isinstance(v, str) for v in plain.values()) or plain.get(pk_name) != pk
            or not {"pk", "sk"} <= set(plain)):
        raise BadCursor("not a cursor of this query")
    return {k: {"S": v} for k, v in plain.items()}


@dataclass
class DynamoStore:
    client: Any
    name: str

    def get(self, pk: str, sk: str) -> Item | None:
        resp = self.client.get_item(TableName=self.name, Key=_key(pk, sk), ConsistentRead=True)
        item = resp.get("Item")
        return from_item(item) if item else None

    def get_many(self, keys: Sequence[tuple[str, str]]) -> list[Item | None]:
        check_batch_get(keys)
        if not keys:
            return []
        found: dict[tuple[str, str], Item] = {}
        wanted: dict[str, Any] = {self.name: {"Keys": [_key(pk, sk) for pk, sk in keys],
                                              "ConsistentRead": True}}
        for attempt in range(10):
            try:
                resp = self.client.batch_get_item(RequestItems=wanted)
            except ClientError as exc:
                raise translate(exc) from exc
            for raw in resp.get("Responses", {}).get(self.name, []):
                item = from_item(raw)
                found[str(item["pk"]), str(item["sk"])] = item
            wanted = resp.get("UnprocessedKeys") or {}
            if not wanted:
                return [found.get(key) for key in keys]
            time.sleep(0.01 * 2**attempt)  # DynamoDB left some keys: back off, ask again
        raise StoreError("DynamoDB kept leaving keys of a batch read unprocessed")

    def put(self, item: Mapping[str, Value | None], condition: Condition | None = None) -> None:
        check_limits([Put(item)], {0: item_bytes(item)})
        try:
            self.client.put_item(TableName=self.name, Item=to_item(item), **render(condition))
        except ClientError as exc:
            raise translate(exc) from exc

    def delete(self, pk: str, sk: str, condition: Condition | None = None) -> Item | None:
        try:
            old = self.client.delete_item(
                TableName=self.name, Key=_key(pk, sk), ReturnValues="ALL_OLD", **render(condition)
            ).get("Attributes")
        except ClientError as exc:
            raise translate(exc) from exc
        return from_item(old) if old else None

    def transact(self, writes: Sequence[Write]) -> None:
        check_limits(writes, {i: item_bytes(w.item) for i, w in enumerate(writes)
                              if isinstance(w, Put)})
        try:
            self.client.transact_write_items(
                TransactItems=[_operation(w, self.name) for w in writes]
            )
        except ClientError as exc:
            raise translate(exc) from exc

    def query(self, pk: str, keys: KeyRange | None = None, *, index: bool = False,
              limit: int | None = None, after: str | None = None,
              forward: bool = True) -> Page:
        keys = keys or KeyRange()
        pk_name, sk_name = ("gsi1pk", "gsi1sk") if index else ("pk", "sk")
        names = {"#pk": pk_name, "#sk": sk_name}
        values: dict[str, Any] = {":pk": {"S": pk}}
        parts = ["#pk = :pk"]
        if keys.low is not None and keys.high is not None:
            parts.append("#sk BETWEEN :lo AND :hi")
            values[":lo"], values[":hi"] = {"S": keys.low}, {"S": keys.high}
        elif keys.low is not None:
            parts.append("#sk >= :lo")
            values[":lo"] = {"S": keys.low}
        elif keys.high is not None:
            parts.append("#sk <= :hi")
            values[":hi"] = {"S": keys.high}
        elif keys.prefix:
            parts.append("begins_with(#sk, :prefix)")
            values[":prefix"] = {"S": keys.prefix}
        if len(parts) == 1:
            names.pop("#sk")
        request: dict[str, Any] = {
            "TableName": self.name, "KeyConditionExpression": " AND ".join(parts),
            "ExpressionAttributeNames": names, "ExpressionAttributeValues": values,
            "ScanIndexForward": forward,
        }
        if index:
            request["IndexName"] = INDEX
        else:
            request["ConsistentRead"] = True
        if after is not None:
            request["ExclusiveStartKey"] = decode_cursor(after, pk_name, pk)
        items: list[Item] = []
        while True:
            if limit is not None:
                request["Limit"] = limit - len(items)
            try:
                resp = self.client.query(**request)
            except ClientError as exc:
                raise translate(exc) from exc
            # A range and a prefix together: DynamoDB takes one key condition; filter the other.
            items.extend(i for i in map(from_item, resp.get("Items", []))
                         if keys.admits(str(i[sk_name])))
            last = resp.get("LastEvaluatedKey")
            if not last:
                return Page(items, None)
            if limit is not None and len(items) >= limit:
                return Page(items, encode_cursor(last))
            request["ExclusiveStartKey"] = last

    def partitions(self, prefix: str = "") -> list[str]:
        # A Scan of the key attribute only, filtered: it still reads (and bills) every item.
        request: dict[str, Any] = {"TableName": self.name, "ProjectionExpression": "pk",
                                   "ConsistentRead": True}
        if prefix:
            request.update(FilterExpression="begins_with(pk, :prefix)",
                           ExpressionAttributeValues={":prefix": {"S": prefix}})
        found: set[str] = set()
        while True:
            try:
                resp = self.client.scan(**request)
            except ClientError as exc:
                raise translate(exc) from exc
            found.update(str(i["pk"]["S"]) for i in resp.get("Items", []))
            last = resp.get("LastEvaluatedKey")
            if not last:
                return sorted(found)
            request["ExclusiveStartKey"] = last


def translate(exc: Exception) -> Exception:
    """A lost condition (or a transaction conflict) becomes :class:`ConflictError`, a
    request over DynamoDB's limits :class:`LimitError`; anything else stays as it was."""
    response: dict[str, Any] = getattr(exc, "response", {}) or {}
    error = response.get("Error", {})
    code = str(error.get("Code", ""))
    reasons = [str(r.get("Code", "")) for r in response.get("CancellationReasons") or []]
    lost = {"ConditionalCheckFailed", "TransactionConflict"}
    if code == "ConditionalCheckFailedException" or (
        code == "TransactionCanceledException" and (lost & set(reasons) or not reasons)
    ) or code == "TransactionConflictException":
        return ConflictError(f"conditional write lost ({', '.join(reasons) or code})")
    if code == "ValidationException" and "size" in str(error.get("Message", "")).lower():
        return LimitError(str(error.get("Message")))
    if code == "ValidationException" and "ExclusiveStartKey" in str(error.get("Message", "")):
        return BadCursor(str(error.get("Message")))
    return exc
