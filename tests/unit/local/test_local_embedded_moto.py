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


def moto_request(moto_url: str, method: str, headers: dict[str, str]) -> tuple[int, Any]:
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(moto_url)
    connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=10)
    connection.putrequest(method, "/", skip_host=True, skip_accept_encoding=True)
    body = b"{}"
    for name, value in {**headers, "Content-Length": str(len(body))}.items():
        connection.putheader(name, value)
    connection.endheaders(body)
    response = connection.getresponse()
    response.read()
    return response.status, response.headers


LIST_TABLES = {"X-Amz-Target": "DynamoDB_20120810.ListTables",
               "Content-Type": "application/x-amz-json-1.0",
               "Authorization": "AWS4-HMAC-SHA256 Credential=x/20260101/us-east-1/dynamodb/"
               "aws4_request, SignedHeaders=host, Signature=0"}


def test_no_page_of_another_origin_may_read_or_write_it(moto_url: str) -> None:
    """No global CORS: a browser lets no other origin send it JSON, nor read its answers."""
    host = moto_url.removeprefix("http://")
    status, headers = moto_request(moto_url, "OPTIONS", {
        "Host": host, "Origin": "http://evil.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,x-amz-target"})
    assert "Access-Control-Allow-Origin" not in headers, status
    status, headers = moto_request(moto_url, "POST",
                                   {**LIST_TABLES, "Host": host, "Origin": "http://evil.example"})
    assert "Access-Control-Allow-Origin" not in headers
    assert status == 200  # a client without a browser is served as before


def test_a_request_for_another_host_is_misdirected(moto_url: str) -> None:
    """A DNS-rebinding page, same-origin as far as the browser knows, names its own host."""
    port = moto_url.rsplit(":", 1)[1]
    forged = {**LIST_TABLES, "Host": f"rebind.evil.example:{port}"}
    assert moto_request(moto_url, "POST", forged)[0] == 421
    assert moto_request(moto_url, "POST", {**LIST_TABLES, "Host": f"localhost:{port}"})[0] == 200
