"""The single game table: item (de)serialisation, transactions, and boto3 errors
translated into store errors at this boundary.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
from botocore.exceptions import ClientError

_SERIALIZER = TypeSerializer()
_DESERIALIZER = TypeDeserializer()


class StoreError(Exception):
    """Base of the store's errors."""


class ConflictError(StoreError):
    """A conditional write lost: someone else changed the item first."""


def to_item(values: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _SERIALIZER.serialize(v) for k, v in values.items() if v is not None}


def from_item(item: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: _DESERIALIZER.deserialize(v) for k, v in item.items()}
    # Numbers come back as Decimal; every number we store is an integer.
    return {k: int(v) if hasattr(v, "as_integer_ratio") and not isinstance(v, bool) else v
            for k, v in out.items()}


def key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


@dataclass
class Write:
    """One operation of a transaction, in the low-level TransactWriteItems shape."""

    kind: str  # Put | Update | Delete | ConditionCheck
    body: dict[str, Any]

    @classmethod
    def put(cls, values: Mapping[str, Any], condition: str | None = None,
            names: Mapping[str, str] | None = None,
            values_expr: Mapping[str, Any] | None = None) -> Write:
        body: dict[str, Any] = {"Item": to_item(values)}
        _with_condition(body, condition, names, values_expr)
        return cls("Put", body)

    @classmethod
    def update(cls, pk: str, sk: str, expression: str, names: Mapping[str, str],
               values: Mapping[str, Any], condition: str | None = None) -> Write:
        body: dict[str, Any] = {"Key": key(pk, sk), "UpdateExpression": expression}
        _with_condition(body, condition, names, values)
        return cls("Update", body)

    @classmethod
    def delete(cls, pk: str, sk: str, condition: str | None = None,
               names: Mapping[str, str] | None = None,
               values: Mapping[str, Any] | None = None) -> Write:
        body: dict[str, Any] = {"Key": key(pk, sk)}
        _with_condition(body, condition, names, values)
        return cls("Delete", body)


def _with_condition(body: dict[str, Any], condition: str | None,
                    names: Mapping[str, str] | None, values: Mapping[str, Any] | None) -> None:
    if condition:
        body["ConditionExpression"] = condition
        body["ReturnValuesOnConditionCheckFailure"] = "NONE"
    if names:
        body["ExpressionAttributeNames"] = dict(names)
    if values:
        body["ExpressionAttributeValues"] = to_item(values)


@dataclass
class Table:
    """The game table through the low-level boto3 client (transactions need it)."""

    client: Any
    name: str

    def get(self, pk: str, sk: str, consistent: bool = True) -> dict[str, Any] | None:
        resp = self.client.get_item(TableName=self.name, Key=key(pk, sk),
                                    ConsistentRead=consistent)
        item = resp.get("Item")
        return from_item(item) if item else None

    def put(self, values: Mapping[str, Any], condition: str | None = None,
            names: Mapping[str, str] | None = None,
            values_expr: Mapping[str, Any] | None = None) -> None:
        write = Write.put(values, condition, names, values_expr)
        try:
            self.client.put_item(TableName=self.name, **write.body)
        except ClientError as exc:
            raise _translate(exc) from exc

    def delete(self, pk: str, sk: str, condition: str | None = None,
               names: Mapping[str, str] | None = None,
               values: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
        write = Write.delete(pk, sk, condition, names, values)
        try:
            old = self.client.delete_item(TableName=self.name, ReturnValues="ALL_OLD",
                                          **write.body).get("Attributes")
        except ClientError as exc:
            raise _translate(exc) from exc
        return from_item(old) if old else None

    def query(self, pk: str, sk_prefix: str = "", *, between: tuple[str, str] | None = None,
              index: str | None = None, limit: int | None = None,
              consistent: bool = False, forward: bool = True) -> Iterator[dict[str, Any]]:
        """Items of one partition whose sort key starts with ``sk_prefix`` (or lies in
        ``between``, both ends included)."""
        pk_name, sk_name = ("gsi1pk", "gsi1sk") if index else ("pk", "sk")
        names = {"#pk": pk_name, "#sk": sk_name}
        values: dict[str, Any] = {":pk": pk}
        if between is not None:
            expr = "#pk = :pk AND #sk BETWEEN :lo AND :hi"
            values[":lo"], values[":hi"] = between
        elif sk_prefix:
            expr = "#pk = :pk AND begins_with(#sk, :prefix)"
            values[":prefix"] = sk_prefix
        else:
            expr = "#pk = :pk"
            names.pop("#sk")
        kwargs: dict[str, Any] = {
            "TableName": self.name, "KeyConditionExpression": expr,
            "ExpressionAttributeNames": names, "ExpressionAttributeValues": to_item(values),
            "ScanIndexForward": forward,
        }
        if index:
            kwargs["IndexName"] = index
        elif consistent:
            kwargs["ConsistentRead"] = True
        yield from self._pages(kwargs, limit)

    def query_range(self, index: str, pk: str, upto: str) -> Iterator[dict[str, Any]]:
        kwargs: dict[str, Any] = {
            "TableName": self.name, "IndexName": index,
            "KeyConditionExpression": "gsi1pk = :pk AND gsi1sk <= :upto",
            "ExpressionAttributeValues": to_item({":pk": pk, ":upto": upto}),
        }
        yield from self._pages(kwargs, None)

    def _pages(self, kwargs: dict[str, Any], limit: int | None) -> Iterator[dict[str, Any]]:
        count = 0
        while True:
            if limit is not None:
                kwargs["Limit"] = limit - count
            resp = self.client.query(**kwargs)
            for item in resp.get("Items", []):
                yield from_item(item)
                count += 1
            last = resp.get("LastEvaluatedKey")
            if not last or (limit is not None and count >= limit):
                return
            kwargs["ExclusiveStartKey"] = last

    def transact(self, writes: Sequence[Write]) -> None:
        items = []
        for w in writes:
            body = dict(w.body)
            body["TableName"] = self.name
            items.append({w.kind: body})
        try:
            self.client.transact_write_items(TransactItems=items)
        except ClientError as exc:
            raise _translate(exc) from exc


def _translate(exc: Exception) -> Exception:
    """A lost condition (or a transaction conflict) becomes :class:`ConflictError`;
    anything else stays the boto3 error it was."""
    response: dict[str, Any] = getattr(exc, "response", {}) or {}
    code = str(response.get("Error", {}).get("Code", ""))
    reasons = [str(r.get("Code", "")) for r in response.get("CancellationReasons") or []]
    lost = {"ConditionalCheckFailed", "TransactionConflict"}
    if code == "ConditionalCheckFailedException" or (
        code == "TransactionCanceledException" and (lost & set(reasons) or not reasons)
    ) or code == "TransactionConflictException":
        return ConflictError(f"conditional write lost ({', '.join(reasons) or code})")
    return exc
