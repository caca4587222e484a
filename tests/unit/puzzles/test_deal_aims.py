"""Which asks the dealer aims at (``numbridge.puzzles.aims``): the service stocks exactly
those (store.board_stock), so the predicate must say what the dealer does."""

from __future__ import annotations

import itertools

import pytest
from numbridge.puzzles import aims
from numbridge.puzzles.deal import _propagator
from numbridge.rules.geometry import Layout
from numbridge.rules.options import grades_between
from numbridge.rules.seats import GRADES


@pytest.mark.parametrize("size", [9, 6])
def test_aims_is_true_exactly_where_the_dealer_aims(size: int) -> None:
    """Catches the predicate and the dealer drifting apart (a rung added to the aim, or
    its threshold moved): a stocked ask the dealer deals fast wastes items, an aimed ask
    not stocked keeps its slow tail on the request."""
    layout = Layout.regular(size)
    for low, high in itertools.combinations_with_replacement(GRADES, 2):
        grades = grades_between((low, high))
        assert aims(grades) == (_propagator(layout, grades) is not None), grades
    assert not aims(None)
    assert aims(["beyond"]) and aims(["pairs"]) and aims(["locked_candidates", "beyond"])
    assert not aims(["hidden_single", "beyond"]) and not aims(["naked_single"])
