"""The embedded moto server keeps DynamoDB's promise: one conditional winner per race."""

from __future__ import annotations

import threading
from typing import Any

from local_fakes import aws_client

THREADS = 10
ROUNDS = 30


def race(dynamodb: Any, table: str, expected: int) -> int:
    """THREADS transactions that each move ``v`` from ``expected`` on; how many won."""
    start = threading.Barrier(THREADS, timeout=10)
    wins: list[int] = []

    def attempt(n: int) -> None:
        start.wait()
        try:
            dynamodb.transact_write_items(
                TransactItems=[
                    {
                        "Update": {
                            "TableName": table,
                            "Key": {"pk": {"S": "GAME#g"}, "sk": {"S": "STATE"}},
                            "UpdateExpression": "SET v = :next, winner = :n",
                            "ConditionExpression": "v = :expected",
                            "ExpressionAttributeValues": {
                                ":next": {"N": str(expected + 1)},
                                ":expected": {"N": str(expected)},
                                ":n": {"N": str(n)},
                            },
                        }
                    },
                    {
                        "Put": {
                            "TableName": table,
                            "Item": {"pk": {"S": "GAME#g"}, "sk": {"S": f"EV#{expected:09d}"}},
                            "ConditionExpression": "attribute_not_exists(pk)",
                        }
                    },
                ]
            )
            wins.append(n)
        except dynamodb.exceptions.TransactionCanceledException:
            pass

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return len(wins)


def test_concurrent_conditional_transactions_have_one_winner(moto_url: str) -> None:
    dynamodb = aws_client("dynamodb", moto_url)
    dynamodb.create_table(
        TableName="race",
        KeySchema=[
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"},
        ],
        AttributeDefinitions=[
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "S"},
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    dynamodb.put_item(
        TableName="race", Item={"pk": {"S": "GAME#g"}, "sk": {"S": "STATE"}, "v": {"N": "0"}}
    )
    for expected in range(ROUNDS):
        assert race(dynamodb, "race", expected) == 1
    item = dynamodb.get_item(TableName="race", Key={"pk": {"S": "GAME#g"}, "sk": {"S": "STATE"}})
    assert item["Item"]["v"] == {"N": str(ROUNDS)}
