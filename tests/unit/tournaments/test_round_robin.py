"""Round robin by FIDE's Berger tables: the published tables board for board, and for
any field everyone meets everyone once with colours alternating."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numbridge.tournaments.round_robin import BadRound, berger_round, rounds_needed

# FIDE Handbook C.05, Annex 1 (Berger tables), white (our blue) first on each board.
FIDE_4 = ["1-4 2-3", "4-3 1-2", "2-4 3-1"]
FIDE_6 = ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"]
FIDE_8 = ["1-8 2-7 3-6 4-5", "8-5 6-4 7-3 1-2", "2-8 3-1 4-7 5-6", "8-6 7-5 1-4 2-3",
          "3-8 4-2 5-1 6-7", "8-7 1-6 2-5 3-4", "4-8 5-3 6-2 7-1"]


def table(n: int) -> list[str]:
    players = [str(i) for i in range(1, n + 1)]
    return [" ".join(f"{b}-{r}" for b, r in berger_round(players, k).pairs)
            for k in range(1, rounds_needed(n) + 1)]


@pytest.mark.parametrize(("n", "published"), [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8)])
def test_the_published_berger_tables(n: int, published: list[str]) -> None:
    """Catches any board, order or colour that differs from FIDE's printed table."""
    assert table(n) == published


def test_an_odd_field_plays_the_next_even_table_with_a_bye() -> None:
    """Catches an odd field not following FIDE's rule: the table for n+1, whoever meets
    the last number sitting out (five players: 6's opponent has the bye)."""
    byes = [berger_round(list("12345"), k).bye for k in range(1, 6)]
    assert byes == ["1", "4", "2", "5", "3"]
    assert [" ".join(f"{b}-{r}" for b, r in berger_round(list("12345"), k).pairs)
            for k in range(1, 6)] == [" ".join(x for x in row.split()[1:])
                                      for row in FIDE_6]


@given(st.integers(min_value=2, max_value=30))
def test_everyone_meets_everyone_once_colours_alternating(n: int) -> None:
    """Catches a pair met twice or never, a player twice in a round, a round with more
    than one bye (or one in an even field), a colour difference beyond ±1 at the end,
    or three games of a colour running."""
    players = [f"p{i}" for i in range(n)]
    met: list[frozenset[str]] = []
    seats: dict[str, list[str]] = {p: [] for p in players}
    byes: list[str] = []
    for k in range(1, rounds_needed(n) + 1):
        r = berger_round(players, k)
        assert sorted(r.players()) == sorted(players)
        assert (r.bye is not None) == (n % 2 == 1)
        if r.bye:
            byes.append(r.bye)
        for blue, red in r.pairs:
            met.append(frozenset((blue, red)))
            seats[blue].append("blue")
            seats[red].append("red")
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(players, 2)), key=sorted)
    assert sorted(byes) == (sorted(players) if n % 2 else [])
    for s in seats.values():
        assert abs(s.count("blue") - s.count("red")) <= 1
        assert not any(s[i] == s[i + 1] == s[i + 2] for i in range(len(s) - 2))


def test_rounds_needed_and_bad_rounds() -> None:
    """Catches a wrong round count or a round past the end answered anyway."""
    assert [rounds_needed(n) for n in range(6)] == [0, 0, 1, 3, 3, 5]
    with pytest.raises(BadRound):
        berger_round(list("1234"), 4)
    with pytest.raises(BadRound):
        berger_round(list("1234"), 0)
    with pytest.raises(BadRound):
        berger_round(list("1231"), 1)
