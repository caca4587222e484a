"""From API Gateway and timer events to use cases, and from outcomes to posts.

The functions in ``functions/*/app.py`` are one line each on top of these.
Every refusal is a :class:`ProtocolError` translated here into an ``error``
frame for the requester only.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent_function,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
)
from aws_lambda_powertools.utilities.parser import parse
from aws_lambda_powertools.utilities.parser.models import APIGatewayWebSocketMessageEventModel

from numbridge.protocol import ProtocolError, error_frame, parse_action, peek
from numbridge.protocol import actions as act
from numbridge.service import lobby, play
from numbridge.service.context import Services
from numbridge.service.observability import logger
from numbridge.service.outcome import Outcome

UseCase = Callable[[Services, str, Any], Outcome]

USE_CASES: dict[type[act.Request], UseCase] = {
    act.Rooms: lobby.rooms, act.Propose: lobby.propose, act.Proposals: lobby.proposals,
    act.Withdraw: lobby.withdraw, act.Accept: lobby.accept, act.Games: lobby.games,
    act.Record: lobby.record, act.Leaderboard: lobby.leaderboard,
    act.Sync: play.sync, act.Candidates: play.candidates,
    **{kind: play.play for kind in act.MOVE_ACTIONS},
}
# Requests that change something: applied at most once per (player, id).
MUTATING: frozenset[type[act.Request]] = frozenset(
    {act.Propose, act.Withdraw, act.Accept, *act.MOVE_ACTIONS}
)
# Answers that must not be remembered: the same id should be able to try again.
TRANSIENT_CODES = frozenset({"conflict", "internal", "rate_limited"})


class _Transient(Exception):
    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome


# $connect and $disconnect: numbridge.service.sessions.


# --- messages -------------------------------------------------------------------


class MessageHandler:
    """Handles one message frame; mutating requests go through Powertools idempotency."""

    def __init__(self, svc: Services) -> None:
        self.svc = svc
        self.config = IdempotencyConfig(
            event_key_jmespath="[player, id]", expires_after_seconds=3600,
            raise_on_no_idempotency_key=True,
        )
        persistence = DynamoDBPersistenceLayer(
            table_name=svc.idempotency_table, boto3_client=svc.table.client
        )
        self._once: Callable[..., dict[str, Any]] = idempotent_function(
            data_keyword_argument="request", persistence_store=persistence, config=self.config,
        )(self._apply)

    def __call__(self, event: dict[str, Any], context: Any = None) -> dict[str, Any]:
        parsed = parse(event=event, model=APIGatewayWebSocketMessageEventModel)
        connection_id = parsed.request_context.connection_id
        raw = parsed.body if isinstance(parsed.body, str) else None
        outcome = self.handle(connection_id, raw, context)
        self.svc.notifier.post(connection_id, outcome.replies)
        for player, frames in outcome.pushes:
            self.svc.notifier.to_player(player, frames)
        return {"statusCode": 200}

    def handle(self, connection_id: str, raw: str | None, context: Any = None) -> Outcome:
        _, request_id = peek(raw)
        player = self.svc.connections.player_of(connection_id)
        if player is None:
            return _refused(request_id, ProtocolError(
                "unauthorized", "this connection is not signed in; reconnect with a token"))
        logger.append_keys(player=player)
        try:
            request = parse_action(raw)
        except ProtocolError as err:
            return _refused(request_id, err)
        if isinstance(request, act.GameRequest):
            logger.append_keys(game=request.game)
        if type(request) not in MUTATING:
            return self._run(player, request)
        if context is not None:
            self.config.register_lambda_context(context)
        try:
            return Outcome.from_dict(
                self._once(request={"player": player, "id": request.id, "raw": raw}))
        except _Transient as transient:
            return transient.outcome
        except IdempotencyAlreadyInProgressError:
            return _refused(request.id, ProtocolError(
                "conflict", f"request {request.id!r} is already being applied"))

    def _apply(self, request: dict[str, Any]) -> dict[str, Any]:
        outcome = self._run(request["player"], parse_action(request["raw"]))
        codes = {r.get("code") for r in outcome.replies if r.get("type") == "error"}
        if codes & TRANSIENT_CODES:
            raise _Transient(outcome)  # Powertools forgets the key: a retry runs again
        return outcome.to_dict()

    def _run(self, player: str, request: act.Request) -> Outcome:
        try:
            return USE_CASES[type(request)](self.svc, player, request)
        except ProtocolError as err:
            return _refused(request.id, err)
        except Exception:
            logger.exception("request failed")
            return _refused(request.id, ProtocolError("internal", "the server failed; retry"))


def _refused(request_id: str | None, err: ProtocolError) -> Outcome:
    return Outcome([error_frame(request_id, err.code, err.message)])


# --- timers -------------------------------------------------------------------------


def on_timer_messages(svc: Services, event: dict[str, Any]) -> dict[str, Any]:
    """SQS batch of per-turn timers: ``{"game", "v", "deadline_ms"}`` each."""
    failures = []
    for record in event.get("Records", []):
        try:
            body = json.loads(record["body"])
            _deliver(svc, play.advance(svc, str(body["game"]), int(body["v"])))
        except Exception:
            logger.exception("timer failed", extra={"message": record.get("messageId")})
            failures.append({"itemIdentifier": record["messageId"]})
    return {"batchItemFailures": failures}


def on_sweep(svc: Services) -> dict[str, Any]:
    """The once-a-minute backstop: every game whose deadline has passed."""
    due = svc.games.due(svc.clock())
    for game_id in due:
        _deliver(svc, play.advance(svc, game_id))
    return {"advanced": len(due)}


def _deliver(svc: Services, outcome: Outcome) -> None:
    for player, frames in outcome.pushes:
        svc.notifier.to_player(player, frames)
