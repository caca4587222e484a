"""The view a bot keeps from the events pushed to it (numbridge.bot.tracking) is the view
the engine gives its seat, after every transition of random games; and what it cannot
apply asks for a fresh one.

In the property the bot decides on its tracked view (never a fresh one), so every
answer must also be legal; players press random club buttons now and then, and the
clock runs past deadlines (single timeouts and long, folded catch-ups).
"""

from __future__ import annotations

import contextlib
import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from bot_helpers import arrange, cell, deal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numbridge import rules
from numbridge.bot import Knowledge, Level, decide, observe
from numbridge.bot.selfplay import event_frame, frame_action
from numbridge.bot.tracking import NeedsSync, apply_event, settled, tracked_view
from numbridge.puzzles import deal_board
from numbridge.rules.seats import SEATS, Seat
from testkit.tracked_views import check_tracked

MAX_ACTIONS = 1_500
CLUB_ACTIONS = (rules.OfferDraw, rules.OfferAdjourn, rules.AcceptDraw, rules.DeclineDraw,
                rules.AcceptAdjourn, rules.Resume, rules.Resign, rules.Abort)


def state_frame(state: rules.GameState, seat: Seat, now: int) -> dict[str, Any]:
    return {"type": "state", "game": state.game_id, "v": state.v,
            "view": rules.player_view(state, seat, now)}


@dataclass(frozen=True)
class Setup:
    variant: str
    level: Level
    seed: int
    irregular: bool
    clues: int
    take_price: int
    game_ms: int | None
    club: float  # how often a random club button is pressed
    ignore: float  # how often the mover plays on without answering an offer
    late: float  # how often the clock runs past a deadline
    absent: float  # how often both players are away for many move limits


def setups() -> st.SearchStrategy[Setup]:
    def for_variant(variant: str) -> st.SearchStrategy[Setup]:
        size = 6 if variant == "blitz" else 9
        return st.builds(
            Setup,
            variant=st.just(variant),
            level=st.sampled_from(["easy", "normal"]),
            seed=st.integers(0, 2**32 - 1),
            irregular=st.booleans(),
            clues=st.integers(22, 40) if size == 9 else st.integers(10, 20),
            take_price=st.sampled_from([1, 2, 3]),
            game_ms=st.sampled_from([None, 120_000, 900_000]),
            club=st.sampled_from([0.0, 0.08]),
            ignore=st.sampled_from([0.0, 0.5]),
            late=st.sampled_from([0.0, 0.05]),
            absent=st.sampled_from([0.0, 0.01]),
        )

    return st.sampled_from(["bridge", "blitz", "domains"]).flatmap(for_variant)


