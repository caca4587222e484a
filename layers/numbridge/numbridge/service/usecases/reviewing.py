"""A finished game's review: read its archive record, let the coach weigh every turn,
keep the review beside the record (``record`` then carries it; PROTOCOL.md, Review).

Driven by the review queue, one message per finished game (``{"game": GID}``), sent
after the commit that archived it (``commit.follow_up``). Idempotent: a record already
reviewed is left as it is, so a redelivered message costs one read.
"""

from __future__ import annotations

import json
from typing import Any

from numbridge import coach
from numbridge.service.context import Services
from numbridge.service.observability import count, logger


def review_game(svc: Services, game_id: str) -> bool:
    """Review one finished game; False if there is nothing to do (no record, or one
    reviewed already). Raises what the store raises (the queue delivers it again)."""
    record = svc.archive.get(game_id)
    if record is None:
        logger.warning("review of a game with no archive record", extra={"game": game_id})
        count("ReviewsOfNoRecord")
        return False
    if "review" in record:
        count("ReviewsRepeated")
        return False
    try:
        review = coach.review(coach.story_of(record))
    except ValueError:
        # A record no game could leave (a contradiction in its board): no retry helps.
        logger.exception("a record the coach cannot read", extra={"game": game_id})
        count("ReviewsUnreadable")
        return False
    stored = svc.archive.put_review(game_id, review)
    count("Reviews" if stored else "ReviewsRepeated")
    return stored


def on_review_messages(svc: Services, event: dict[str, Any]) -> dict[str, Any]:
    """SQS batch of finished games: ``{"game"}`` each. A review that fails is reported
    back for SQS to deliver again (its dead-letter queue ends a poisoned one);
    unreadable messages are dropped."""
    failures = []
    for message in event.get("Records", []):
        game_id = _game(message)
        if game_id is None:
            continue
        try:
            review_game(svc, game_id)
        except Exception:
            logger.exception("review failed", extra={"game": game_id})
            count("ReviewFailures")
            failures.append({"itemIdentifier": message["messageId"]})
    return {"batchItemFailures": failures}


def _game(message: Any) -> str | None:
    try:
        game_id = json.loads(message["body"])["game"]
        if isinstance(game_id, str) and game_id:
            return game_id
    except (KeyError, TypeError, ValueError):
        pass
    logger.error("unreadable review message")
    count("ReviewMessagesUnreadable")
    return None
