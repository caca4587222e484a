"""Golden: the views and ``turn`` events made from the typed definitions are the dicts
the rules built by hand before (the oracle below is that code), plus ``swap_open``;
and a stored result keeps its shape. Checked at every step of whole random games."""

from __future__ import annotations

from typing import Any

import pytest
from numbridge.rules import GameState, Result, Seat, Transition, player_view, spectator_view
from numbridge.rules.events import Turn
from numbridge.rules.first_moves import abortable
from numbridge.rules.goals import block_table
from numbridge.rules.plain import plain
from numbridge.rules.seats import SEATS
from numbridge.rules.views import clock_at, next_deadline, swap_cell
from rules_play import Player, Setup

# --- the oracle: how views, turns and results were written out by hand ------------------


def old_result(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    data: dict[str, Any] = {"winner": result.winner, "by": result.by}
    if result.path is not None:
        data["path"] = [list(cell) for cell in result.path]
    if result.blocks is not None:
        data["blocks"] = list(result.blocks)
    if result.block_table is not None:
        table = result.block_table
        data["block_table"] = {"blue": table.blue, "red": table.red,
                               "undecided": table.undecided}
    return data


def old_variant_fields(state: GameState, swap_for: Seat | None) -> dict[str, Any]:
    if state.variant == "domains":
        table = block_table(state.owners, state.board.layout)
        return {
            "moves_left_in_pair": state.moves_left_in_pair,
            "block_table": {"blue": table.blue, "red": table.red, "undecided": table.undecided},
            "block_owners": table.marks(),
        }
    available = swap_cell(state) is not None and (swap_for is None or swap_for == "red")
    return {"swap_available": available}


def old_turn_summary(state: GameState, now_ms: int) -> dict[str, Any]:
    data: dict[str, Any] = {
        "turn": state.turn,
        "deadline_ms": next_deadline(state),
        "now_ms": now_ms,
        "bag": len(state.bag),
        "hand_sizes": {seat: len(state.hand(seat)) for seat in SEATS},
        "clock_ms": {seat: clock_at(state, seat, now_ms) for seat in SEATS},
        "mistakes": {seat: state.side(seat).mistakes for seat in SEATS},
    }
    data.update(old_variant_fields(state, None))
    data.pop("block_owners", None)
    return data


def old_view(state: GameState, now_ms: int, seat: Seat | None) -> dict[str, Any]:
    options = state.options
    view: dict[str, Any] = {
        "game": state.game_id, "v": state.v, "room": options.room, "variant": options.variant,
        "size": state.size, "blocks": state.board.layout.to_string(), "digits": state.digits,
        "owners": state.owners, "clues": state.board.clue_mask(),
    }
    if seat is not None:
        view["you"] = seat
    view["players"] = {
        s: {"name": state.side(s).name, "hand_size": len(state.hand(s)),
            "mistakes": state.side(s).mistakes, "clock_ms": clock_at(state, s, now_ms)}
        for s in SEATS
    }
    if seat is not None:
        view["hand"] = list(state.hand(seat))
    mistake = state.last_mistake
    view.update({
        "bag": len(state.bag), "turn": state.turn, "now_ms": now_ms,
        "deadline_ms": next_deadline(state), "status": state.status,
        "result": old_result(state.result),
        "offers": {"draw": state.draw_offer, "adjourn": state.adjourn_offer},
        "options": {"blocks": options.blocks, "clues": options.clues,
                    "take_price": options.take_price, "move_ms": options.move_ms,
                    "game_ms": options.game_ms, "highlighting": options.highlighting,
                    "rated": options.rated},
        "last_mistake": None if mistake is None else {
            "seat": mistake.seat, "cell": list(mistake.cell), "digit": mistake.digit,
            "v": mistake.v},
        "resume_requested": [s for s in SEATS if state.side(s).resume],
        "moves": state.turns_played,
        "abortable": abortable(state.status, state.record),
    })
    view.update(old_variant_fields(state, seat))
    return view


# --- the check ----------------------------------------------------------------------------


def with_swap_open(state: GameState, old: dict[str, Any]) -> dict[str, Any]:
    return old if state.variant == "domains" else {**old, "swap_open": swap_cell(state) is not None}


def check(state: GameState, now_ms: int) -> None:
    assert state.to_dict()["result"] == old_result(state.result)
    for seat in (*SEATS, None):
        view = player_view(state, seat, now_ms) if seat else spectator_view(state, now_ms)
        expected = with_swap_open(state, old_view(state, now_ms, seat))
        assert view == expected
        assert list(view) == list(expected), "the same fields in the same order"


class Checked(Player):
    """A random player whose every transition's closing ``turn`` and every state's views
    are checked against the oracle."""

    checked = 0  # transitions checked

    def observe(self, t: Transition) -> None:
        self.checked += 1
        last = t.events[-1].body if t.events else None
        if isinstance(last, Turn):  # made from the state after the transition
            expected = with_swap_open(t.state, old_turn_summary(t.state, last.now_ms))
            assert plain(last) == expected
            assert last.swap_open == last.swap_available
        check(t.state, self.now)
        super().observe(t)


@pytest.mark.parametrize("variant", ["bridge", "blitz", "domains"])
@pytest.mark.parametrize(("to_the_end", "game_ms"), [(True, 600_000), (False, None)])
def test_views_and_turns_are_the_dicts_of_before(variant: str, to_the_end: bool,
                                                  game_ms: int | None) -> None:
    players = [Checked(Setup(variant=variant, seed=seed, irregular=seed % 2 == 1,
                             clue_share=0.3, take_price=1 + seed % 2, game_ms=game_ms,
                             move_ms=30_000, to_the_end=to_the_end)) for seed in range(4)]
    for player in players:
        player.play(300)
    assert sum(player.checked for player in players) > 40