class Game:
    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rng = random.Random(setup.seed)
        size = 6 if setup.variant == "blitz" else 9
        kind = "irregular" if setup.irregular else "regular"
        board = deal_board(size, kind, setup.clues, self.rng)  # type: ignore[arg-type]
        options = rules.GameOptions(
            room="study" if setup.game_ms is None else setup.variant,
            variant=setup.variant, size=size, blocks=kind,  # type: ignore[arg-type]
            clues=setup.clues, take_price=setup.take_price, move_ms=30_000,
            game_ms=setup.game_ms, highlighting=True, rated=False,
        )
        self.now = 1_000
        self.state = rules.new_game(
            "g-prop", options, rules.Board(board.layout, board.givens, board.solution),
            {"blue": "bot-a", "red": "bot-b"}, self.rng, self.now,
        )
        self.views = {seat: tracked_view(state_frame(self.state, seat, self.now))
                      for seat in SEATS}
        self.knowledge = {seat: Knowledge() for seat in SEATS}
        self.actions = 0
        self.kinds: set[str] = set()

    def feed(self, transition: rules.Transition) -> None:
        """Each seat applies the frames it is pushed; then its view is the engine's."""
        for event in transition.events:
            self.kinds.add(event.kind)
            for seat in SEATS:
                frame = event_frame(self.state.game_id, event, seat)
                before = json.dumps(self.views[seat])
                self.views[seat] = apply_event(self.views[seat], frame)
                assert json.dumps(self.views[seat]) != before  # v at least
                self.knowledge[seat] = observe(self.knowledge[seat], frame)
        self.state = transition.state
        for seat in SEATS:
            check_tracked(self.views[seat], rules.player_view(self.state, seat, self.now))

    def tick(self) -> None:
        step = self.rng.randint(0, 10_000)
        deadline = rules.next_deadline(self.state)
        if deadline is not None and self.rng.random() < self.setup.late:
            step = deadline - self.now + self.rng.randint(0, 40_000)
        if deadline is not None and self.rng.random() < self.setup.absent:
            step = deadline - self.now + 40 * 30_000  # far more than the fold shows
        self.now += max(0, step)
        self.feed(rules.advance(self.state, self.now, self.rng))  # the service's timer

    def club(self) -> None:
        seat: Seat = self.rng.choice(SEATS)
        action = self.rng.choice(CLUB_ACTIONS)()
        with contextlib.suppress(rules.RulesError):  # e.g. nothing to accept
            self.feed(rules.apply(self.state, seat, action, self.now, self.rng))

    def step(self) -> None:
        self.tick()
        if self.state.status != "finished" and self.rng.random() < self.setup.club:
            self.club()
        if self.state.status == "finished":
            return
        s = self.state
        for seat in (s.to_move, rules.other(s.to_move)):
            view = self.views[seat]
            if seat == s.to_move and self.rng.random() < self.setup.ignore:
                view = {**view, "offers": {"draw": None, "adjourn": None}}  # the offer lapses
            frame = decide(view, self.knowledge[seat], self.setup.level, self.rng)
            if frame is not None:
                self.feed(rules.apply(s, seat, frame_action(frame), self.now, self.rng))
                self.actions += 1
                return
        raise AssertionError("neither player acts on its tracked view")


