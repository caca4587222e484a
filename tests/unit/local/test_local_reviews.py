"""The local review queue drives the ``review`` function as SQS would: one SQS-shaped
event per finished game, at once, a failure tried again."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from aws_lambda_powertools.utilities.parser.models import SqsModel
from numbridge.local.lambdas.reviews import LocalReviews

Event = dict[str, Any]


def test_a_finished_game_reaches_the_review_function_and_a_failure_is_tried_again() -> None:
    """Catches reviews sent with the bot queue's body or source (the class they share),
    and a failed review dropped at the first try."""
    async def scenario() -> None:
        arrived: asyncio.Queue[Event] = asyncio.Queue()

        async def function(event: Event) -> Any:
            arrived.put_nowait(event)
            (record,) = event["Records"]
            failed = arrived.qsize() == 1
            return {"batchItemFailures": [{"itemIdentifier": record["messageId"]}]
                    if failed else []}

        reviews = LocalReviews(function, retry_s=0.05)
        reviews.start()
        thread = threading.Thread(target=reviews.send, args=("g-1",))  # a handler's thread
        thread.start()
        thread.join()
        for receive in ("1", "2"):
            event = await arrived.get()
            (record,) = SqsModel.model_validate(event).Records
            assert json.loads(record.body) == {"game": "g-1"}
            assert record.eventSourceARN.endswith(":numbridge-reviews")
            assert event["Records"][0]["attributes"]["ApproximateReceiveCount"] == receive
        await reviews.stop()

    asyncio.run(asyncio.wait_for(scenario(), 20))
