"""A mutable working copy of a :class:`GameState` for the length of one engine call.

The engine changes the draft and collects events; ``freeze()`` makes the new
state. The state it was made from is never touched, so an error raised half
way leaves nothing changed.
"""

from __future__ import annotations

from numbridge.rules.seats import EMPTY, NOBODY

from . import clocks
from .events import Event, EventBody
from .options import Board, GameOptions
from .seats import SEATS, Seat, Status
from .state import GameState, LastMistake, RecordEntry, Result, Side


class Draft:
    def __init__(self, state: GameState) -> None:
        self.game_id = state.game_id
        self.v = state.v
        self.options: GameOptions = state.options
        self.board: Board = state.board
        self.digits = list(state.digits)
        self.owners = list(state.owners)
        self.bag = list(state.bag)
        sides = {seat: state.side(seat) for seat in SEATS}
        self.names = {seat: sides[seat].name for seat in SEATS}
        self.hands = {seat: list(sides[seat].hand) for seat in SEATS}
        self.mistakes = {seat: sides[seat].mistakes for seat in SEATS}
        self.clocks = {seat: sides[seat].clock_ms for seat in SEATS}
        self.resume = {seat: sides[seat].resume for seat in SEATS}
        self.status: Status = state.status
        self.to_move: Seat = state.to_move
        self.moves_left = state.moves_left_in_pair
        self.turn_started = state.turn_started_ms
        self.turns_played = state.turns_played
        self.result: Result | None = state.result
        self.offers: dict[str, Seat | None] = {
            "draw": state.draw_offer,
            "adjourn": state.adjourn_offer,
        }
        self.last_mistake: LastMistake | None = state.last_mistake
        self.record = list(state.record)
        self.events: list[Event] = []

    @property
    def size(self) -> int:
        return self.board.size

    def emit(self, body: EventBody, to: Seat | None = None) -> int:
        """Append an event at the next version; returns that version."""
        self.v += 1
        self.events.append(Event(self.v, body, to))
        return self.v

    def deadline(self) -> clocks.Deadline:
        return clocks.deadline(self.turn_started, self.options.move_ms, self.clocks[self.to_move])

    def charge(self, now_ms: int) -> int:
        """Deduct the mover's time on the current move from their game clock; returns it."""
        used = clocks.time_used(self.turn_started, now_ms)
        self.clocks[self.to_move] = clocks.remaining(self.clocks[self.to_move], used)
        self.turn_started = max(self.turn_started, now_ms)
        return used

    def note(self, entry: RecordEntry) -> None:
        self.record.append(entry)

    def has_free_clue(self) -> bool:
        return any(
            g != EMPTY and o == NOBODY for g, o in zip(self.board.givens, self.owners, strict=True)
        )

    def must_pass(self, seat: Seat) -> bool:
        """RULES.md §4 "Nothing to play": empty hand, empty bag, no free clue."""
        return not self.hands[seat] and not self.bag and not self.has_free_clue()

    def freeze(self) -> GameState:
        def side(seat: Seat) -> Side:
            return Side(
                name=self.names[seat],
                hand=tuple(self.hands[seat]),
                mistakes=self.mistakes[seat],
                clock_ms=self.clocks[seat],
                resume=self.resume[seat],
            )

        return GameState(
            game_id=self.game_id,
            v=self.v,
            options=self.options,
            board=self.board,
            digits="".join(self.digits),
            owners="".join(self.owners),
            bag=tuple(self.bag),
            blue=side("blue"),
            red=side("red"),
            status=self.status,
            to_move=self.to_move,
            moves_left_in_pair=self.moves_left,
            turn_started_ms=self.turn_started,
            turns_played=self.turns_played,
            result=self.result,
            draw_offer=self.offers["draw"],
            adjourn_offer=self.offers["adjourn"],
            last_mistake=self.last_mistake,
            record=tuple(self.record),
        )
