"""Standings: scores in half-points, Buchholz cut-1 and Sonneborn-Berger worked by hand,
shared ranks, the arena's order by score then performance."""

from __future__ import annotations

import pytest
from numbridge.tournaments.arena import ArenaPlayer
from numbridge.tournaments.results import Played
from numbridge.tournaments.standings import (
    Standing,
    UnknownOpponent,
    arena_standings,
    buchholz_cut1,
    sonneborn_berger,
    swiss_standings,
)
from numbridge.tournaments.swiss import Entrant

# Three players, three rounds, one bye each: a beats b (c bye); c draws a (b bye);
# b beats c (a bye). Half-points: a 2+1+2 = 5, b 0+2+2 = 4, c 2+1+0 = 3.
THREE = [
    Entrant("a", 1500, (Played("b", "blue", "win"), Played("c", "red", "draw")), byes=1),
    Entrant("b", 1500, (Played("a", "red", "loss"), Played("c", "blue", "win")), byes=1),
    Entrant("c", 1500, (Played("a", "blue", "draw"), Played("b", "red", "loss")), byes=1),
]


def test_tiebreaks_by_hand() -> None:
    """Buchholz: the opponents' scores and the player's own for the bye, less the lowest
    (a: 4 + 3 + 5 - 3 = 9); Sonneborn-Berger in quarter-points (a: 2 x 4 + 1 x 3 = 11).
    Catches a bye left out of Buchholz, the cut taken from the wrong end, or SB in the
    wrong unit."""
    by_name = {e.name: e for e in THREE}
    assert [buchholz_cut1(n, by_name) for n in "abc"] == [9, 9, 9]
    assert [sonneborn_berger(n, by_name) for n in "abc"] == [11, 6, 5]
    assert swiss_standings(THREE) == [
        Standing(1, "a", 5, 2, (9, 11)), Standing(2, "b", 4, 2, (9, 6)),
        Standing(3, "c", 3, 2, (9, 5))]


def test_equal_keys_share_a_rank() -> None:
    """Catches two players equal on score and both tie-breaks given different ranks, and
    the next rank not skipping (1, 1, 3)."""
    field = [Entrant("a", 1500, (Played("b", "blue", "draw"),)),
             Entrant("b", 1400, (Played("a", "red", "draw"),)),
             Entrant("c", 1300, (Played("d", "blue", "loss"),)),
             Entrant("d", 1200, (Played("c", "red", "win"),))]
    table = swiss_standings(field)
    assert [(s.rank, s.player) for s in table] == [(1, "d"), (2, "a"), (2, "b"), (4, "c")]


def test_tiebreak_orders_equal_scores() -> None:
    """Catches a tie on score settled by name or rating instead of Buchholz, then
    Sonneborn-Berger."""
    field = [Entrant("a", 1500, (Played("c", "blue", "win"),)),
             Entrant("b", 1500, (Played("d", "blue", "win"),)),
             Entrant("c", 1500, (Played("a", "red", "loss"), Played("d", "blue", "win"))),
             Entrant("d", 1500, (Played("b", "red", "loss"), Played("c", "red", "loss")))]
    # all three on 2 half-points: Buchholz c 2+0-0 = 2, a 0, b 0; SB a 2x2 = 4, b 0
    table = swiss_standings(field)
    assert [(s.player, s.tiebreaks) for s in table] == [
        ("c", (2, 0)), ("a", (0, 4)), ("b", (0, 0)), ("d", (2, 0))]
    assert [s.rank for s in table] == [1, 2, 3, 4]


def test_unknown_opponent() -> None:
    """Catches a standing computed with a missing opponent silently counted as zero."""
    with pytest.raises(UnknownOpponent):
        swiss_standings([Entrant("a", 1500, (Played("ghost", "blue", "win"),))])


def test_arena_standings() -> None:
    """Score (doubled, streaks in), then performance: catches the streak ignored in the
    standings or a tie on points not settled by performance."""
    players = [
        ArenaPlayer("a", 1500, (Played("b", "blue", "win"), Played("c", "red", "win"),
                                Played("b", "blue", "win"))),  # 2 + 2 + 4 = 8
        ArenaPlayer("b", 1700, (Played("a", "red", "loss"), Played("a", "red", "loss"),
                                Played("c", "blue", "win"))),  # 2
        ArenaPlayer("c", 1500, (Played("a", "blue", "loss"), Played("b", "red", "loss"),
                                Played("d", "blue", "win"))),  # 2
        ArenaPlayer("d", 1500, (Played("c", "red", "loss"),)),
    ]
    table = arena_standings(players)
    assert [(s.rank, s.player, s.score2) for s in table] == [
        (1, "a", 16), (2, "c", 4), (3, "b", 4), (4, "d", 0)]
    # c: (1500-500 + 1700-500 + 1500+500) / 3 = 1400; b: (1000 + 1000 + 2000) / 3 = 1333
    assert table[1].tiebreaks == (1400,) and table[2].tiebreaks == (1333,)
