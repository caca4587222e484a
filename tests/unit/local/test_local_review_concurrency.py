"""The local review queue runs the ``review`` function at most as many at once as AWS does
(template.yaml: the review queue's ScalingConfig MaximumConcurrency). Each game of a
stocked ask sends a refill: a burst of them (a tournament round, proposals accepted
together) run all at once would each read the same free slots and deal them all, N
times the boards for the slots there are, on the workers the request handlers share."""

from __future__ import annotations

import asyncio
from typing import Any

from numbridge.local.lambdas.reviews import AT_ONCE, LocalReviews
from numbridge.sam_template import load_template

Event = dict[str, Any]


def test_a_burst_of_refills_runs_as_many_at_once_as_in_aws() -> None:
    """Catches a local review queue that invokes the function once per message all at
    once (measured: 10 refills of one empty stock dealt 36-40 boards for its 4 slots)."""
    async def scenario() -> tuple[int, int]:
        running, most, done = 0, 0, 0

        async def function(event: Event) -> Any:
            nonlocal running, most, done
            running += 1
            most = max(most, running)
            await asyncio.sleep(0.01)  # a refill dealing: the next ones wait for it
            running -= 1
            done += 1
            return {"batchItemFailures": []}

        reviews = LocalReviews(function)
        reviews.start()
        for _ in range(8):
            reviews.refill("9-regular-26-beyond")
        while done < 8:
            await asyncio.sleep(0.01)
        await reviews.stop()
        return most, done

    most, done = asyncio.run(asyncio.wait_for(scenario(), 20))
    assert done == 8  # every message delivered, none dropped
    assert most == AT_ONCE


def test_at_once_is_the_review_functions_concurrency_in_the_template() -> None:
    """Catches the local bound drifting from the stack's: the local runtime would then
    show a refill burst cheaper or dearer than AWS runs it."""
    events = load_template()["Resources"]["ReviewFunction"]["Properties"]["Events"]
    [queue] = [e for e in events.values() if e["Type"] == "SQS"]
    assert queue["Properties"]["ScalingConfig"]["MaximumConcurrency"] == AT_ONCE


def test_messages_waiting_their_turn_when_stopped_are_not_delivered() -> None:
    """Catches a stop that runs every waiting refill first (seconds of deals at
    shutdown)."""
    async def scenario() -> int:
        started = 0
        release = asyncio.Event()

        async def function(event: Event) -> Any:
            nonlocal started
            started += 1
            await release.wait()
            return {"batchItemFailures": []}

        reviews = LocalReviews(function)
        reviews.start()
        for _ in range(6):
            reviews.refill("9-regular-26-beyond")
        while started < AT_ONCE:
            await asyncio.sleep(0.01)
        stopping = asyncio.ensure_future(reviews.stop())
        await asyncio.sleep(0.01)
        release.set()
        await stopping
        return started

    assert asyncio.run(asyncio.wait_for(scenario(), 20)) == AT_ONCE
