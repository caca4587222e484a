"""In-game use cases: every action on a game, sync, candidates, and timeouts.

Each change is load → ``rules`` → one conditional transaction (state + events
+ status writes). A lost race reloads and tries again; the rules then decide
(usually ``not_your_turn``). Frames are pushed only after the commit; if the
function dies before that, clients recover the events by ``v`` (``sync``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from numbridge import rules
from numbridge.protocol import ProtocolError, ack_frame, answers, error_frame
from numbridge.protocol.requests import Candidates, GameAction, Sync
from numbridge.rules.seats import SEATS
from numbridge.service.bots import seats as botseat
from numbridge.service.context import Services
from numbridge.service.observability import count
from numbridge.service.outcome import Outcome, Timer
from numbridge.service.usecases.finish import status_writes
from numbridge.service.usecases.presence import online
from numbridge.service.usecases.seating import game_row, load, seat_of
from numbridge.service.usecases.views import event_frame, for_viewer, state_frame
from numbridge.service.usecases.watching import spectators_allowed
from numbridge.service.wire_errors import wire_error
from numbridge.store.games import GameRow

# Beyond this many missed events a client gets its whole view instead.
MAX_SYNC_EVENTS = 500


def play(svc: Services, player: str, request: GameAction) -> Outcome:
    """Apply a move (or resign, offer, resume...) for the player who sent it."""
    row, seat = load(svc, request.game, player)
    state = rules.GameState.from_dict(row.state)
    now = svc.clock()
    try:
        change = rules.apply(state, seat, request.action, now, svc.rng)
    except rules.RulesError as refused:
        if refused.due is None:
            raise
        # What was due (a timeout, a loss on time) stands; the action does not.
        err = wire_error(refused)
        assert err is not None
        reply = error_frame(request.id, err.code, err.message)
        return transition(svc, row, state, refused.due, now, [reply])
    return transition(svc, row, state, change, now, [ack_frame(request.id)])


def transition(svc: Services, row: GameRow, before: rules.GameState,
               change: rules.Transition, now_ms: int,
               replies: list[dict[str, Any]] | None = None) -> Outcome:
    """The writes of a transition under the conditions of ``row``, and what to push."""
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
    _measure(change.events)
    pushes = [(after.players[seat], [for_viewer(e, seat) for e in events]) for seat in SEATS]
    # A game nobody ever watched has no watchers to read (store.games, ``unwatched``).
    to_watchers = ([] if row.unwatched
                   else [(after.game_id, [for_viewer(e, None) for e in events])])
    timers = [] if deadline is None else [Timer(after.game_id, after.v, deadline)]
    bots = botseat.owing(after)
    timers += botseat.watchdogs(bots, deadline, now_ms)
    return Outcome(replies or [], pushes, writes, timers, bots, to_watchers)


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
    row = svc.games.load(game_id)
    if row is None or (timer_v is not None and row.v != timer_v):
        return Outcome([])
    state = rules.GameState.from_dict(row.state)
    now = svc.clock()
    due = rules.advance(state, now, svc.rng)
    if not due.events:
        deadline = rules.next_deadline(state)
        # Woke early (a watchdog, or a wait beyond SQS's 15 minutes): a bot seat that
        # still owes this version's turn is sent it again.
        bots = botseat.owing(state) if timer_v is not None else []
        if timer_v is not None and deadline is not None:
            return Outcome([], timers=[Timer(game_id, row.v, deadline)], bots=bots)
        return Outcome([], bots=bots)
    return transition(svc, row, state, due, now)


def sync(svc: Services, player: str, request: Sync) -> Outcome:
    """A player's (or, where the room lets anyone watch, a spectator's) catch-up."""
    row = game_row(svc, request.game)
    seat = seat_of(row, player)
    state = rules.GameState.from_dict(row.state)
    if seat is None and not spectators_allowed(svc, state.options.room):
        raise ProtocolError("unauthorized", f"you have no seat in game {request.game!r}")
    now = svc.clock()
    deadline = rules.next_deadline(state)
    due: Outcome | None = None
    if deadline is not None and deadline <= now:
        # A deadline nobody has applied yet: apply it first, so the answer is current.
        change = rules.advance(state, now, svc.rng)
        if change.events:
            due = transition(svc, row, state, change, now)
            state = change.state
    known = request.v
    if known is None or known > state.v or state.v - known > MAX_SYNC_EVENTS:
        offer = svc.rematches.get(state.game_id) if state.status == "finished" else None
        replies = [state_frame(state, seat, now, request.id, online(svc, state.players),
                               offer)]
    else:
        # Up to the stored version; the events just applied follow as pushes.
        missed = svc.games.events_after(request.game, known)
        replies = [*(for_viewer(e, seat) for e in missed), ack_frame(request.id)]
    if due is None:
        return Outcome(replies)
    return dataclasses.replace(due, replies=replies)


def candidates(svc: Services, player: str, request: Candidates) -> Outcome:
    row, seat = load(svc, request.game, player)
    state = rules.GameState.from_dict(row.state)
    cells = rules.candidates(state, seat, request.digit)
    return Outcome([answers.CandidatesAnswer(id=request.id, game=request.game,
                                             digit=request.digit, cells=list(cells)).frame()])
