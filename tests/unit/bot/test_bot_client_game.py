"""One game as ``numbridge bot`` follows it (numbridge.botcli.game): events applied in
``v`` order whatever order they come in, repeats dropped, and a sync due whenever the
view cannot be trusted."""

from __future__ import annotations

import random
from typing import Any

from bot_helpers import arrange, deal
from numbridge import rules
from numbridge.bot.selfplay import event_frame
from numbridge.botcli.game import Game


def a_game() -> tuple[list[dict[str, Any]], list[dict[str, Any]], rules.GameState]:
    """Red's state frames (dealt, then after each move), and what red is pushed for
    blue's mistake and red's move."""
    state = arrange(deal("bridge", range(0, 81, 3)), hands={"blue": [3, 5, 7], "red": [3]})
    states, frames = [red_state(state)], []
    for seat, action in (("blue", rules.Place((0, 1), 5)), ("red", rules.Place((0, 1), 3))):
        transition = rules.apply(state, seat, action, 0, random.Random(0))
        frames += [event_frame(state.game_id, e, "red") for e in transition.events]
        state = transition.state
        states.append(red_state(state))
    return states, frames, state


def red_state(state: rules.GameState) -> dict[str, Any]:
    return {"type": "state", "game": state.game_id, "v": state.v,
            "view": rules.player_view(state, "red", 0)}


def test_events_apply_in_v_order_and_repeats_change_nothing() -> None:
    [dealt, *_], frames, final = a_game()
    game = Game()
    game.take_state(dealt)
    assert (game.seat, game.v, game.behind) == ("red", 0, False)
    first, *rest = frames
    for frame in reversed(rest):  # all but the first arrive, last first
        assert game.take_event(frame)
        assert game.behind and game.v == 0 and not game.in_order.is_set()
    assert game.take_event(first)
    assert (game.v, game.behind) == (final.v, False) and game.in_order.is_set()
    assert game.view is not None and game.view["owners"] == final.owners
    assert not game.take_event(first) and not game.take_event(rest[0])
    assert game.knowledge.wrong == {(0, 1, 5)}  # blue's mistake, once


def test_a_state_replaces_an_older_view_and_keeps_the_events_after_it() -> None:
    [dealt, after_blue, _], frames, final = a_game()
    game = Game()
    game.take_state(dealt)
    game.take_event(frames[-1])  # red's `turn`; the others are lost
    game.take_state(after_blue)  # a sync's answer
    assert game.v == after_blue["v"] and game.behind  # red's own move is still missing
    for frame in frames[after_blue["v"]:]:  # a sync by v sends it again
        game.take_event(frame)
    assert (game.v, game.behind, game.ahead) == (final.v, False, {})
    game.take_state(dealt)  # older than the view: ignored
    assert game.v == final.v


def test_a_frame_the_view_cannot_take_and_a_refusal_make_a_sync_due() -> None:
    [dealt, *_], frames, _ = a_game()
    game = Game()
    game.take_state(dealt)
    game.take_event({**frames[0], "type": "placed", "cell": [0, 0]})  # a clue: contradicts
    assert game.view is None and game.behind
    game.take_state(dealt)
    game.forget_view()
    assert game.behind and not game.in_order.is_set()
