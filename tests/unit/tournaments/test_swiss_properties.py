"""Whole Swiss tournaments with random results, every round judged by the independent
checker (checker.py), and the scores they add up to."""

from __future__ import annotations

import itertools

import pytest
from checker import _Field, check_swiss_round
from hypothesis import given, settings
from hypothesis import strategies as st
from numbridge.tournaments import swiss
from numbridge.tournaments.standings import swiss_standings
from tournament_sim import tournament


@st.composite
def sizes(draw: st.DrawFn) -> tuple[int, int, int]:
    n = draw(st.integers(min_value=3, max_value=40))
    rounds = draw(st.integers(min_value=1, max_value=min(n - 1, 9)))
    return n, rounds, draw(st.integers(min_value=0, max_value=2**32))


@settings(max_examples=60)
@given(sizes())
def test_every_round_obeys_the_rules(size: tuple[int, int, int]) -> None:
    """Catches any round that rematches, gives a second bye while another had none, gives
    the bye above someone who could have had it, breaks an avoidable colour rule, or
    floats more players (or further) than the score groups required."""
    n, rounds, seed = size
    played, _, refused = tournament(n, rounds, seed)
    for r in played:
        assert check_swiss_round(r.before, r.round, r.round_no) == [], (n, r.round_no)
    if refused is not None:  # NoPairing only when nobody can be paired without a rematch
        f = _Field(refused)
        fewest = min(e.byes for e in refused)
        byes = [e.name for e in refused if e.byes == fewest] if n % 2 else [None]
        assert not any(f.pairable([x for x in f.rank if x != b], colours=False)
                       for b in byes), (n, len(played) + 1)


@settings(max_examples=60)
@given(sizes())
def test_the_dutch_procedure_obeys_the_rules_on_any_field(size: tuple[int, int, int]) -> None:
    """The bracket-by-bracket path large fields take, forced on small ones (where the
    exact matching would otherwise decide): catches its brackets, floaters, exact
    re-pairings and swaps breaking any rule the checker judges pair for pair."""
    n, rounds, seed = size
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(swiss, "EXACT_UP_TO", 0)
        played, _, refused = tournament(n, rounds, seed)
    for r in played:
        assert check_swiss_round(r.before, r.round, r.round_no, exhaustive=False) == [], (
            n, r.round_no)
    if refused is not None:
        f = _Field(refused)
        fewest = min(e.byes for e in refused)
        byes = [e.name for e in refused if e.byes == fewest] if n % 2 else [None]
        assert not any(f.pairable([x for x in f.rank if x != b], colours=False)
                       for b in byes)


@settings(max_examples=40)
@given(st.integers(min_value=4, max_value=12), st.integers(min_value=0, max_value=2**32))
def test_small_fields_play_until_every_pair_has_met(n: int, seed: int) -> None:
    """Catches a NoPairing raised while a pairing without a rematch still existed, on
    fields small enough to run out of opponents (the checker judges each round and the
    refusal against its own matching test)."""
    played, _, refused = tournament(n, n - 1, seed)
    for r in played:
        assert check_swiss_round(r.before, r.round, r.round_no) == []
    if refused is not None:
        f = _Field(refused)
        others = [[x for x in f.rank if x != b] for b in (f.rank if n % 2 else [None])]
        assert not any(f.pairable(rest, colours=False) for rest in others)


def test_a_swiss_of_33_over_5_rounds() -> None:
    """The issue's target: 33 players, 5 rounds, every round judged by the checker, for
    several seeds; a bye each round, to five different players."""
    for seed in range(5):
        played, _, refused = tournament(33, 5, seed)
        assert refused is None and len(played) == 5
        for r in played:
            assert check_swiss_round(r.before, r.round, r.round_no) == []
        assert len({r.round.bye for r in played}) == 5


@settings(max_examples=40)
@given(sizes())
def test_the_standings_add_up(size: tuple[int, int, int]) -> None:
    """Catches standings that lose or invent points (the half-points of all players are
    twice the games plus twice the byes) or rank equal keys apart."""
    n, rounds, seed = size
    played, entrants, _ = tournament(n, rounds, seed)
    table = swiss_standings(list(entrants.values()))
    games = sum(len(r.round.pairs) for r in played)
    byes = sum(r.round.bye is not None for r in played)
    assert sum(s.score2 for s in table) == 2 * games + 2 * byes
    assert sorted(s.player for s in table) == sorted(entrants)
    for above, below in itertools.pairwise(table):
        same = (above.score2, above.tiebreaks) == (below.score2, below.tiebreaks)
        assert (below.rank == above.rank) == same
        assert (above.score2, above.tiebreaks) >= (below.score2, below.tiebreaks)
    assert table[0].rank == 1
