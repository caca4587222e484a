"""In-game use cases: every action on a game, sync, candidates, and timeouts.

Each change is load → ``rules`` → one conditional transaction (state + events
+ status writes). A lost race reloads and tries again; the rules then decide
(usually ``not_your_turn``). Frames are pushed only after the commit; if the
function dies before that, clients recover the events by ``v`` (``sync``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from numbridge import rules
from numbridge.protocol import ProtocolError, ack_frame, error_frame
from numbridge.protocol import actions as act
from numbridge.rules.seats import SEATS
from numbridge.service.context import Services
from numbridge.service.finish import status_writes
from numbridge.service.observability import count, logger
from numbridge.service.outcome import Outcome
from numbridge.service.views import event_frame, for_viewer, state_frame
from numbridge.store.games import GameRow
from numbridge.store.table import ConflictError

MAX_ATTEMPTS = 5
# Beyond this many missed events a client gets its whole view instead.
MAX_SYNC_EVENTS = 500


def to_rules_action(request: act.Request) -> rules.Action:
    match request:
        case act.Place(cell=cell, digit=digit):
            return rules.Place(cell=cell, digit=digit)
        case act.Take(cell=cell, digit=digit):
            return rules.Take(cell=cell, digit=digit)
    simple: dict[type[act.Request], Callable[[], rules.Action]] = {
        act.Exchange: rules.Exchange, act.Swap: rules.Swap, act.Resign: rules.Resign,
        act.OfferDraw: rules.OfferDraw, act.AcceptDraw: rules.AcceptDraw,
        act.DeclineDraw: rules.DeclineDraw, act.OfferAdjourn: rules.OfferAdjourn,
        act.AcceptAdjourn: rules.AcceptAdjourn, act.Resume: rules.Resume,
    }
    return simple[type(request)]()


def load(svc: Services, game_id: str, player: str) -> tuple[GameRow, rules.Seat]:
    """The game and the player's seat in it; ``not_found``/``unauthorized`` otherwise."""
    row = svc.games.load(game_id)
    if row is None:
        raise ProtocolError("not_found", f"no game {game_id!r}")
    for seat in SEATS:
        if row.players.get(seat) == player:
            return row, seat
    raise ProtocolError("unauthorized", f"you have no seat in game {game_id!r}")


def play(svc: Services, player: str, request: act.GameRequest) -> Outcome:
    """Apply a move (or resign, offer, resume...) for the player who sent it."""
    action = to_rules_action(request)
    for _ in range(MAX_ATTEMPTS):
        row, seat = load(svc, request.game, player)
        state = rules.GameState.from_dict(row.state)
        now = svc.clock()
        # A deadline that has passed is applied first, whether or not the action stands.
        due = rules.advance(state, now, svc.rng)
        refusal: rules.RulesError | None = None
        try:
            moved = rules.apply(due.state, seat, action, now, svc.rng)
            result = rules.Transition(moved.state, due.events + moved.events)
        except rules.RulesError as exc:
            if not due.events:
                raise ProtocolError.of(exc.code, str(exc)) from exc
            refusal, result = exc, due
        try:
            pushes = commit(svc, row, state, result, now)
        except ConflictError:
            logger.info("lost a race; reloading", extra={"game": request.game})
            continue
        if refusal is not None:
            err = ProtocolError.of(refusal.code, str(refusal))
            return Outcome([_error(request.id, err)], pushes)
        return Outcome([ack_frame(request.id)], pushes)
    raise ProtocolError("conflict", "the game changed under this action too often; retry")


def _error(request_id: str, err: ProtocolError) -> dict[str, Any]:
    return error_frame(request_id, err.code, err.message)


def commit(svc: Services, row: GameRow, before: rules.GameState,
           change: rules.Transition, now_ms: int) -> list[tuple[str, list[dict[str, Any]]]]:
    """Write a transition under the conditions of ``row``; return what to push."""
    after = change.state
    events = [event_frame(after.game_id, e) for e in change.events]
    deadline = rules.next_deadline(after)
    writes = [
        svc.games.state_put(
            after.game_id, after.to_dict(), v=after.v, turn=after.turn,
            step=after.moves_left_in_pair, status=after.status, players=after.players,
            deadline_ms=deadline, expected=row,
        ),
        *svc.games.event_puts(after.game_id, events),
        *status_writes(svc, before, after, now_ms),
    ]
    svc.table.transact(writes)
    _measure(change.events)
    if deadline is not None:
        svc.timers.schedule(after.game_id, after.v, deadline, now_ms)
    return [(after.players[seat], [for_viewer(e, seat) for e in events]) for seat in SEATS]


def _measure(events: tuple[rules.Event, ...]) -> None:
    names = {"placed": "Moves", "taken": "Moves", "exchanged": "Moves", "swapped": "Moves",
             "mistake": "Mistakes", "timeout": "Timeouts", "finished": "GamesFinished"}
    for e in events:
        if e.kind in names:
            count(names[e.kind])
        if e.kind == "mistake":
            count("Moves")


def advance(svc: Services, game_id: str, timer_v: int | None = None) -> Outcome:
    """Apply whatever deadline is due (timer message, sweep, or before a sync).

    A timer message for an older version is stale: the commit that made the
    newer version scheduled its own timer.
    """
    for _ in range(MAX_ATTEMPTS):
        row = svc.games.load(game_id)
        if row is None or (timer_v is not None and row.v != timer_v):
            return Outcome([])
        state = rules.GameState.from_dict(row.state)
        now = svc.clock()
        due = rules.advance(state, now, svc.rng)
        if not due.events:
            deadline = rules.next_deadline(state)
            if timer_v is not None and deadline is not None:
                svc.timers.schedule(game_id, row.v, deadline, now)  # woke early (15 min cap)
            return Outcome([])
        try:
            return Outcome([], commit(svc, row, state, due, now))
        except ConflictError:
            continue
    return Outcome([])


def sync(svc: Services, player: str, request: act.Sync) -> Outcome:
    row, seat = load(svc, request.game, player)
    state = rules.GameState.from_dict(row.state)
    now = svc.clock()
    pushes: list[tuple[str, list[dict[str, Any]]]] = []
    deadline = rules.next_deadline(state)
    if deadline is not None and deadline <= now:
        # A deadline nobody has applied yet: apply it first, so the answer is current.
        pushes = advance(svc, request.game).pushes
        row, seat = load(svc, request.game, player)
        state = rules.GameState.from_dict(row.state)
    known = request.v
    if known is None or known > row.v or row.v - known > MAX_SYNC_EVENTS:
        return Outcome([state_frame(state, seat, svc.clock(), request.id)], pushes)
    missed = svc.games.events_after(request.game, known)
    replies: list[dict[str, Any]] = [for_viewer(e, seat) for e in missed]
    return Outcome([*replies, ack_frame(request.id)], pushes)


def candidates(svc: Services, player: str, request: act.Candidates) -> Outcome:
    row, seat = load(svc, request.game, player)
    state = rules.GameState.from_dict(row.state)
    try:
        cells = rules.candidates(state, seat, request.digit)
    except rules.RulesError as exc:
        raise ProtocolError.of(exc.code, str(exc)) from exc
    return Outcome([{"type": "candidates", "id": request.id, "game": request.game,
                     "digit": request.digit, "cells": [list(c) for c in cells]}])
