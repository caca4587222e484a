"""What a player (or a spectator) may know: PROTOCOL.md's VIEW, and the public turn summary.

Never in a view or a public event: the solution, the bag's contents, the
other player's hand. Extra fields beyond PROTOCOL.md: ``last_mistake``
(public, RULES.md §5), ``resume_requested`` (seats that asked to resume an
adjourned game), ``block_owners`` (Domains: one of 'b', 'r', '.' per block),
``moves`` (turns played so far), ``abortable`` (either player may still abort).
"""

from __future__ import annotations

from typing import Any

from . import clocks
from .errors import MalformedAction
from .first_moves import abortable
from .goals import block_table
from .pie import pie_cell
from .seats import SEATS, Seat, is_seat
from .state import GameState


def next_deadline(state: GameState) -> int | None:
    """When the player to move loses the move (or the game on time); None when not playing."""
    if state.status != "playing":
        return None
    mover = state.to_move
    return clocks.deadline(
        state.turn_started_ms, state.options.move_ms, state.side(mover).clock_ms
    ).at_ms


def clock_at(state: GameState, seat: Seat, now_ms: int) -> int | None:
    """A player's remaining game time as of ``now_ms``."""
    clock = state.side(seat).clock_ms
    if state.status == "playing" and seat == state.to_move:
        return clocks.remaining(clock, clocks.time_used(state.turn_started_ms, now_ms))
    return clock


def swap_cell(state: GameState) -> tuple[int, int] | None:
    return pie_cell(state.variant, state.status, state.to_move, state.turns_played, state.record)


def _variant_fields(state: GameState, swap_for: Seat | None) -> dict[str, Any]:
    if state.variant == "domains":
        table = block_table(state.owners, state.board.layout)
        return {
            "moves_left_in_pair": state.moves_left_in_pair,
            "block_table": table.to_dict(),
            "block_owners": table.marks(),
        }
    available = swap_cell(state) is not None and (swap_for is None or swap_for == "red")
    return {"swap_available": available}


def turn_summary(state: GameState, now_ms: int) -> dict[str, Any]:
    """The public `turn` event: who moves, until when, and the public counters."""
    data: dict[str, Any] = {
        "turn": state.turn,
        "deadline_ms": next_deadline(state),
        "now_ms": now_ms,
        "bag": len(state.bag),
        "hand_sizes": {seat: len(state.hand(seat)) for seat in SEATS},
        "clock_ms": {seat: clock_at(state, seat, now_ms) for seat in SEATS},
        "mistakes": {seat: state.side(seat).mistakes for seat in SEATS},
    }
    data.update(_variant_fields(state, None))
    data.pop("block_owners", None)
    return data


def _view(state: GameState, now_ms: int, seat: Seat | None) -> dict[str, Any]:
    options = state.options
    view: dict[str, Any] = {
        "game": state.game_id,
        "v": state.v,
        "room": options.room,
        "variant": options.variant,
        "size": state.size,
        "blocks": state.board.layout.to_string(),
        "digits": state.digits,
        "owners": state.owners,
        "clues": state.board.clue_mask(),
    }
    if seat is not None:
        view["you"] = seat
    view["players"] = {
        s: {
            "name": state.side(s).name,
            "hand_size": len(state.hand(s)),
            "mistakes": state.side(s).mistakes,
            "clock_ms": clock_at(state, s, now_ms),
        }
        for s in SEATS
    }
    if seat is not None:
        view["hand"] = list(state.hand(seat))
    view.update(
        {
            "bag": len(state.bag),
            "turn": state.turn,
            "now_ms": now_ms,
            "deadline_ms": next_deadline(state),
            "status": state.status,
            "result": state.result,
            "offers": {"draw": state.draw_offer, "adjourn": state.adjourn_offer},
            "options": {
                "blocks": options.blocks,
                "clues": options.clues,
                "take_price": options.take_price,
                "move_ms": options.move_ms,
                "game_ms": options.game_ms,
                "highlighting": options.highlighting,
                "rated": options.rated,
            },
            "last_mistake": None if state.last_mistake is None else state.last_mistake.to_dict(),
            "resume_requested": [s for s in SEATS if state.side(s).resume],
            "moves": state.turns_played,
            # RULES.md §7 [decided]: either player may still abort.
            "abortable": abortable(state.status, state.record),
        }
    )
    view.update(_variant_fields(state, seat))
    return view


def player_view(state: GameState, seat: Seat, now_ms: int) -> dict[str, Any]:
    """PROTOCOL.md's VIEW for one seat: its own hand only, the rest public."""
    if not is_seat(seat):
        raise MalformedAction(f"view: the seat must be 'blue' or 'red', not {seat!r}")
    return _view(state, now_ms, seat)


def spectator_view(state: GameState, now_ms: int) -> dict[str, Any]:
    """The VIEW without `you` and `hand`; `swap_available` says whether red may swap now."""
    return _view(state, now_ms, None)
