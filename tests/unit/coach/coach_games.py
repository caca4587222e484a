"""Finished games for the coach's tests: dealt by the dealer from a seed, played to the
end through the rules engine by the tests' player (who knows the solution and mixes
in mistakes, takes and exchanges), and archived."""

from __future__ import annotations

import random
from typing import Any

from numbridge import rules
from numbridge.puzzles import deal_board
from testkit import moves
from testkit.states import START_MS, _action

ROOMS = {  # variant: (size, clues, take price)
    "bridge": (9, 30, 1),
    "blitz": (6, 12, 2),
    "domains": (9, 30, 1),
}


def finished(variant: str = "bridge", seed: int = 1, *, blocks: str = "regular",
             clues: int | None = None, max_turns: int = 400) -> dict[str, Any]:
    """The archive record of a game of ``variant`` played to its end."""
    size, default, price = ROOMS[variant]
    clues = clues or default
    rng = random.Random(seed)
    dealt = deal_board(size, blocks, clues, rng)  # type: ignore[arg-type]
    options = rules.GameOptions(
        room=variant, variant=variant, size=size, blocks=blocks, clues=clues,  # type: ignore[arg-type]
        take_price=price, move_ms=45_000, game_ms=None, highlighting=True, rated=False)
    board = rules.Board(dealt.layout, dealt.givens, dealt.solution)
    now = START_MS
    state = rules.new_game(f"g-coach{seed}", options, board, {"blue": "ana", "red": "bob"},
                           rng, now)
    mask = board.clue_mask()
    for _ in range(max_turns):
        seat = state.turn
        if seat is None:
            break
        fields = moves.choose(size=size, digits=state.digits, solution=dealt.solution,
                              clues=mask, owners=state.owners, hand=state.hand(seat),
                              take_price=price, rng=rng)
        now += rng.randint(3_000, 37_000)
        state = rules.apply(state, seat, _action(fields), now, rng).state
    assert state.status == "finished", f"the game did not end in {max_turns} turns"
    return rules.archive_record(state)
