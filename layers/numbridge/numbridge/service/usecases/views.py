"""Rendering game data as frames for one viewer."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from numbridge import coach, rules
from numbridge.protocol import answers, render
from numbridge.store.games import StoredEvent
from numbridge.store.rematches import Rematch


def event_frame(game_id: str, event: rules.Event) -> StoredEvent:
    """The event as it is stored and sent: its frame, and who may see it."""
    return StoredEvent(v=event.v, to=event.to, frame=render.event_frame(game_id, event))


def for_viewer(event: StoredEvent, seat: str | None) -> dict[str, Any]:
    """The event itself if the viewer may see it, else a bare placeholder."""
    if event.to is None or event.to == seat:
        return event.frame
    return render.hidden_frame(event.frame["game"], event.v)


def state_frame(state: rules.GameState, seat: rules.Seat | None, now_ms: int,
                request_id: str | None = None,
                online: Mapping[str, bool] | None = None,
                rematch: Rematch | None = None) -> dict[str, Any]:
    """A player's view (a spectator's without ``seat``), with what the service knows."""
    view = (rules.spectator_view(state, now_ms) if seat is None
            else rules.player_view(state, seat, now_ms))
    add_presence(view, online)
    add_rematch(view, state, rematch)
    view.setdefault("grade", board_grade(state.board))
    if state.options.tournament is not None:
        view["tournament"] = state.options.tournament
    return answers.State(game=state.game_id, v=state.v, view=view, id=request_id).frame()


def board_grade(board: rules.Board) -> rules.Grade:
    """The board's grade: the dealer's, kept with the game; for a board dealt without one
    (before boards were graded, or by a caller that dropped it) the coach grades it here
    (a few milliseconds, once per board and container)."""
    return board.grade or _graded(board.layout.to_string(), board.givens)


@lru_cache(maxsize=256)
def _graded(blocks: str, givens: str) -> rules.Grade:
    return coach.grade(blocks, givens)


def add_presence(view: dict[str, Any], online: Mapping[str, bool] | None) -> None:
    """``players.SEAT.online``: the service's knowledge (connections), not the rules'."""
    for seat, is_online in (online or {}).items():
        view["players"][seat]["online"] = is_online


def add_rematch(view: dict[str, Any], state: rules.GameState, offer: Rematch | None) -> None:
    """``offers.rematch``: the seat whose offer stands (in every view, so that a client
    sees the server has rematches); ``rematch``: the new game, once dealt."""
    by = offer.by if offer is not None and offer.status == "offered" else None
    view["offers"]["rematch"] = next((s for s, name in state.players.items() if name == by),
                                     None)
    if offer is not None and offer.game is not None:
        view["rematch"] = offer.game


def summary(state: rules.GameState, seat: rules.Seat, now_ms: int, *,
            rated: bool | None = None,
            rating: answers.RatingChange | None = None) -> dict[str, Any]:
    """One line of a player's ``games`` list, as it is stored and listed."""
    return answers.to_json_fields(answers.GameSummary(
        game=state.game_id, status=state.status, result=state.result,
        variant=state.options.variant, room=state.options.room, you=seat,
        opponent=state.players[rules.other(seat)],
        rated=state.options.rated if rated is None else rated,
        updated_ms=now_ms, rating=rating))
