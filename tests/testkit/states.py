"""Game states as a real game leaves them: played through the rules engine, with the
clock moving between moves as people think (what the stored record keeps)."""

from __future__ import annotations

import random
from typing import Any

from numbridge import rules
from numbridge.rules.geometry import Layout

from testkit import moves
from testkit.sudoku import fill, regular_blocks

START_MS = 1_796_000_000_000


def _action(fields: dict[str, Any]) -> rules.Action:
    kind = fields.pop("action")
    if kind == "exchange":
        return rules.Exchange()
    row, column = fields["cell"]
    if kind == "place":
        return rules.Place(cell=(row, column), digit=fields["digit"])
    return rules.Take(cell=(row, column), digit=fields.get("digit"))


def played(variant: str = "bridge", *, seed: int = 7, left: int = 2) -> rules.GameState:
    """A game of ``variant`` (on 9x9, or 6x6 in Blitz) played until ``left`` empty cells
    are left (or it ended), each move after 3 to 37 s of thought."""
    size = 6 if variant == "blitz" else 9
    rng = random.Random(seed)
    blocks = regular_blocks(size)
    solution = fill(blocks, rng)
    clues = 12 if size == 6 else 30
    shown = set(rng.sample(range(size * size), clues))
    givens = "".join(d if i in shown else "." for i, d in enumerate(solution))
    options = rules.GameOptions(
        room=variant, variant=variant, size=size, blocks="regular", clues=clues,
        take_price=2 if variant == "blitz" else 1, move_ms=45_000,
        game_ms=None, highlighting=True, rated=True)
    board = rules.Board(Layout.from_string(blocks), givens, solution)
    now = START_MS
    state = rules.new_game("g-1a229f12800840030d8e3", options, board,
                           {"blue": "ana", "red": "bob"}, rng, now)
    while state.status == "playing" and state.digits.count(".") > left:
        seat = state.turn
        assert seat is not None
        fields = moves.choose(
            size=size, digits=state.digits, solution=solution,
            clues="".join("0" if g == "." else "1" for g in givens), owners=state.owners,
            hand=state.hand(seat), take_price=options.take_price, rng=rng)
        now += rng.randint(3_000, 37_000)
        state = rules.apply(state, seat, _action(fields), now, rng).state
    return state


def late_bridge_state() -> dict[str, Any]:
    """A Bridge game's stored state two cells before its end."""
    return played("bridge").to_dict()
