"""The game a request names, and the requester's seat in it."""

from __future__ import annotations

from numbridge.protocol import ProtocolError
from numbridge.rules.seats import SEATS, Seat
from numbridge.service.context import Services
from numbridge.store.games import GameRow


def load(svc: Services, game_id: str, player: str) -> tuple[GameRow, Seat]:
    """The game and the player's seat in it; ``not_found``/``unauthorized`` otherwise."""
    row = game_row(svc, game_id)
    seat = seat_of(row, player)
    if seat is None:
        raise ProtocolError("unauthorized", f"you have no seat in game {game_id!r}")
    return row, seat


def game_row(svc: Services, game_id: str) -> GameRow:
    row = svc.games.load(game_id)
    if row is None:
        raise ProtocolError("not_found", f"no game {game_id!r}")
    return row


def seat_of(row: GameRow, player: str) -> Seat | None:
    return next((seat for seat in SEATS if row.players.get(seat) == player), None)
