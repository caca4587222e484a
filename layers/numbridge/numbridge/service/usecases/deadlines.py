"""Deadlines that fell: the timer queue's messages and the once-a-minute sweep (which
also hands each overdue tournament's step to the tournament queue).

Each game on its own: a game that fails is counted and left to a retry (SQS)
or to the next sweep, and the others go on.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

from numbridge.service.commit import settle
from numbridge.service.context import Services
from numbridge.service.delivery import deliver
from numbridge.service.observability import MetricResolution, MetricUnit, count, logger, measure
from numbridge.service.usecases import play
from numbridge.service.usecases.tournament_schedule import schedule_ahead
from numbridge.service.usecases.tournament_steps import send_overdue
from numbridge.store.port import ConflictError


def on_timer_messages(svc: Services, event: dict[str, Any]) -> dict[str, Any]:
    """SQS batch of per-turn timers: ``{"game", "v", "deadline_ms"}`` each.

    Each game on its own: a game that fails is reported back for SQS to retry
    (the dead-letter queue ends a poisoned one; the sweep is the backstop) and
    the other messages of the batch go on.
    """
    failures = []
    for record in event.get("Records", []):
        timer = _timer(record)
        if timer is None:
            continue
        game_id, v = timer
        _lag(svc, record)
        if not _advance_isolated(svc, game_id, v):
            failures.append({"itemIdentifier": record["messageId"]})
    return {"batchItemFailures": failures}


def on_sweep(svc: Services) -> dict[str, Any]:
    """The once-a-minute backstop: every game whose deadline has passed, each on its own."""
    due = svc.games.due(svc.rooms.ids, svc.clock())
    failed = sum(1 for game_id in due if not _advance_isolated(svc, game_id))
    lapsed = lapse_proposals(svc)
    stepped = send_overdue(svc)  # a step deals boards: the tournament function's work
    scheduled = schedule_ahead(svc)  # the club's schedule: the next day's events made
    return {"advanced": len(due) - failed, **({"failed": failed} if failed else {}),
            **({"lapsed": lapsed} if lapsed else {}),
            **({"tournaments": stepped} if stepped else {}),
            **({"scheduled": scheduled} if scheduled else {})}


def lapse_proposals(svc: Services) -> int:
    """Take away the proposals that lapsed (an hour old) and tell the lobby: the lists
    skip them already, the lobby's subscribers are told here, within a minute. A failure
    is logged: the next sweep tries again."""
    try:
        gone = svc.proposals.lapsed(list(svc.rooms.ids), svc.clock())
        for stored in gone:
            try:
                svc.store.transact(svc.proposals.remove_writes(stored))
            except ConflictError:
                continue  # accepted or withdrawn meanwhile: told by that request
            svc.lobby.publish({"hints": [{"proposal_removed": stored.proposal["id"],
                                          "why": "lapsed", "by": stored.proposal["by"]}]})
        return len(gone)
    except Exception:
        logger.exception("lapsed proposals not taken away")
        return 0


def _timer(record: Any) -> tuple[str, int] | None:
    """The game and version a timer message names; None (logged, dropped) if unreadable:
    no retry can make it readable."""
    try:
        body = json.loads(record["body"])
        game_id, v = body["game"], body["v"]
        if isinstance(game_id, str) and type(v) is int:
            return game_id, v
    except (KeyError, TypeError, ValueError):
        pass
    logger.error("unreadable timer message", extra={"message_id": _message_id(record)})
    count("TimerMessagesUnreadable")
    return None


def _lag(svc: Services, record: Any) -> None:
    """``TimerLag``: how long after its deadline a timer is handled (the TimerLag alarm,
    at high resolution for its short period). A timer due later than SQS can delay
    (15 minutes) comes early, to be sent again: no lag to tell."""
    deadline = json.loads(record["body"]).get("deadline_ms")
    if type(deadline) is int and deadline <= svc.clock():
        measure("TimerLag", svc.clock() - deadline, MetricUnit.Milliseconds,
                MetricResolution.High)


def _message_id(record: Any) -> object:
    return record.get("messageId") if isinstance(record, dict) else None


def _advance_isolated(svc: Services, game_id: str, timer_v: int | None = None) -> bool:
    """Advance one game and push its events; a failure is logged and counted, not raised."""
    try:
        deliver(svc, settle(svc, partial(play.advance, svc, game_id, timer_v)))
    except Exception:
        logger.exception("advancing a game failed", extra={"game": game_id})
        count("GameAdvanceFailures")
        return False
    return True