@settings(
    max_examples=30, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(setup=setups())
def test_the_tracked_view_is_the_engines_view_after_every_transition(setup: Setup) -> None:
    game = Game(setup)
    while game.state.status != "finished":
        assert game.actions < MAX_ACTIONS, "the game does not end"
        game.step()


def test_the_property_meets_every_kind_of_event_but_passes() -> None:
    """Such settings reach every event kind (a fixed sample of games); automatic passes
    need an endgame of their own (below)."""
    seen: set[str] = set()
    for seed in range(3):
        for variant in ("bridge", "blitz", "domains"):
            for game_ms in (None, 900_000):
                setup = Setup(variant, "easy", seed, False, 30 if variant != "blitz" else 14,
                              2, game_ms, 0.15, 0.3, 0.05, 0.02)
                game = Game(setup)
                while game.state.status != "finished" and game.actions < MAX_ACTIONS:
                    game.step()
                seen |= game.kinds
    kinds = {"placed", "mistake", "taken", "exchanged", "swapped", "timeout", "timeouts",
             "hand", "turn", "draw_offered", "draw_declined", "draw_lapsed",
             "adjourn_offered", "adjourn_lapsed", "adjourned", "resume_requested", "resumed",
             "finished"}
    assert kinds - seen == set()


# ------------------------------------------------------------------ single frames


def blue_and_red_views() -> tuple[rules.GameState, dict[Seat, dict[str, Any]]]:
    state = arrange(deal("bridge", range(0, 81, 3)), hands={"blue": [3, 5, 7]})
    return state, {seat: tracked_view(state_frame(state, seat, 0)) for seat in SEATS}


def test_a_hidden_frame_is_the_opponents_hand_and_changes_only_v() -> None:
    _, views = blue_and_red_views()
    after = apply_event(views["red"], {"type": "hidden", "game": "g-bot", "v": 1})
    assert after == {**views["red"], "v": 1}


def test_what_cannot_be_applied_asks_for_a_sync_and_a_repeat_changes_nothing() -> None:
    _, views = blue_and_red_views()
    blue = views["blue"]
    placed = {"type": "placed", "game": "g-bot", "v": 1, "seat": "blue", "cell": [0, 1],
              "digit": 3}
    assert apply_event(blue, {**placed, "v": 0}) == blue
    with pytest.raises(NeedsSync, match="missing"):
        apply_event(blue, {**placed, "v": 2})
    with pytest.raises(NeedsSync, match="g-other"):
        apply_event(blue, {**placed, "game": "g-other"})
    with pytest.raises(NeedsSync, match="does not know"):
        apply_event(blue, {**placed, "type": "fireworks"})
    with pytest.raises(NeedsSync, match="does not fit"):
        apply_event(blue, {**placed, "cell": [0, 0]})  # a clue: the view must be wrong
    with pytest.raises(NeedsSync, match="does not fit"):
        apply_event(blue, {"type": "turn", "game": "g-bot", "v": 1})
    assert apply_event(blue, {"type": "presence", "game": "g-bot", "seat": "red",
                              "online": False}) == blue


def red_holds_the_last_tiles() -> rules.GameState:
    """Row 8 is red's but three empty cells, the rest blue's; red holds the last tiles,
    so blue has nothing to play: every turn of blue's is an automatic pass. Both have
    moved (a first move lost to the clock would abort the game)."""
    owners: dict[int, Seat] = {i: "red" if i >= cell(8, 0) else "blue"
                               for i in range(81) if i not in ENDGAME_HOLES}
    state = deal("bridge", ())
    tiles = [int(state.board.solution[i]) for i in ENDGAME_HOLES]
    played = tuple(rules.RecordEntry(seat=seat, action="exchange") for seat in SEATS)
    return arrange(state, owners=owners, hands={"blue": [], "red": tiles}, to_move="red",
                   record=played, turns_played=len(played))


ENDGAME_HOLES = (cell(8, 2), cell(8, 4), cell(8, 6))


def follow(views: dict[Seat, dict[str, Any]], state: rules.GameState,
           transition: rules.Transition, now: int) -> None:
    for seat in SEATS:
        for event in transition.events:
            views[seat] = apply_event(views[seat], event_frame(state.game_id, event, seat))
        check_tracked(views[seat], rules.player_view(transition.state, seat, now))


def test_automatic_passes_and_the_end() -> None:
    state = red_holds_the_last_tiles()
    views = {seat: tracked_view(state_frame(state, seat, 0)) for seat in SEATS}
    kinds = []
    for i in ENDGAME_HOLES:
        digit = int(state.board.solution[i])
        transition = rules.apply(state, "red", rules.Place(divmod(i, 9), digit), 0,
                                 random.Random(0))
        kinds += [e.kind for e in transition.events]
        follow(views, state, transition, 0)
        state = transition.state
    assert kinds.count("passed") == 2 and kinds[-1] == "finished"


def test_a_folded_catch_up_counts_its_passes() -> None:
    state = red_holds_the_last_tiles()
    views = {seat: tracked_view(state_frame(state, seat, 0)) for seat in SEATS}
    now = 200 * 60_000
    transition = rules.advance(state, now, random.Random(0))
    [folded] = [e for e in transition.events if e.kind == "timeouts"]
    assert folded.body.passes > 0
    follow(views, state, transition, now)


def test_half_a_turn_is_not_settled_and_the_input_is_left_alone() -> None:
    state, views = blue_and_red_views()
    blue = views["blue"]
    kept = json.dumps(blue)
    digit = int(state.board.solution[cell(0, 1)])
    transition = rules.apply(state, "blue", rules.Place((0, 1), digit), 0, random.Random(0))
    frames = [event_frame(state.game_id, e, "blue") for e in transition.events]
    assert [f["type"] for f in frames][-1] == "turn"
    view = blue
    for frame in frames[:-1]:
        view = apply_event(view, frame)
        assert not settled(view) and "bag" not in view and "turn" not in view
    view = apply_event(view, frames[-1])
    assert settled(view)
    check_tracked(view, rules.player_view(transition.state, "blue", 0))
    assert json.dumps(blue) == kept
