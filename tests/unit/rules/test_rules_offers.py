"""Golden tests: resign, draw offers (and their lapsing), adjourn-offer lapsing."""

from __future__ import annotations

import random

import pytest
from numbridge.rules import (
    AcceptAdjourn,
    AcceptDraw,
    DeclineDraw,
    GameOver,
    IllegalAction,
    OfferAdjourn,
    OfferDraw,
    Place,
    Resign,
    advance,
    apply,
    archive_record,
    player_view,
)
from numbridge.rules.events import DrawDeclined, DrawLapsed
from rules_helpers import deal, play_correct, play_mistake, wrong_cell_for


def rng() -> random.Random:
    return random.Random(13)


def test_resign() -> None:
    s = deal()
    t = apply(s, "red", Resign(), 5_000, rng())  # not red's turn: resigning is always open
    assert [e.kind for e in t.events] == ["finished"]
    assert t.state.result.to_dict() == {"winner": "blue", "by": "resign"}
    assert t.state.blue.clock_ms == 900_000 - 5_000  # the mover's time is charged
    assert archive_record(t.state)["moves"][-1]["action"] == "resign"
    with pytest.raises(GameOver):
        apply(t.state, "blue", Resign(), 5_001, rng())


def test_draw_by_agreement() -> None:
    s = deal()
    t = apply(s, "red", OfferDraw(), 0, rng())
    assert [e.kind for e in t.events] == ["draw_offered"]
    assert player_view(t.state, "blue", 0)["offers"] == {"draw": "red", "adjourn": None}
    t = apply(t.state, "blue", AcceptDraw(), 1, rng())
    assert [e.kind for e in t.events] == ["finished"]
    assert t.state.result.to_dict() == {"winner": None, "by": "agreement"}


def test_draw_offer_errors() -> None:
    s = deal()
    with pytest.raises(IllegalAction, match=r"^accept_draw: red has not offered a draw$"):
        apply(s, "blue", AcceptDraw(), 0, rng())
    s = apply(s, "blue", OfferDraw(), 0, rng()).state
    with pytest.raises(IllegalAction, match="already offered"):
        apply(s, "blue", OfferDraw(), 0, rng())
    with pytest.raises(IllegalAction):
        apply(s, "blue", AcceptDraw(), 0, rng())  # your own offer
    with pytest.raises(IllegalAction):
        apply(s, "blue", DeclineDraw(), 0, rng())


def test_crossing_draw_offers_agree() -> None:
    s = apply(deal(), "blue", OfferDraw(), 0, rng()).state
    assert apply(s, "red", OfferDraw(), 0, rng()).state.result.to_dict() == {
        "winner": None,
        "by": "agreement",
    }


def test_draw_decline() -> None:
    s = apply(deal(), "blue", OfferDraw(), 0, rng()).state
    t = apply(s, "red", DeclineDraw(), 0, rng())
    assert [e.kind for e in t.events] == ["draw_declined"]
    assert t.events[0].body == DrawDeclined("red")
    assert t.state.draw_offer is None and t.state.status == "playing"


def test_draw_offer_lapses_when_its_receiver_moves() -> None:
    s = apply(deal(), "blue", OfferDraw(), 0, rng()).state
    s = play_correct(s, "blue")  # the offerer's own move: the offer stands
    assert s.draw_offer == "blue"
    t_state = play_mistake(s, "red")  # the receiver moves (a mistake is a move too)
    assert t_state.draw_offer is None
    digit = s.red.hand[0]

    t = apply(s, "red", Place(wrong_cell_for(s, digit), digit), 0, rng())
    assert [e.kind for e in t.events] == ["mistake", "draw_lapsed", "hand", "turn"]
    assert t.events[1].body == DrawLapsed("blue")
    with pytest.raises(IllegalAction):
        apply(t.state, "blue", AcceptDraw(), 0, rng())


def test_offer_made_during_receivers_turn_lapses_with_that_move() -> None:
    s = apply(deal(), "red", OfferDraw(), 0, rng()).state
    s = apply(s, "red", OfferAdjourn(), 0, rng()).state
    s = play_correct(s, "blue")
    assert s.draw_offer is None and s.adjourn_offer is None


def test_a_timeout_does_not_lapse_an_offer() -> None:
    s = play_correct(play_correct(deal(), "blue"), "red")
    s = apply(s, "blue", OfferDraw(), 0, rng()).state
    s = play_correct(s, "blue", now=1)
    s = advance(s, 1 + 45_000, rng()).state  # red times out: red made no move
    assert s.draw_offer == "blue" and s.turn == "blue"
    assert apply(s, "red", AcceptDraw(), 45_002, rng()).state.result.to_dict() == {
        "winner": None,
        "by": "agreement",
    }


def test_draws_can_be_agreed_while_adjourned() -> None:
    s = apply(deal(), "blue", OfferAdjourn(), 0, rng()).state
    s = apply(s, "red", AcceptAdjourn(), 0, rng()).state
    s = apply(s, "red", OfferDraw(), 0, rng()).state
    assert apply(s, "blue", AcceptDraw(), 0, rng()).state.result.to_dict() == {
        "winner": None,
        "by": "agreement",
    }
