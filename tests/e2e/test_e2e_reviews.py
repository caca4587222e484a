"""The coach in `numbridge serve`, on both stores: a game played to its end over real
WebSockets is reviewed once by the local review queue (off the request that finished
it), and its record then carries the very review the pure coach gives that record — the
same review the AWS runtime stores (tests/integration/test_reviews.py)."""

from __future__ import annotations

import time
from typing import Any

from client import deal, play_to_the_end
from e2e_server import LocalServer
from numbridge.coach import grade, review, story_of

REVIEWED_WITHIN_S = 30.0


def reviewed_record(player: Any, game: str) -> dict[str, Any]:
    """The record once its review is there (the queue works after the game ends)."""
    give_up = time.monotonic() + REVIEWED_WITHIN_S
    while True:
        record: dict[str, Any] = player.request("record", game=game)["record"]
        if "review" in record or time.monotonic() > give_up:
            return record
        time.sleep(0.2)


def test_a_finished_game_is_reviewed_by_the_local_runtime_as_the_coach_reviews_it(
        local_server: LocalServer) -> None:
    """Catches a local runtime that never drives the review function (no queue wired, the
    message lost), that stores a review other than the coach's of that record, or a
    dealt board whose grade is not the record's."""
    with local_server.player("ana") as ana, local_server.player("bob") as bob:
        seats = deal(ana, bob, "blitz", blocks="regular")
        final = play_to_the_end(seats)
        record = reviewed_record(bob, final.game)
        assert "review" in record, f"no review in {REVIEWED_WITHIN_S:.0f} s"
        without = {k: v for k, v in record.items() if k != "review"}
        assert record["review"] == review(story_of(without))
        assert {m["seat"] for m in record["review"]["moves"]} == {"blue", "red"}
        assert record["grade"] == grade(record["layout"], record["givens"])
