"""From API Gateway message events to use cases, and from outcomes to posts.

The functions in ``functions/*/app.py`` are one line each on top of these.
Every refusal is a :class:`ProtocolError` translated here into an ``error``
frame for the requester only.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from typing import Any

from numbridge.protocol import FrameRefused, ProtocolError, read_request
from numbridge.protocol import requests as req
from numbridge.protocol.batching import batched
from numbridge.service.commit import Once, refused, settle
from numbridge.service.context import Services
from numbridge.service.delivery import deliver
from numbridge.service.inbound import message_parts
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome
from numbridge.store.connections import Connection, Connections
from numbridge.store.games import Games

# (services, player, request), or (services, player, connection id, request).
UseCase = Callable[..., Outcome]

# The use case of each request, as "module:function" in numbridge.service: imported on
# first use, so a function's cold start loads only what it serves. Every game action
# is one request, ``GameAction``, served by ``play``. A request that belongs to the
# connection it came on (``req.Request.connection``) is also told which one.
USE_CASES: dict[type[req.Request], str] = {
    req.Rooms: "usecases.lobby:rooms",
    req.Propose: "bots.game:propose",
    req.Proposals: "usecases.lobby:proposals",
    req.Withdraw: "usecases.lobby:withdraw",
    req.Accept: "usecases.lobby:accept",
    req.Games: "usecases.lobby:games",
    req.Record: "usecases.lobby:record",
    req.Leaderboard: "usecases.lobby:leaderboard",
    req.GameAction: "usecases.play:play",
    req.Sync: "usecases.play:sync",
    req.Candidates: "usecases.play:candidates",
    req.OfferRematch: "usecases.rematch:offer_rematch",
    req.AcceptRematch: "usecases.rematch:accept_rematch",
    req.DeclineRematch: "usecases.rematch:decline_rematch",
    req.Live: "usecases.watching:live",
    req.Decline: "usecases.challenges:decline",
    req.Subscribe: "usecases.subscribing:subscribe",
    req.Unsubscribe: "usecases.subscribing:unsubscribe",
    req.Seek: "usecases.seeking:seek",
    req.CancelSeek: "usecases.seeking:cancel_seek",
    req.Watch: "usecases.watching:watch",
    req.Unwatch: "usecases.watching:unwatch",
    req.Tournaments: "usecases.tournaments:tournaments",
    req.Tournament: "usecases.tournaments:tournament",
    req.JoinTournament: "usecases.tournaments:join_tournament",
    req.LeaveTournament: "usecases.tournaments:leave_tournament",
}
_resolved: dict[type[req.Request], UseCase] = {}


def load_use_cases(function: req.Function) -> None:
    """Import, at a Lambda function's init, the use cases of the requests routed to it
    (and only those: the deal's solver stays out of the move function)."""
    for kind in req.REQUEST_KINDS.values():
        if kind.request.function == function:
            use_case(kind.request)


def use_case(kind: type[req.Request]) -> UseCase:
    found = _resolved.get(kind)
    if found is None:
        module, name = USE_CASES[kind].split(":")
        found = _resolved[kind] = getattr(
            importlib.import_module(f"numbridge.service.{module}"), name)
    return found


# $connect and $disconnect: numbridge.service.usecases.sessions.


# --- messages -------------------------------------------------------------------


def connection_key(connection_id: str) -> str:
    """A connection's bucket in the rate limiter (no player name holds a space)."""
    return f"connection {connection_id}"


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

    def _handle(self, connection_id: str, request: req.Request) -> Outcome:
        # A flood from one connection is turned away before it costs a store read.
        if (limited := self._limited(connection_key(connection_id), request)) is not None:
            return limited
        if not isinstance(request, req.GameRequest):
            return self._as_connection(connection_id, request,
                                       self.svc.connections.get(connection_id))
        # Who asks and the game they ask about, in one read: its first load is this one.
        connection_item, state_item = self.svc.store.get_many(
            [Connections.key(connection_id), Games.state_key(request.game)])
        with Games.read_ahead(request.game, state_item):
            return self._as_connection(connection_id, request, Connections.parse(connection_item))

    def _as_connection(self, connection_id: str, request: req.Request,
                       connection: Connection | None) -> Outcome:
        if connection is None:
            return refused(request.id, ProtocolError(
                "unauthorized", "this connection is not signed in; reconnect with a token"))
        if connection.expired(self.svc.clock()):
            return self._close_expired(connection_id, request)
        outcome = self._serve(connection_id, connection.player, request)
        if connection.batch:  # a sync's events, as the pushes: in ``events`` frames
            return dataclasses.replace(outcome, replies=batched(outcome.replies))
        return outcome

    def _serve(self, connection_id: str, player: str, request: req.Request) -> Outcome:
        logger.append_keys(player=player)
        if (limited := self._limited(player, request)) is not None:
            return limited
        if isinstance(request, req.GameRequest):
            logger.append_keys(game=request.game)
        serve = use_case(type(request))

        def decide() -> Outcome:
            if request.connection:
                return serve(self.svc, player, connection_id, request)
            return serve(self.svc, player, request)

        once = Once.of(player, request) if request.once else None
        # A game action's repeat is found in the commit instead: its receipt is put only
        # if absent, and a receipt already there turns the commit into a conflict that
        # ``settle`` answers from it (one read less a move). Other requests look first:
        # deciding them again may cost a deal.
        if (once is not None and not isinstance(request, req.GameAction)
                and (repeat := once.stored(self.svc)) is not None):
            return repeat
        return settle(self.svc, decide, once, request.id)

    def _close_expired(self, connection_id: str, request: req.Request) -> Outcome:
        """A connection whose token expired is told, closed (``DeleteConnection``) and
        forgotten (the local gateway closed it at expiry with 4001 already; in AWS this
        request or a push to it is the first to see it). Nothing is left to answer."""
        self.svc.notifier.post(connection_id, refused(request.id, ProtocolError(
            "unauthorized", "token expired: sign in again and reconnect")).replies)
        self.svc.notifier.close(connection_id)
        return Outcome([])

    def _limited(self, key: str, request: req.Request) -> Outcome | None:
        """The refusal when ``key`` (a connection, then its player) spent its requests."""
        wait_ms = self.svc.limiter.take(key, self.svc.clock())
        if wait_ms is None:
            return None
        count("RateLimited")
        return refused(request.id, ProtocolError(
            "rate_limited", f"too many requests: retry in {wait_ms} ms", wait_ms))
