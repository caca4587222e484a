"""What a player (or a spectator) may know: the VIEW (:mod:`.view_types`), and the public
turn summary.

Never in a view or a public event: the solution, the bag's contents, the
other player's hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from numbridge.values import frozen

from . import clocks
from .counts import BlockCounts, SeatClocks, SeatCounts
from .errors import MalformedAction
from .first_moves import abortable
from .goals import block_table
from .pie import pie_cell
from .plain import plain
from .seats import SEATS, Seat, is_seat
from .state import GameState
from .view_types import Offers, PlayerInfo, Players, View, ViewOptions

if TYPE_CHECKING:
    from .events import Turn


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


@frozen
class _VariantFields:
    """What a view and a ``turn`` have only in some variants (None: not in this one)."""

    moves_left_in_pair: int | None = None
    block_table: BlockCounts | None = None
    block_owners: str | None = None
    swap_open: bool | None = None


def _variant_fields(state: GameState) -> _VariantFields:
    if state.variant == "domains":
        table = block_table(state.owners, state.board.layout)
        return _VariantFields(moves_left_in_pair=state.moves_left_in_pair,
                              block_table=table.counts(), block_owners=table.marks())
    return _VariantFields(swap_open=swap_cell(state) is not None)


def turn_summary(state: GameState, now_ms: int) -> Turn:
    """The public `turn` event: who moves, until when, and the public counters."""
    # The events load with the engine, which alone makes turns: a function that only
    # shows views (the lobby) does not define them.
    from .events import Turn

    extra = _variant_fields(state)
    return Turn(
        turn=state.turn,
        deadline_ms=next_deadline(state),
        now_ms=now_ms,
        bag=len(state.bag),
        hand_sizes=SeatCounts.of(lambda s: len(state.hand(s))),
        clock_ms=SeatClocks.of(lambda s: clock_at(state, s, now_ms)),
        mistakes=SeatCounts.of(lambda s: state.side(s).mistakes),
        moves_left_in_pair=extra.moves_left_in_pair,
        block_table=extra.block_table,
        swap_available=extra.swap_open,
        swap_open=extra.swap_open,
    )


def _view(state: GameState, now_ms: int, seat: Seat | None) -> View:
    options = state.options
    extra = _variant_fields(state)
    return View(
        game=state.game_id,
        v=state.v,
        room=options.room,
        variant=options.variant,
        size=state.size,
        blocks=state.board.layout.to_string(),
        digits=state.digits,
        owners=state.owners,
        clues=state.board.clue_mask(),
        you=seat,
        players=Players.of(lambda s: PlayerInfo(
            name=state.side(s).name,
            hand_size=len(state.hand(s)),
            mistakes=state.side(s).mistakes,
            clock_ms=clock_at(state, s, now_ms),
        )),
        hand=None if seat is None else state.hand(seat),
        bag=len(state.bag),
        turn=state.turn,
        now_ms=now_ms,
        deadline_ms=next_deadline(state),
        status=state.status,
        result=state.result,
        offers=Offers(draw=state.draw_offer, adjourn=state.adjourn_offer),
        options=ViewOptions(
            blocks=options.blocks,
            clues=options.clues,
            take_price=options.take_price,
            move_ms=options.move_ms,
            game_ms=options.game_ms,
            highlighting=options.highlighting,
            rated=options.rated,
        ),
        last_mistake=state.last_mistake,
        resume_requested=tuple(s for s in SEATS if state.side(s).resume),
        moves=state.turns_played,
        # RULES.md §7 [decided]: either player may still abort.
        abortable=abortable(state.status, state.record),
        moves_left_in_pair=extra.moves_left_in_pair,
        block_table=extra.block_table,
        block_owners=extra.block_owners,
        # The pie rule is open and it is the viewer's move; a spectator is told whether
        # the player to move may swap, as before there was ``swap_open``.
        swap_available=extra.swap_open and (seat is None or seat == state.to_move),
        swap_open=extra.swap_open,
        grade=state.board.grade,
    )


def player_view(state: GameState, seat: Seat, now_ms: int) -> dict[str, Any]:
    """The VIEW for one seat, as JSON: its own hand only, the rest public."""
    if not is_seat(seat):
        raise MalformedAction(f"view: the seat must be 'blue' or 'red', not {seat!r}")
    view: dict[str, Any] = plain(_view(state, now_ms, seat))
    return view


def spectator_view(state: GameState, now_ms: int) -> dict[str, Any]:
    """The VIEW without `you` and `hand`, as JSON."""
    view: dict[str, Any] = plain(_view(state, now_ms, None))
    return view
