"""``legal``: the query beside the command — it refuses exactly what the rules refuse.

``legal`` is ``apply`` on a copy, so comparing the two would compare ``apply``
with itself: it is judged against the property tests' oracle instead
(``rules_play.expected_error``, written from RULES.md alone), on states that
random play reaches.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numbridge.rules import (
    Abort,
    AcceptAdjourn,
    AcceptDraw,
    DeclineDraw,
    Exchange,
    NotYourTurn,
    OfferAdjourn,
    OfferDraw,
    Place,
    Resign,
    Resume,
    RulesError,
    Swap,
    Take,
    advance,
    apply,
    legal,
    next_deadline,
    other,
)
from numbridge.rules.seats import SEATS, Seat
from rules_helpers import deal, empty_cell_for, wrong_cell_for
from rules_play import Player, Setup, check_due, due_model, expected_error


def test_a_legal_move_is_legal_and_the_state_is_untouched() -> None:
    s = deal()
    digit = s.blue.hand[0]
    before = s.to_dict()
    assert legal(s, "blue", Place(empty_cell_for(s, digit), digit), 0) is None
    assert legal(s, "blue", Place(wrong_cell_for(s, digit), digit), 0) is None  # a mistake
    assert s.to_dict() == before


def test_the_refusal_is_the_one_apply_raises() -> None:
    s = deal()
    refusal = legal(s, "red", Exchange(), 0)
    assert isinstance(refusal, NotYourTurn) and "it is blue's turn" in str(refusal)


SIMPLE = [Exchange(), Swap(), Resign(), OfferDraw(), AcceptDraw(), DeclineDraw(),
          OfferAdjourn(), AcceptAdjourn(), Resume(), Abort()]


def play(setup: Setup, steps: int) -> Player:
    """A game after ``steps`` random actions (the property tests' player chooses them;
    what ``apply`` does with them is not judged here: only ``legal`` is, below)."""
    player = Player(setup)
    p = player.pick
    for _ in range(steps):
        s = player.state
        if s.status == "finished":
            break
        deadline = next_deadline(s)
        now = player.now + p.randint(0, s.options.move_ms // 3)
        if deadline is not None and p.random() < 0.05:
            now = deadline + p.randint(0, s.options.move_ms)  # the timer's turn
        due = advance(s, now, player.engine_rng)
        player.observe(due)
        player.state, player.now = due.state, max(player.now, now)
        s = player.state
        roll = p.random()
        if s.status == "finished":
            break
        if s.status != "playing" or roll < 0.15:
            seat, action = player.club_action()
        elif roll < 0.25:
            seat, action = player.junk(s.to_move)
        else:
            seat, action = s.to_move, player.turn_action(s.to_move)
        try:
            t = apply(s, seat, action, now, player.engine_rng)
        except RulesError:
            continue
        player.observe(t)
        player.state = t.state
    return player


# What is pending when the question is asked: offers lapse at the next move, and the
# pie rule is open for one turn only, so random play seldom ends on one of them.
PENDING: dict[str, list[Any]] = {
    "draw offered": [OfferDraw()],
    "adjourn offered": [OfferAdjourn()],
    "adjourned": [OfferAdjourn(), AcceptAdjourn()],
    "resume asked": [OfferAdjourn(), AcceptAdjourn(), Resume()],
    "blue's first cell": [],  # a correct place by blue on the first turn
}


def leave_pending(player: Player, pending: str | None) -> None:
    s = player.state
    seat: Seat = player.pick.choice(SEATS)
    actions = PENDING.get(pending or "", [])
    if pending == "blue's first cell" and s.turns_played == 0 and s.blue.hand:
        seat, digit = "blue", s.blue.hand[0]
        actions = [Place(empty_cell_for(s, digit), digit)]
    for action in actions:
        try:
            t = apply(player.state, seat, action, player.now, player.engine_rng)
        except RulesError:
            return
        player.observe(t)
        player.state = t.state
        if isinstance(action, OfferAdjourn):
            seat = other(seat)  # the other accepts


def queries(player: Player, rng: random.Random) -> list[tuple[Any, Any]]:
    """Actions to ask about: what a player would send now, each seat's, and junk."""
    s, n = player.state, player.state.size
    asked: list[tuple[Any, Any]] = [(seat, action) for seat in SEATS for action in SIMPLE]
    asked += [("green", Resign()), ("blue", Place((0, 0), True)), ("red", Take((0,), None))]
    if s.status != "finished":
        for seat in SEATS:  # the mover's sensible actions, and the same from the other seat
            asked.append((seat, player.turn_action(s.to_move)))
        asked.append(player.junk(s.to_move))
    for seat in SEATS:
        hand = s.hand(seat)
        asked += [
            (seat, Place((rng.randint(-1, n), rng.randint(-1, n)), rng.randint(0, n + 1))),
            (seat, Take((rng.randint(-1, n), rng.randint(-1, n)),
                        rng.choice([None, *hand, rng.randint(0, n + 1)]))),
        ]
        for i, given_digit in enumerate(s.board.givens):
            if given_digit != "." and rng.random() < 0.2:  # a clue, free or taken
                asked.append((seat, Take(divmod(i, n), rng.choice([None, *hand]))))
                asked.append((seat, Place(divmod(i, n), rng.choice([1, *hand]))))
    return asked


