"""A test player that knows the solution (read from the store, as only a test may)
and plays through the handlers: mostly correct placements, some mistakes,
takes and exchanges, so every kind of turn crosses the wire.
"""

from __future__ import annotations

import random
from typing import Any

from harness import Conn, World
from numbridge import rules
from testkit import moves


def current(world: World, game: str) -> rules.GameState:
    return rules.GameState.from_dict(world.stored_state(game))


def choose(state: rules.GameState, rng: random.Random) -> dict[str, Any]:
    """A legal action for the player to move, as frame fields (``testkit.moves``)."""
    seat = state.turn
    assert seat is not None
    return moves.choose(
        size=state.options.size, digits=state.digits, solution=state.board.solution,
        clues="".join("0" if g == "." else "1" for g in state.board.givens),
        owners=state.owners, hand=state.hand(seat), take_price=state.options.take_price,
        rng=rng)


def play_out(world: World, game: str, conns: dict[str, Conn], seed: int = 1,
             max_turns: int = 400) -> rules.GameState:
    """Play until the game is finished; every action must be acknowledged."""
    rng = random.Random(seed)
    for _ in range(max_turns):
        state = current(world, game)
        if state.status == "finished":
            return state
        conn = conns[state.players[state.turn]] if state.turn else None
        assert conn is not None
        fields = choose(state, rng)
        answer = conn.ask(fields.pop("action"), game=game, **fields)
        assert answer["type"] == "ack", answer
    raise AssertionError(f"game {game} did not finish in {max_turns} turns")


def start_game(world: World, room: str, proposer: Conn, acceptor: Conn,
               **choices: Any) -> str:
    """Propose, accept, and return the new game's id (both players got its state)."""
    proposal = proposer.ask("propose", room=room, **choices)["proposal"]
    proposer.new()
    ack = acceptor.ask("accept", proposal=proposal["id"])
    assert ack["type"] == "ack", ack
    [state] = [f for f in proposer.new() if f["type"] == "state"]
    return str(state["game"])


def first_moves(world: World, game: str, conns: dict[str, Conn], seed: int = 1) -> None:
    """Blue's and red's first moves, so that the game can no longer be aborted (nor be
    aborted by the clock): later timeouts are ordinary timeouts."""
    rng = random.Random(seed)
    for _ in range(2):
        state = current(world, game)
        assert state.turn is not None
        fields = choose(state, rng)
        answer = conns[state.players[state.turn]].ask(fields.pop("action"), game=game, **fields)
        assert answer["type"] == "ack", answer
