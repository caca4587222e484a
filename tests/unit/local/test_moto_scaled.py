"""moto with its cost per request not growing with the table (numbridge.local.data.moto_scaled):
a cancelled TransactWriteItems leaves every item as it was, one whose conditions all
hold writes all of it — what DynamoDB promises — and a table's other deep copies still
copy; a query of the table answers what moto's own query answers, page by page."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numbridge.local.data import moto_scaled
from testkit.moto_server import client, in_process, key_table

TABLE = "rollback"
ANSWERS = "answers"  # items of any attributes
KEYS = [("g1", "STATE"), ("g1", "EV#1"), ("g2", "STATE"), ("g3", "STATE")]
Items = dict[tuple[str, str], int]


@pytest.fixture(scope="module")
def dynamodb() -> Iterator[Any]:
    with in_process():
        dynamodb = client("dynamodb")
        key_table(dynamodb, TABLE)
        key_table(dynamodb, ANSWERS)
        yield dynamodb


def key(k: tuple[str, str]) -> dict[str, Any]:
    return {"pk": {"S": k[0]}, "sk": {"S": k[1]}}


def items_now(dynamodb: Any) -> Items:
    return {(i["pk"]["S"], i["sk"]["S"]): int(i["v"]["N"])
            for i in dynamodb.scan(TableName=TABLE, ConsistentRead=True)["Items"]}


def set_items(dynamodb: Any, items: Items) -> None:
    for k in items_now(dynamodb):
        dynamodb.delete_item(TableName=TABLE, Key=key(k))
    for k, v in items.items():
        dynamodb.put_item(TableName=TABLE, Item={**key(k), "v": {"N": str(v)}})


# One operation per key: (kind, condition), the condition on the item's v as it was.
kinds = st.sampled_from(["Put", "Update", "Delete", "ConditionCheck"])
conditions = st.sampled_from([None, "exists", "absent", "v=1"])
transactions = st.dictionaries(st.sampled_from(KEYS), st.tuples(kinds, conditions),
                               min_size=1, max_size=4)


def operation(k: tuple[str, str], kind: str, condition: str | None) -> dict[str, Any]:
    op: dict[str, Any] = {"TableName": TABLE}
    if kind == "Put":
        op["Item"] = {**key(k), "v": {"N": "7"}}
    else:
        op["Key"] = key(k)
    if kind == "Update":
        op["UpdateExpression"] = "SET v = :seven"
        op["ExpressionAttributeValues"] = {":seven": {"N": "7"}}
    if condition == "exists":
        op["ConditionExpression"] = "attribute_exists(pk)"
    elif condition == "absent":
        op["ConditionExpression"] = "attribute_not_exists(pk)"
    elif condition == "v=1":
        op["ConditionExpression"] = "v = :one"
        op.setdefault("ExpressionAttributeValues", {})[":one"] = {"N": "1"}
    elif kind == "ConditionCheck":
        op["ConditionExpression"] = "attribute_exists(pk) OR attribute_not_exists(pk)"
    return {kind: op}


def holds(condition: str | None, before: int | None) -> bool:
    return {None: True, "exists": before is not None, "absent": before is None,
            "v=1": before == 1}[condition]


def expected_after(before: Items, transaction: dict[tuple[str, str], tuple[str, str | None]]
                   ) -> tuple[Items, bool]:
    if not all(holds(c, before.get(k)) for k, (_, c) in transaction.items()):
        return dict(before), False
    after = dict(before)
    for k, (kind, _) in transaction.items():
        if kind in ("Put", "Update"):
            after[k] = 7
        elif kind == "Delete":
            after.pop(k, None)
    return after, True


@settings(max_examples=60)
@given(before=st.dictionaries(st.sampled_from(KEYS), st.integers(0, 2)),
       transaction=transactions)
def test_a_transaction_writes_all_of_itself_or_nothing(
        dynamodb: Any, before: Items,
        transaction: dict[tuple[str, str], tuple[str, str | None]]) -> None:
    set_items(dynamodb, before)
    after, applied = expected_after(before, transaction)
    items = [operation(k, kind, c) for k, (kind, c) in transaction.items()]
    try:
        dynamodb.transact_write_items(TransactItems=items)
        done = True
    except dynamodb.exceptions.TransactionCanceledException:
        done = False
    assert done == applied
    assert items_now(dynamodb) == after


def test_a_refused_transaction_changes_nothing(dynamodb: Any) -> None:
    set_items(dynamodb, {KEYS[0]: 1})
    twice = [operation(KEYS[1], "Put", None), operation(KEYS[1], "Delete", None)]
    with pytest.raises(dynamodb.exceptions.ClientError):
        dynamodb.transact_write_items(TransactItems=twice)
    assert items_now(dynamodb) == {KEYS[0]: 1}


def test_a_table_copied_outside_a_transaction_is_a_copy(dynamodb: Any) -> None:
    from moto.dynamodb.models import dynamodb_backends

    set_items(dynamodb, {KEYS[0]: 1})
    table = dynamodb_backends["123456789012"]["us-east-1"].get_table(TABLE)
    clone = copy.deepcopy(table)
    assert clone is not table and clone.items is not table.items
    dynamodb.put_item(TableName=TABLE, Item={**key(KEYS[0]), "v": {"N": "2"}})
    assert clone.items != table.items


def pages(dynamodb: Any, request: dict[str, Any]) -> list[list[dict[str, Any]]]:
    answered, start = [], None
    while True:
        page = dynamodb.query(**request, **({"ExclusiveStartKey": start} if start else {}))
        answered.append(page["Items"])
        start = page.get("LastEvaluatedKey")
        if not start:
            return answered


conditions_on_sk = st.sampled_from([
    ("", {}),
    (" AND begins_with(sk, :p)", {":p": {"S": "EV#"}}),
    (" AND sk BETWEEN :a AND :b", {":a": {"S": "EV#2"}, ":b": {"S": "EV#7"}}),
    (" AND sk > :a", {":a": {"S": "EV#5"}}),
])


@settings(max_examples=40)
@given(stored=st.sets(st.tuples(st.sampled_from(["g1", "g2", "g3"]),
                                st.sampled_from(["STATE", *(f"EV#{n}" for n in range(10))]))),
       partition=st.sampled_from(["g1", "g2", "g4"]), on_sk=conditions_on_sk,
       limit=st.sampled_from([None, 1, 3]), forward=st.booleans())
def test_a_query_answers_as_moto_answers(
        dynamodb: Any, stored: set[tuple[str, str]], partition: str,
        on_sk: tuple[str, dict[str, Any]], limit: int | None, forward: bool) -> None:
    set_items(dynamodb, dict.fromkeys(stored, 1))
    request: dict[str, Any] = {
        "TableName": TABLE, "KeyConditionExpression": "pk = :g" + on_sk[0],
        "ExpressionAttributeValues": {":g": {"S": partition}, **on_sk[1]},
        "ScanIndexForward": forward, **({"Limit": limit} if limit else {})}
    scaled = pages(dynamodb, request)
    moto_scaled.uninstall()
    try:
        theirs = pages(dynamodb, request)
    finally:
        moto_scaled.install()
    assert scaled == theirs


# Attribute values of every type DynamoDB has, nested.
scalars = st.one_of(
    st.builds(lambda s: {"S": s}, st.text(max_size=8)),
    st.builds(lambda n: {"N": str(n)}, st.integers(-10**6, 10**6)),
    st.builds(lambda b: {"B": b}, st.binary(min_size=1, max_size=8)),
    st.builds(lambda b: {"BOOL": b}, st.booleans()),
    st.just({"NULL": True}),
    st.builds(lambda s: {"SS": sorted(s)}, st.sets(st.text(max_size=4), min_size=1, max_size=3)),
    st.builds(lambda s: {"NS": sorted(map(str, s))}, st.sets(st.integers(0, 99), min_size=1,
                                                             max_size=3)),
    st.builds(lambda s: {"BS": sorted(s)}, st.sets(st.binary(min_size=1, max_size=4),
                                                   min_size=1, max_size=3)),
)
values = st.recursive(scalars, lambda inner: st.one_of(
    st.builds(lambda v: {"L": v}, st.lists(inner, max_size=3)),
    st.builds(lambda m: {"M": m}, st.dictionaries(st.text("abc", min_size=1, max_size=3),
                                                  inner, max_size=3))), max_leaves=8)
attributes = st.dictionaries(st.sampled_from(["a", "b", "c"]), values, max_size=3)


@contextmanager
def both_writers() -> Iterator[list[tuple[str, Any, Any]]]:
    """Every item answer written both ways: (operation, ours, moto's), parsed."""
    from moto.dynamodb.responses import DynamoResult

    written: list[tuple[str, Any, Any]] = []

    def spy(self: Any, context: Any) -> Any:
        ours = moto_scaled.execute_result(self, context)
        theirs = moto_scaled._moto_execute_result(self, context)
        written.append((context.operation_model.name,  # moto adds headers to ours later
                        (ours[0], dict(ours[1]), json.loads(ours[2])),
                        (theirs[0], theirs[1], json.loads(theirs[2]))))
        return ours

    DynamoResult.execute_result = spy  # type: ignore[method-assign]
    try:
        yield written
    finally:
        DynamoResult.execute_result = moto_scaled.execute_result  # type: ignore[method-assign]


@settings(max_examples=40)
@given(stored=st.dictionaries(st.sampled_from(KEYS), attributes, min_size=1, max_size=4))
def test_an_item_answer_is_written_as_moto_writes_it(
        dynamodb: Any, stored: dict[tuple[str, str], dict[str, Any]]) -> None:
    for item in dynamodb.scan(TableName=ANSWERS, ConsistentRead=True)["Items"]:
        dynamodb.delete_item(TableName=ANSWERS, Key={"pk": item["pk"], "sk": item["sk"]})
    with both_writers() as written:
        ask_every_item_operation(dynamodb, list(stored.items()))
    assert {operation for operation, _, _ in written} >= {
        "PutItem", "GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems",
        "UpdateItem", "DeleteItem"}
    for operation_name, ours, theirs in written:
        assert ours == theirs, operation_name


def ask_every_item_operation(dynamodb: Any,
                             stored: list[tuple[tuple[str, str], dict[str, Any]]]) -> None:
    for k, attrs in stored:
        dynamodb.put_item(TableName=ANSWERS, Item={**key(k), **attrs},
                          ReturnConsumedCapacity="TOTAL")
    k, attrs = stored[-1]
    dynamodb.get_item(TableName=ANSWERS, Key=key(k), ConsistentRead=True)
    dynamodb.get_item(TableName=ANSWERS, Key=key(("nobody", "STATE")))
    dynamodb.query(TableName=ANSWERS, KeyConditionExpression="pk = :g", Limit=2,
                   ExpressionAttributeValues={":g": {"S": k[0]}})
    dynamodb.scan(TableName=ANSWERS)
    dynamodb.batch_get_item(RequestItems={ANSWERS: {"Keys": [key(k) for k, _ in stored]}})
    dynamodb.transact_get_items(TransactItems=[{"Get": {"TableName": ANSWERS, "Key": key(k)}}])
    dynamodb.update_item(TableName=ANSWERS, Key=key(k), UpdateExpression="SET z = :z",
                         ExpressionAttributeValues={":z": {"N": "1"}}, ReturnValues="ALL_NEW")
    dynamodb.transact_write_items(TransactItems=[{"Update": {
        "TableName": ANSWERS, "Key": key(k), "UpdateExpression": "SET z = :z",
        "ExpressionAttributeValues": {":z": {"N": "2"}}}}])
    dynamodb.delete_item(TableName=ANSWERS, Key=key(k), ReturnValues="ALL_OLD")


def test_an_action_is_found_among_the_methods_moto_finds_once_per_class(dynamodb: Any) -> None:
    from moto.core import responses
    from moto.dynamodb.responses import DynamoHandler
    from moto.sqs.responses import SQSResponse

    found = responses.method_names_from_class(DynamoHandler)  # type: ignore[attr-defined]
    assert "transact_write_items" in found and "query" in found
    assert responses.method_names_from_class(DynamoHandler) is found  # type: ignore[attr-defined]
    moto_scaled.uninstall()
    try:
        for response in (DynamoHandler, SQSResponse):
            theirs = responses.method_names_from_class(response)  # type: ignore[attr-defined]
            assert theirs is not responses.method_names_from_class(response)  # type: ignore[attr-defined]
            assert moto_scaled._method_names(response) == theirs
    finally:
        moto_scaled.install()
    # Still answered through it: the action is found.
    assert dynamodb.describe_table(TableName=TABLE)["Table"]["TableName"] == TABLE
