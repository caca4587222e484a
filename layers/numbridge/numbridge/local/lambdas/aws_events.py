"""The SQS and EventBridge events Lambda hands the ``timeout`` function.

They validate against Powertools' ``SqsModel`` and ``EventBridgeModel``.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

REGION = "us-east-1"
ACCOUNT = "123456789012"
SWEEP_RULE = "numbridge-sweep"

Event = dict[str, Any]


def queue_arn(queue_url: str, region: str = REGION, account: str = ACCOUNT) -> str:
    """The ARN of a queue from its URL (``.../ACCOUNT/NAME``)."""
    parts = queue_url.rstrip("/").split("/")
    name = parts[-1]
    owner = parts[-2] if len(parts) >= 2 and parts[-2].isdigit() else account
    return f"arn:aws:sqs:{region}:{owner}:{name}"


def _message_attributes(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """SQS API message attributes (``StringValue``...) in Lambda's spelling (``stringValue``...)."""
    converted: dict[str, Any] = {}
    for name, value in attributes.items():
        item: dict[str, Any] = {
            "stringListValues": list(value.get("StringListValues", [])),
            "binaryListValues": list(value.get("BinaryListValues", [])),
            "dataType": value["DataType"],
        }
        if "StringValue" in value:
            item["stringValue"] = value["StringValue"]
        if "BinaryValue" in value:
            raw = value["BinaryValue"]
            item["binaryValue"] = raw.decode() if isinstance(raw, bytes) else raw
        converted[name] = item
    return converted


def sqs_message(body: dict[str, Any], receives: int) -> dict[str, Any]:
    """A ``ReceiveMessage`` message as SQS would hand it over, body as in AWS (the local
    queues' deliveries: bot turns, reviews, the lobby's batches)."""
    text = json.dumps(body)
    now_ms = str(int(time.time() * 1000))
    return {
        "MessageId": str(uuid.uuid4()),
        "ReceiptHandle": uuid.uuid4().hex,
        "Body": text,
        "MD5OfBody": hashlib.md5(text.encode()).hexdigest(),
        "Attributes": {"ApproximateReceiveCount": str(receives), "SentTimestamp": now_ms,
                       "SenderId": "numbridge-local",
                       "ApproximateFirstReceiveTimestamp": now_ms},
    }


def sqs_record(message: Mapping[str, Any], arn: str, region: str = REGION) -> Event:
    """One Lambda SQS record from one ``ReceiveMessage`` message."""
    record: Event = {
        "messageId": message["MessageId"],
        "receiptHandle": message["ReceiptHandle"],
        "body": message["Body"],
        "attributes": dict(message.get("Attributes", {})),
        "messageAttributes": _message_attributes(message.get("MessageAttributes", {})),
        "md5OfBody": message["MD5OfBody"],
        "eventSource": "aws:sqs",
        "eventSourceARN": arn,
        "awsRegion": region,
    }
    if "MD5OfMessageAttributes" in message:
        record["md5OfMessageAttributes"] = message["MD5OfMessageAttributes"]
    return record


def sqs_event(messages: Iterable[Mapping[str, Any]], arn: str, region: str = REGION) -> Event:
    """The event of an SQS event source mapping: one record per message."""
    return {"Records": [sqs_record(message, arn, region) for message in messages]}


def failed_message_ids(response: Any) -> set[str]:
    """The ``batchItemFailures`` a handler reported (partial batch response)."""
    if not isinstance(response, Mapping):
        return set()
    failures = response.get("batchItemFailures") or []
    return {
        str(item["itemIdentifier"])
        for item in failures
        if isinstance(item, Mapping) and "itemIdentifier" in item
    }


def scheduled_event(
    rule: str = SWEEP_RULE,
    now: float | None = None,
    region: str = REGION,
    account: str = ACCOUNT,
) -> Event:
    """An EventBridge "Scheduled Event", as a ``rate(1 minute)`` rule sends it."""
    at = time.gmtime(time.time() if now is None else now)
    return {
        "version": "0",
        "id": str(uuid.uuid4()),
        "detail-type": "Scheduled Event",
        "source": "aws.events",
        "account": account,
        "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", at),
        "region": region,
        "resources": [f"arn:aws:events:{region}:{account}:rule/{rule}"],
        "detail": {},
    }
