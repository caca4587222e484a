"""``legal``: the query beside the command — it refuses exactly what ``apply`` refuses."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from numbridge.rules import (
    Exchange,
    NotYourTurn,
    OfferDraw,
    Place,
    Resign,
    RulesError,
    Swap,
    Take,
    apply,
    legal,
)
from numbridge.rules.seats import SEATS
from rules_helpers import deal, empty_cell_for, wrong_cell_for


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


actions = st.one_of(
    st.builds(Place, st.tuples(st.integers(-1, 9), st.integers(-1, 9)), st.integers(0, 10)),
    st.builds(Take, st.tuples(st.integers(-1, 9), st.integers(-1, 9)),
              st.none() | st.integers(0, 10)),
    st.sampled_from([Exchange(), Swap(), Resign(), OfferDraw()]),
)


@settings(max_examples=200, deadline=None)
@given(seat=st.sampled_from(SEATS), action=actions, seed=st.integers(0, 1000),
       now=st.integers(0, 200_000))
def test_legal_answers_as_apply_decides(seat: str, action: object, seed: int, now: int) -> None:
    s = deal()
    refusal = legal(s, seat, action, now)  # type: ignore[arg-type]
    try:
        apply(s, seat, action, now, random.Random(seed))  # type: ignore[arg-type]
    except RulesError as err:
        assert type(refusal) is type(err) and str(refusal) == str(err)
    else:
        assert refusal is None
