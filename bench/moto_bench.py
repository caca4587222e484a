"""A turn's requests on moto as the club grows: moto as it comes (a deep copy of the
table per TransactWriteItems, a sort of the whole table per Query, answers written by
walking botocore's model) against numbridge.local.data.moto_scaled (a copy of the items a
transaction names, a query of its partition, answers written by json). Both run in
this process on moto's backend, as the tests and ``numbridge serve --store dynamodb``
(embedded moto) run it.

Prints, per number of items already stored, the median and p90 of one
TransactWriteItems (a conditional Update of a game's state and a Put of its event, as
a move writes) and of one Query of a game's events, and the ratios.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from bench.measure import percentile

SIZES = (0, 1_000, 5_000, 20_000)
ROUNDS = 60

def fill(dynamodb: Any, table: str, n: int) -> None:
    for start in range(0, n, 25):
        dynamodb.batch_write_item(RequestItems={table: [
            {"PutRequest": {"Item": {"pk": {"S": f"GAME#{k // 50}"}, "sk": {"S": f"EV#{k:09d}"},
                                     "frame": {"S": "x" * 300}}}}
            for k in range(start, min(n, start + 25))]})


def turns(dynamodb: Any, table: str) -> tuple[list[float], list[float]]:
    timings, queries = [], []
    for v in range(ROUNDS):
        started = time.perf_counter()
        dynamodb.transact_write_items(TransactItems=[
            {"Update": {"TableName": table, "Key": {"pk": {"S": "GAME#g"}, "sk": {"S": "STATE"}},
                        "UpdateExpression": "SET v = :next",
                        "ConditionExpression": "attribute_not_exists(v) OR v = :v",
                        "ExpressionAttributeValues": {":v": {"N": str(v)},
                                                      ":next": {"N": str(v + 1)}}}},
            {"Put": {"TableName": table,
                     "Item": {"pk": {"S": "GAME#g"}, "sk": {"S": f"EV#{v:09d}"}},
                     "ConditionExpression": "attribute_not_exists(pk)"}},
        ])
        timings.append(time.perf_counter() - started)
        started = time.perf_counter()
        dynamodb.query(TableName=table, KeyConditionExpression="pk = :g",
                       ExpressionAttributeValues={":g": {"S": "GAME#g"}})
        queries.append(time.perf_counter() - started)
    return timings, queries


def measure(scaled: bool) -> dict[int, tuple[list[float], list[float]]]:
    import boto3
    from moto import mock_aws
    from numbridge.local.data import moto_scaled
    from testkit.moto_server import key_table

    moto_scaled.install() if scaled else moto_scaled.uninstall()
    results = {}
    for size in SIZES:
        with mock_aws():
            dynamodb = boto3.client("dynamodb", region_name="us-east-1")
            table = f"games-{size}"
            key_table(dynamodb, table)
            fill(dynamodb, table, size)
            results[size] = turns(dynamodb, table)
    return results


def main() -> None:
    import os

    from bench.harness_env import use_integration_harness

    use_integration_harness()

    os.environ.setdefault("AWS_ACCESS_KEY_ID", "bench")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "bench")
    theirs, ours = measure(scaled=False), measure(scaled=True)
    for n, request in enumerate(("TransactWriteItems (Update + Put)", "Query (a game's events)")):
        print(f"one {request}, {ROUNDS} per size, ms")
        print(f"{'items stored':>12} {'moto p50':>9} {'moto p90':>9} {'ours p50':>9} "
              f"{'ours p90':>9} {'ratio p50':>9}")
        for size in SIZES:
            a = [t * 1000 for t in theirs[size][n]]
            b = [t * 1000 for t in ours[size][n]]
            ma, mb = statistics.median(a), statistics.median(b)
            print(f"{size:>12} {ma:>9.2f} {percentile(a, 0.9):>9.2f} {mb:>9.2f} "
                  f"{percentile(b, 0.9):>9.2f} {mb / ma:>9.2f}")


if __name__ == "__main__":
    main()
