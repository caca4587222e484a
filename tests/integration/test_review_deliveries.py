"""The review queue's deliveries as SQS makes them, on both stores: a review that fails
is handed back to be delivered again, and a message delivered again for a game already
reviewed costs a read, not the coach's work."""

from __future__ import annotations

from typing import Any

import pytest
from harness import World
from numbridge import coach
from players import play_out, start_game


def _finished(world: World) -> tuple[str, Any, list[dict[str, Any]]]:
    ana, bob = world.join("ana"), world.join("bob")
    game = start_game(world, "blitz", ana, bob, blocks="regular", clues=12)
    play_out(world, game, {"ana": ana, "bob": bob}, seed=3)
    return game, ana, list(world.review_sqs.sent)


def test_a_review_that_fails_is_handed_back_for_sqs_to_deliver_again(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches: a review whose write failed answered as done (SQS would delete its
    message, and the game would stay unreviewed for good)."""
    game, ana, sent = _finished(world)

    def throttled(*args: object, **kwargs: object) -> bool:
        raise RuntimeError("the store is throttling")

    with monkeypatch.context() as patched:
        patched.setattr(world.svc.archive, "put_review", throttled)
        answer = world.deliver_reviews()
    assert len(answer["batchItemFailures"]) == 1, answer
    assert "review" not in ana.ask("record", game=game)["record"]
    world.review_sqs.sent.extend(sent)  # SQS delivers it again
    assert world.deliver_reviews() == {"batchItemFailures": []}
    assert "review" in ana.ask("record", game=game)["record"]


def test_a_message_delivered_again_does_not_run_the_coach_again(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Catches: a redelivery that reviews the game again before finding the review stored
    (SQS delivers at least once; each repeat would cost a review's CPU)."""
    game, ana, sent = _finished(world)
    assert world.deliver_reviews() == {"batchItemFailures": []}
    record = ana.ask("record", game=game)["record"]

    def reviewed_again(*args: object, **kwargs: object) -> dict[str, Any]:
        raise AssertionError("the coach reviewed a game that has its review")

    monkeypatch.setattr(coach, "review", reviewed_again)
    world.review_sqs.sent.extend(sent)
    assert world.deliver_reviews() == {"batchItemFailures": []}
    assert ana.ask("record", game=game)["record"] == record
