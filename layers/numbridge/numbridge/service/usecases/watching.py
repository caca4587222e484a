"""Spectators (RULES.md §8): anyone signed in may watch a game in progress, unless its
room turns spectators off; a spectator sees what neither player hides.

``watch`` stores the watch (``store.watches``) and answers with the spectator's
``state``; from then on the fan-out (``service.delivery``) posts the game's
events to every connection watching it, the hidden ones as ``hidden``.
``unwatch`` stops that. ``live`` lists the games being played, a page at a
time, each with its version and how many watch it (the count kept on the game's
live item, not the watches themselves). At most
:data:`~numbridge.caps.WATCHES_PER_CONNECTION` games per connection
(``too_many_watches``) and :data:`~numbridge.caps.WATCHERS_PER_GAME` watchers
per game (``full``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from numbridge import rules
from numbridge.protocol import ProtocolError, ack_frame, answers
from numbridge.protocol import requests as req
from numbridge.service.context import Services
from numbridge.service.outcome import Outcome
from numbridge.service.usecases import pages
from numbridge.service.usecases.presence import online
from numbridge.service.usecases.views import state_frame
from numbridge.store.port import ConflictError

T = TypeVar("T")


def spectators_allowed(svc: Services, room_id: str) -> bool:
    """Whether the game's room lets anyone watch (a room no longer configured: no)."""
    return room_id in svc.rooms and svc.rooms.get(room_id).spectators


def _state(svc: Services, game_id: str) -> rules.GameState:
    row = svc.games.load(game_id)
    if row is None:
        raise ProtocolError("not_found", f"no game {game_id!r}")
    return rules.GameState.from_dict(row.state)


def _check_watchable(state: rules.GameState, svc: Services, player: str) -> None:
    if player in state.players.values():
        raise ProtocolError("illegal", f"you play in game {state.game_id}: sync it instead")
    if not spectators_allowed(svc, state.options.room):
        raise ProtocolError("unauthorized",
                            f"room {state.options.room!r} does not allow spectators")
    if state.status == "finished":
        raise ProtocolError("game_over", f"game {state.game_id} is over: read its `record`")


def watch(svc: Services, player: str, connection_id: str, request: req.Watch) -> Outcome:
    _check_watchable(_state(svc, request.game), svc, player)
    now = svc.clock()
    connection = svc.connections.get(connection_id)
    batch = connection is not None and connection.batch
    expires = None if connection is None else connection.token_expires_at
    _changing(lambda: svc.watches.add(request.game, connection_id, player, now, batch=batch,
                                      token_expires_at=expires))
    svc.games.mark_watched(request.game)  # moves decided before this commit fail theirs
    # Read again now that the watch is stored: a move committed after this read reaches
    # the watcher through the fan-out (which reads the watchers after its commit).
    state = _state(svc, request.game)
    return Outcome([state_frame(state, None, now, request.id, online(svc, state.players))])


def unwatch(svc: Services, player: str, connection_id: str, request: req.Unwatch) -> Outcome:
    if not _changing(lambda: svc.watches.remove(request.game, connection_id, svc.clock())):
        raise ProtocolError("illegal", f"this connection is not watching game {request.game!r}")
    return Outcome([ack_frame(request.id)])


def _changing(change: Callable[[], T]) -> T:
    """A change of the counters of watching that others kept winning: ``conflict``."""
    try:
        return change()
    except ConflictError as exc:
        raise ProtocolError("conflict", f"{exc}; retry") from exc


def live(svc: Services, player: str, request: req.Live) -> Outcome:
    games, following = live_page(svc, request.room, request.after)
    return Outcome([answers.LiveAnswer(id=request.id, games=games, next=following).frame()])


def live_page(svc: Services, room_id: str | None = None,
              after: str | None = None) -> tuple[list[answers.LiveGame], str | None]:
    """A page of the games being played that may be watched (of one room, or all)."""
    if room_id is not None:
        room = svc.rooms.get(room_id)
        room_ids = [room.id] if room.spectators else []
    else:
        room_ids = [room.id for room in svc.rooms if room.spectators]
    listed, following = pages.across(
        room_ids, lambda room, limit, after: svc.playing.in_room(room, limit=limit, after=after),
        after)
    games = []
    for entry in listed:
        v = svc.games.version(entry["game"])
        if v is not None:
            games.append(answers.LiveGame(**entry, v=v))
    return games, following
