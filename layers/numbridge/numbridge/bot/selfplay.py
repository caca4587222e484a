"""Games between two players with the pure rules engine and no server (tests and the bench).

Each player is a function from (its view, its knowledge) to a client frame or
None, as :func:`numbridge.bot.decide` is once a level and a ``random.Random``
are bound. The players get exactly what the server would push to them: their
own view, and every event as a frame (``hidden`` when it is for the other seat).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from numbridge import rules
from numbridge.rules.plain import plain
from numbridge.rules.seats import SEATS, Seat

from .knowledge import Knowledge, observe

Player = Callable[[Mapping[str, Any], Knowledge], dict[str, Any] | None]

_SIMPLE: dict[str, Callable[[], rules.Action]] = {
    "exchange": rules.Exchange,
    "swap": rules.Swap,
    "resign": rules.Resign,
    "offer_draw": rules.OfferDraw,
    "accept_draw": rules.AcceptDraw,
    "decline_draw": rules.DeclineDraw,
    "offer_adjourn": rules.OfferAdjourn,
    "accept_adjourn": rules.AcceptAdjourn,
    "resume": rules.Resume,
}


def frame_action(frame: Mapping[str, Any]) -> rules.Action:
    """A client frame as the rules engine's action (ValueError for one it does not know)."""
    name = frame.get("action")
    if name == "place":
        r, c = frame["cell"]
        return rules.Place((r, c), frame["digit"])
    if name == "take":
        r, c = frame["cell"]
        return rules.Take((r, c), frame.get("digit"))
    kind = _SIMPLE.get(str(name))
    if kind is None:
        raise ValueError(f"not a game action: {name!r}")
    return kind()


def event_frame(game: str, event: rules.Event, seat: Seat) -> dict[str, Any]:
    """The frame ``seat`` receives for an event (PROTOCOL.md: hidden if it is another's),
    as numbridge.protocol.render makes it (the brain may import only the rules)."""
    if event.to is not None and event.to != seat:
        return {"type": "hidden", "game": game, "v": event.v}
    return {"type": event.kind, "game": game, "v": event.v, **plain(event.body)}


@dataclass
class Game:
    state: rules.GameState
    actions: list[tuple[Seat, dict[str, Any]]] = field(default_factory=list)
    knowledge: dict[Seat, Knowledge] = field(
        default_factory=lambda: {seat: Knowledge() for seat in SEATS}
    )


def play(
    state: rules.GameState,
    players: Mapping[Seat, Player],
    rng: random.Random,
    now_ms: int,
    step_ms: int = 1_000,
    max_actions: int = 2_000,
) -> Game:
    """Play until the game is finished; each action ``step_ms`` after the last.

    Raises the engine's error if a player sends an action it refuses, and
    RuntimeError if neither player acts or the game runs past ``max_actions``.
    """
    game = Game(state)
    now = now_ms
    while game.state.status != "finished":
        if len(game.actions) >= max_actions:
            raise RuntimeError(f"no end after {max_actions} actions")
        mover = game.state.to_move
        for seat in (mover, rules.other(mover)):
            view = rules.player_view(game.state, seat, now)
            frame = players[seat](view, game.knowledge[seat])
            if frame is not None:
                break
        else:
            raise RuntimeError("neither player acts")
        transition = rules.apply(game.state, seat, frame_action(frame), now, rng)
        for event in transition.events:
            for s in SEATS:
                game.knowledge[s] = observe(
                    game.knowledge[s], event_frame(game.state.game_id, event, s)
                )
        game.state = transition.state
        game.actions.append((seat, frame))
        now += step_ms
    return game
