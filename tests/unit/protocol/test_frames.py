"""Every frame model the server sends refuses undeclared fields: a field that leaks
(the opponent's hand, the bag's tiles, the solution) or drifts from the documented
protocol fails validation, and the tests validate every frame the handlers post."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from numbridge import rules
from numbridge.protocol.models import validate_frame
from numbridge.rules.geometry import Layout
from pydantic import ValidationError
from testkit.sudoku import fill, regular_blocks


def game(variant: str) -> rules.GameState:
    size = 6 if variant == "blitz" else 9
    blocks = regular_blocks(size)
    rng = random.Random(3)
    solution = fill(blocks, rng)
    givens = "".join(d if i % 3 == 0 else "." for i, d in enumerate(solution))
    options = rules.GameOptions(room=variant, variant=variant, size=size, blocks="regular",
                                clues=sum(g != "." for g in givens),
                                take_price=1, move_ms=45_000, game_ms=900_000,
                                highlighting=True, rated=True)
    board = rules.Board(Layout.from_string(blocks), givens, solution)
    return rules.new_game("g-1", options, board, {"blue": "ana", "red": "bob"}, rng, 0)


def state_frame(state: rules.GameState, seat: rules.Seat | None) -> dict[str, Any]:
    view = (rules.player_view(state, seat, 5) if seat is not None
            else rules.spectator_view(state, 5))
    return {"type": "state", "game": state.game_id, "v": state.v, "view": view}


def with_a_mistake(state: rules.GameState) -> rules.GameState:
    digit = state.blue.hand[0]
    wrong = next(i for i, (d, s) in enumerate(zip(state.digits, state.board.solution,
                                                   strict=True))
                 if d == "." and s != str(digit))
    cell = divmod(wrong, state.size)
    return rules.apply(state, "blue", rules.Place(cell, digit), 1, random.Random(1)).state


@pytest.mark.parametrize("variant", ["bridge", "blitz", "domains"])
def test_every_field_the_views_carry_is_declared(variant: str) -> None:
    state = with_a_mistake(game(variant))
    assert state.last_mistake is not None
    for seat in ("blue", "red", None):
        validate_frame(state_frame(state, seat))
    adjourned = rules.apply(state, "red", rules.OfferAdjourn(), 2, random.Random(1)).state
    adjourned = rules.apply(adjourned, "blue", rules.AcceptAdjourn(), 3, random.Random(1)).state
    adjourned = rules.apply(adjourned, "blue", rules.Resume(), 4, random.Random(1)).state
    assert rules.player_view(adjourned, "red", 5)["resume_requested"] == ["blue"]
    validate_frame(state_frame(adjourned, "red"))


def leaked(frame: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(frame)
    where = out
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return out


@pytest.mark.parametrize(("path", "value"), [
    (("view", "players", "red", "hand"), [1, 2, 3]),
    (("view", "bag_tiles"), [4, 5]),
    (("view", "solution"), "1" * 81),
    (("view", "options", "seed"), 7),
    (("view", "offers", "takeback"), None),
    (("view", "last_mistake"), {"seat": "blue", "cell": [0, 1], "digit": 3, "v": 1,
                                "right": 4}),
    (("secret",), 1),
])
def test_an_undeclared_field_in_a_state_frame_is_refused(path: tuple[str, ...],
                                                          value: Any) -> None:
    frame = state_frame(with_a_mistake(game("bridge")), "blue")
    validate_frame(frame)
    with pytest.raises(ValidationError):
        validate_frame(leaked(frame, path, value))


@pytest.mark.parametrize("frame", [
    {"type": "hand", "game": "g", "v": 3, "hand": [1, 2], "seat": "red"},
    {"type": "turn", "game": "g", "v": 3, "turn": "red", "deadline_ms": 1, "now_ms": 0,
     "bag": 2, "hand_sizes": {"blue": 3, "red": 3}, "clock_ms": {"blue": 1, "red": 1},
     "mistakes": {"blue": 0, "red": 0}, "bag_tiles": [1, 2]},
    {"type": "taken", "game": "g", "v": 3, "seat": "red", "cell": [0, 0], "paid": 1,
     "digit": 4},
    {"type": "games", "id": "r", "games": [
        {"game": "g", "status": "playing", "result": None, "variant": "bridge",
         "room": "bridge", "you": "blue", "opponent": "bob", "rated": True,
         "updated_ms": 1, "hand": [1]}]},
    {"type": "leaderboard", "id": "r", "variant": "bridge", "players": [
        {"name": "ana", "rating": 1500.0, "rd": 350.0, "volatility": 0.06, "games": 0,
         "provisional": True, "rv": 1}]},
    {"type": "proposals", "id": "r", "proposals": [
        {"id": "p", "room": "bridge", "by": "ana", "variant": "bridge",
         "blocks": "regular", "clues": 30, "highlighting": True, "rated": True,
         "colour": "blue", "created_ms": 1, "seed": 3}]},
])
def test_an_undeclared_field_in_any_other_frame_is_refused(frame: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        validate_frame(frame)
