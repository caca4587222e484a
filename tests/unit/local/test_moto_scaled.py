"""moto with its cost per request not growing with the table (numbridge.local.moto_scaled):
a cancelled TransactWriteItems leaves every item as it was, one whose conditions all
hold writes all of it — what DynamoDB promises — and a table's other deep copies still
copy; a query of the table answers what moto's own query answers, page by page."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numbridge.local import moto_scaled
from testkit.moto_server import client, in_process, key_table

TABLE = "rollback"
KEYS = [("g1", "STATE"), ("g1", "EV#1"), ("g2", "STATE"), ("g3", "STATE")]
Items = dict[tuple[str, str], int]


@pytest.fixture(scope="module")
def dynamodb() -> Iterator[Any]:
    with in_process():
        dynamodb = client("dynamodb")
        key_table(dynamodb, TABLE)
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
