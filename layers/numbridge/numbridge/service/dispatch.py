"""From API Gateway and timer events to use cases, and from outcomes to posts.

The functions in ``functions/*/app.py`` are one line each on top of these.
Every refusal is a :class:`ProtocolError` translated here into an ``error``
frame for the requester only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from numbridge.protocol import FrameRefused, ProtocolError, read_request
from numbridge.protocol import actions as act
from numbridge.service import botgame, lobby, play, rematch, watching
from numbridge.service.commit import Once, digest, refused, settle
from numbridge.service.context import Services
from numbridge.service.delivery import deliver
from numbridge.service.inbound import message_parts
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome

UseCase = Callable[[Services, str, Any], Outcome]

USE_CASES: dict[type[act.Request], UseCase] = {
    act.Rooms: lobby.rooms, act.Propose: botgame.propose, act.Proposals: lobby.proposals,
    act.Withdraw: lobby.withdraw, act.Accept: lobby.accept, act.Games: lobby.games,
    act.Record: lobby.record, act.Leaderboard: lobby.leaderboard,
    act.Sync: play.sync, act.Candidates: play.candidates,
    **{kind: play.play for kind in act.MOVE_ACTIONS},
    act.OfferRematch: rematch.offer_rematch, act.AcceptRematch: rematch.accept_rematch,
    act.DeclineRematch: rematch.decline_rematch,
    act.Live: watching.live,
}
# Watching belongs to a connection, not to a player: these are also told which one.
# Not in MUTATING: watching again is harmless, and a stored answer would not watch on
# the connection a retry comes from.
ConnectionUseCase = Callable[[Services, str, str, Any], Outcome]
CONNECTION_USE_CASES: dict[type[act.Request], ConnectionUseCase] = {
    act.Watch: watching.watch, act.Unwatch: watching.unwatch,
}
# Requests that change something: applied at most once per (player, id).
MUTATING: frozenset[type[act.Request]] = frozenset(
    {act.Propose, act.Withdraw, act.Accept, *act.MOVE_ACTIONS, *act.REMATCH_ACTIONS}
)


# $connect and $disconnect: numbridge.service.sessions.


# --- messages -------------------------------------------------------------------


class MessageHandler:
    """Handles one message frame; a mutating request is applied at most once per
    (player, id), its answer committed with its change (``service.commit``)."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc

    def __call__(self, event: dict[str, Any], context: Any = None) -> dict[str, Any]:
        try:
            connection_id, raw = message_parts(event)
        except ValueError as exc:  # no connection to answer: nobody to tell
            logger.error("not a message event", extra={"reason": str(exc)})
            return {"statusCode": 400}
        outcome = self.handle(connection_id, raw)
        self.svc.notifier.post(connection_id, outcome.replies)
        deliver(self.svc, outcome)
        return {"statusCode": 200}

    def handle(self, connection_id: str, raw: object) -> Outcome:
        try:
            request = read_request(raw)  # the only time the frame is parsed
        except FrameRefused as junk:  # junk costs no store read
            return refused(junk.request_id, junk)
        try:
            return self._handle(connection_id, request)
        except Exception:  # the one boundary: whatever failed, the sender is told
            logger.exception("request failed")
            return refused(request.id, ProtocolError("internal", "the server failed; retry"))

    def _handle(self, connection_id: str, request: act.Request) -> Outcome:
        player = self.svc.connections.player_of(connection_id)
        if player is None:
            return refused(request.id, ProtocolError(
                "unauthorized", "this connection is not signed in; reconnect with a token"))
        logger.append_keys(player=player)
        wait_ms = self.svc.limiter.take(player, self.svc.clock())
        if wait_ms is not None:
            count("RateLimited")
            return refused(request.id, ProtocolError(
                "rate_limited", f"too many requests: retry in {wait_ms} ms", wait_ms))
        if isinstance(request, act.GameRequest):
            logger.append_keys(game=request.game)

        def decide() -> Outcome:
            on_connection = CONNECTION_USE_CASES.get(type(request))
            if on_connection is not None:
                return on_connection(self.svc, player, connection_id, request)
            return USE_CASES[type(request)](self.svc, player, request)

        once = Once(player, request.id, digest(request)) if type(request) in MUTATING else None
        if once is not None and (repeat := once.stored(self.svc)) is not None:
            return repeat
        return settle(self.svc, decide, once, request.id)


# --- timers -------------------------------------------------------------------------


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
        if not _advance_isolated(svc, game_id, v):
            failures.append({"itemIdentifier": record["messageId"]})
    return {"batchItemFailures": failures}


def on_sweep(svc: Services) -> dict[str, Any]:
    """The once-a-minute backstop: every game whose deadline has passed, each on its own."""
    due = svc.games.due(svc.clock())
    failed = sum(1 for game_id in due if not _advance_isolated(svc, game_id))
    return {"advanced": len(due) - failed, **({"failed": failed} if failed else {})}


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

