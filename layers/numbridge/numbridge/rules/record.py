"""The archive record of a finished game (RULES.md §5): everything, the solution included."""

from __future__ import annotations

from typing import Any

from .errors import IllegalAction
from .seats import SEATS
from .state import GameState


def archive_record(state: GameState) -> dict[str, Any]:
    """Options, players, board, final position, solution, result and every recorded turn."""
    if state.status != "finished":
        raise IllegalAction(f"record: game {state.game_id} is not finished")
    grade = {} if state.board.grade is None else {"grade": state.board.grade}
    return {
        "game": state.game_id,
        "options": state.options.to_dict(),
        "players": state.players,
        "size": state.size,
        "layout": state.board.layout.to_string(),
        "givens": state.board.givens,
        "solution": state.board.solution,
        "digits": state.digits,
        "owners": state.owners,
        "result": state.result and state.result.to_dict(),
        "mistakes": {s: state.side(s).mistakes for s in SEATS},
        "clock_ms": {s: state.side(s).clock_ms for s in SEATS},
        "moves": [entry.to_dict() for entry in state.record],
        **grade,
    }
