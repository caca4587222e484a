"""Property: over random games played with the real rules engine, every action the bot
returns is accepted by ``rules.apply``, and the bot always has one when it must act.

Boards are really dealt; options, levels and timings vary; now and then a player
offers a draw or an adjournment, and the clock sometimes runs past a deadline
(the engine's timeouts apply first, as the service's timer would).
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numbridge import rules
from numbridge.bot import Knowledge, Level, decide, observe
from numbridge.bot.selfplay import event_frame, frame_action, play
from numbridge.protocol import render
from numbridge.puzzles import deal_board
from numbridge.rules.seats import SEATS, Seat

VIEW_KEYS = {
    "game", "v", "room", "variant", "size", "blocks", "digits", "owners", "clues", "you",
    "players", "hand", "bag", "turn", "now_ms", "deadline_ms", "status", "result", "offers",
    "options", "last_mistake", "resume_requested", "moves", "moves_left_in_pair",
    "block_table", "block_owners", "swap_available", "swap_open", "abortable", "grade",
}
MAX_ACTIONS = 1_500


@dataclass(frozen=True)
class Setup:
    variant: str
    blue: Level
    red: Level
    seed: int
    irregular: bool
    clues: int
    take_price: int
    game_ms: int | None
    club_noise: float  # how often a player offers a draw or an adjournment
    late: float  # how often the clock runs past a deadline


def setups() -> st.SearchStrategy[Setup]:
    levels = st.sampled_from(["easy", "normal", "strong"])

    def for_variant(variant: str) -> st.SearchStrategy[Setup]:
        size = 6 if variant == "blitz" else 9
        return st.builds(
            Setup,
            variant=st.just(variant),
            blue=levels,
            red=levels,
            seed=st.integers(0, 2**32 - 1),
            irregular=st.booleans(),
            clues=st.integers(22, 40) if size == 9 else st.integers(10, 20),
            take_price=st.sampled_from([1, 2, 3]),
            game_ms=st.sampled_from([None, 120_000, 900_000]),
            club_noise=st.sampled_from([0.0, 0.05]),
            late=st.sampled_from([0.0, 0.03]),
        )

    return st.sampled_from(["bridge", "blitz", "domains"]).flatmap(for_variant)


def new_game(setup: Setup, rng: random.Random) -> rules.GameState:
    size = 6 if setup.variant == "blitz" else 9
    kind = "irregular" if setup.irregular else "regular"
    board = deal_board(size, kind, setup.clues, rng)  # type: ignore[arg-type]
    options = rules.GameOptions(
        room="study" if setup.game_ms is None else setup.variant,
        variant=setup.variant, size=size, blocks=kind,  # type: ignore[arg-type]
        clues=setup.clues, take_price=setup.take_price, move_ms=30_000,
        game_ms=setup.game_ms, highlighting=True, rated=False,
    )
    return rules.new_game(
        "g-prop", options, rules.Board(board.layout, board.givens, board.solution),
        {"blue": "bot-a", "red": "bot-b"}, rng, 1_000,
    )


def check_input(view: Any, state: rules.GameState) -> None:
    """What the brain is handed is a plain view dict of the view's keys: never the state,
    nothing of the solution. (That it is the right seat's view of the right moment is
    test_selfplay_hands_each_player_its_own_view_and_its_own_frames's business: the
    loop below builds it.)"""
    assert type(view) is dict
    assert set(view) <= VIEW_KEYS
    text = json.dumps(view)
    assert "solution" not in text
    if "." in state.digits:
        assert state.board.solution not in text


class Game:
    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rng = random.Random(setup.seed)
        self.state = new_game(setup, self.rng)
        self.now = 1_000
        self.levels: dict[Seat, Level] = {"blue": setup.blue, "red": setup.red}
        self.minds = {seat: random.Random(self.rng.getrandbits(32)) for seat in SEATS}
        self.knowledge = {seat: Knowledge() for seat in SEATS}
        self.actions = 0

    def feed(self, transition: rules.Transition) -> None:
        for event in transition.events:
            for seat in SEATS:
                frame = event_frame(self.state.game_id, event, seat)
                self.knowledge[seat] = observe(self.knowledge[seat], frame)
        self.state = transition.state

    def tick(self) -> None:
        step = self.rng.randint(0, 10_000)
        deadline = rules.next_deadline(self.state)
        if deadline is not None and self.rng.random() < self.setup.late:
            step = deadline - self.now + self.rng.randint(0, 40_000)
        self.now += max(0, step)
        self.feed(rules.advance(self.state, self.now, self.rng))  # the service's timer

    def noise(self) -> None:
        """A player presses a club button (what the bot never does itself)."""
        seat: Seat = self.rng.choice(SEATS)
        action = self.rng.choice([rules.OfferDraw(), rules.OfferAdjourn()])
        with contextlib.suppress(rules.RulesError):  # e.g. an offer already made
            self.feed(rules.apply(self.state, seat, action, self.now, self.rng))

    def step(self) -> None:
        self.tick()
        if self.state.status == "finished":
            return
        if self.rng.random() < self.setup.club_noise:
            self.noise()
            if self.state.status == "finished":  # an offer met the other's: a draw
                return
        s = self.state
        for seat in (s.to_move, rules.other(s.to_move)):
            view = rules.player_view(s, seat, self.now)
            check_input(view, s)
            frame = decide(view, self.knowledge[seat], self.levels[seat], self.minds[seat])
            must_act = (
                s.status == "adjourned" and not s.side(seat).resume
            ) or s.draw_offer == rules.other(seat) or (
                s.status == "playing" and s.to_move == seat
            )
            if frame is None:
                assert not must_act, f"{seat} has nothing to send but must act"
                continue
            assert "id" not in frame and frame["game"] == s.game_id
            # the engine must accept it: apply raises on anything illegal
            self.feed(rules.apply(s, seat, frame_action(frame), self.now, self.rng))
            self.actions += 1
            return
        raise AssertionError("neither player acts")


@settings(
    max_examples=24, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(setup=setups())
def test_every_action_the_bot_returns_is_legal(setup: Setup) -> None:
    game = Game(setup)
    while game.state.status != "finished":
        assert game.actions < MAX_ACTIONS, "the game does not end"
        game.step()
    outcome = game.state.result
    assert outcome is not None
    if outcome.by == "goal":
        assert outcome.winner in SEATS


# --- what a runtime hands the brain ---------------------------------------------------


def frame_for(game: str, event: rules.Event, seat: Seat) -> dict[str, Any]:
    """The frame the server pushes to ``seat`` for an event (numbridge.protocol.render)."""
    if event.to is not None and event.to != seat:
        return render.hidden_frame(game, event.v)
    return render.event_frame(game, event)


class Spy:
    """A bot player for ``selfplay.play`` that notes what it is handed. Now and then,
    on its move, it offers to adjourn and then waits, so that the other seat is asked
    too (to accept, and later to resume)."""

    def __init__(self, seat: Seat, calls: list[tuple[Seat, Any, Knowledge]],
                 rng: random.Random) -> None:
        self.seat, self.calls, self.rng = seat, calls, rng
        self.waiting = False

    def __call__(self, view: Any, knowledge: Knowledge) -> dict[str, Any] | None:
        self.calls.append((self.seat, copy.deepcopy(view), knowledge))
        if view["turn"] == self.seat and view["status"] == "playing":
            if self.waiting:
                self.waiting = False
                return None
            if view["offers"]["adjourn"] is None and self.rng.random() < 0.1:
                self.waiting = True
                return {"action": "offer_adjourn", "game": view["game"]}
        return decide(view, knowledge, "easy", self.rng)


@pytest.mark.parametrize(("variant", "seed"), [("blitz", 1), ("bridge", 2), ("domains", 3)])
def test_selfplay_hands_each_player_its_own_view_and_its_own_frames(
        variant: str, seed: int) -> None:
    """Catches: selfplay asking the wrong seat, or handing a player the other seat's view
    or frames (a bot that sees its opponent's hand)."""
    setup = Setup(variant, "easy", "easy", seed, False, 12 if variant == "blitz" else 30, 1,
                  None, 0.0, 0.0)
    start = new_game(setup, random.Random(seed))
    calls: list[tuple[Seat, Any, Knowledge]] = []
    players = {seat: Spy(seat, calls, random.Random(f"{seed}{seat}")) for seat in SEATS}
    game = play(start, players, random.Random(seed), now_ms=5_000, step_ms=700)
    assert game.state.status == "finished"
    # The same game again, from its actions: who should have been asked, with what.
    state, rng, now = start, random.Random(seed), 5_000
    known = {seat: Knowledge() for seat in SEATS}
    asked = iter(calls)
    for seat, frame in game.actions:
        mover = state.to_move
        for expected in [mover] if seat == mover else [mover, seat]:
            handed, view, knowledge = next(asked)
            assert handed == expected
            check_input(view, state)
            assert view == rules.player_view(state, expected, now), (expected, now)
            assert knowledge == known[expected]
        transition = rules.apply(state, seat, frame_action(frame), now, rng)
        for event in transition.events:
            for s in SEATS:
                known[s] = observe(known[s], frame_for(state.game_id, event, s))
        state, now = transition.state, now + 700
    assert next(asked, None) is None
    # The seat not to move was asked too (an offer to accept): a view handed to the
    # wrong seat would show there.
    assert any(handed != view["turn"] for handed, view, _ in calls if view["turn"])