def setups() -> st.SearchStrategy[Setup]:
    return st.builds(
        Setup,
        variant=st.sampled_from(["bridge", "blitz", "domains"]),
        seed=st.integers(0, 2**32 - 1),
        irregular=st.just(False),
        # Few empty cells as well as many: an empty bag, thin hands, the price of a take.
        clue_share=st.sampled_from([0.3, 0.5, 0.85, 0.93]),
        take_price=st.sampled_from([1, 2]),
        game_ms=st.sampled_from([None, 120_000]),
        move_ms=st.just(30_000),
        to_the_end=st.booleans(),
    )


# Each (refusal the rules call for, action) the run must reach: a judge that never
# meets a kind of refusal says nothing about it.
MUST_MEET = {
    *((kind, name) for kind in ("None", "IllegalAction", "NotYourTurn")
      for name in ("place", "take", "exchange", "swap")),
    *((kind, name) for kind in ("None", "IllegalAction")
      for name in ("offer_draw", "accept_draw", "decline_draw", "offer_adjourn",
                   "accept_adjourn", "resume", "abort")),
    ("None", "resign"), ("GameOver", "place"), ("GameOver", "resign"),
    ("MalformedAction", "place"),
}


def test_legal_refuses_exactly_what_the_rules_refuse() -> None:
    """Catches: legal() offering an action that apply() refuses, or refusing one apply()
    takes (the bot and the client would offer moves the server rejects, or hide moves it
    allows)."""
    met: Counter[tuple[str, str]] = Counter()

    # Derandomized: the run is the same every time, so the coverage below cannot flake.
    @settings(max_examples=200, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(setup=setups(), steps=st.integers(0, 3) | st.integers(4, 40),
           pending=st.sampled_from([None, *PENDING]), wait=st.sampled_from([0, 0, 0, 1, 3]),
           seed=st.integers(0, 2**32 - 1))
    def check(setup: Setup, steps: int, pending: str | None, wait: int, seed: int) -> None:
        player = play(setup, steps)
        leave_pending(player, pending)
        s, rng = player.state, random.Random(seed)
        # Now or later: deadlines passed by then apply first (legal is apply's query).
        now = player.now + wait * s.options.move_ms // 2
        seen = s
        model = due_model(s, now)
        if (model.turns_played, model.status, model.turn_started) != (
                s.turns_played, s.status, s.turn_started_ms):
            # Which tiles a refill draws is chance, the rest is the model's (checked);
            # legality never depends on those tiles.
            caught = advance(s, now, random.Random(seed))
            check_due(s, caught.state, now)
            player = copy.copy(player)
            player.observe(caught)
            seen = caught.state
        before = s.to_dict()
        for seat, action in queries(player, rng):
            want = expected_error(seen, seat, action, player.swap_open(seen))
            refusal = legal(s, seat, action, now)
            got = type(refusal) if refusal is not None else None
            assert got is want, (seat, action, refusal, want)
            assert refusal is None or str(refusal)
            name = getattr(action, "name", "?")
            met[(want.__name__ if want else "None", name)] += 1
        assert s.to_dict() == before  # a query: nothing changed

    check()
    assert not MUST_MEET - set(met), sorted(MUST_MEET - set(met))
