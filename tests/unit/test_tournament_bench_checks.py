"""The tournament benches' own verdicts (bench/arena_bench.py, bench/swiss_bench.py,
bench/tournament_players.py): the scoring and tie-breaks they recompute apart from the
server's code, the re-pairing latency and the overlaps they read from the players' logs.
A wrong check here would print "yes" over a broken tournament."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository's bench/

from bench.arena_bench import arena_score, repairing
from bench.swiss_bench import scores_from, tiebreaks
from bench.tournament_players import Played, overlaps


def test_the_arena_score_doubles_wins_on_a_streak_only() -> None:
    """Catches a streak that starts at the second win, or survives a draw."""
    assert arena_score(["win", "win", "win", "draw", "win", "win", "win"]) == 17
    assert arena_score(["win", "loss", "win", "win", "draw"]) == 7
    assert arena_score([]) == 0


def test_repairing_runs_from_both_players_free_to_the_later_state() -> None:
    """Catches a latency measured from one player's end only (a player who waited for
    an opponent still playing would count as slow pairing) or to the earlier state."""
    games = [Played("a", "g1", "b", dealt=0.0, ended=10.0),
             Played("b", "g1", "a", dealt=0.0, ended=10.0),
             Played("c", "g2", "d", dealt=0.0, ended=12.0),
             Played("d", "g2", "c", dealt=0.0, ended=12.0),
             Played("a", "g3", "c", dealt=12.3, ended=None),
             Played("c", "g3", "a", dealt=12.5, ended=None)]
    both_free, own = repairing(games)
    assert [round(x) for x in both_free] == [500]  # from c's end (12.0) to 12.5
    assert sorted(round(x) for x in own) == [500, 2300]


def test_overlaps_count_a_game_dealt_before_the_previous_ended() -> None:
    """Catches a player in two games at once passing unseen."""
    fine = [Played("a", "g1", "b", 0.0, 5.0), Played("a", "g2", "c", 6.0, 9.0)]
    twice = [Played("a", "g1", "b", 0.0, 5.0), Played("a", "g2", "c", 4.0, 9.0)]
    unseen = [Played("a", "g1", "b", 0.0, None), Played("a", "g2", "c", 6.0, 9.0)]
    assert overlaps(fine) == (0, 0)
    assert overlaps(twice) == (1, 0)
    assert overlaps(unseen) == (0, 1)


def test_swiss_scores_and_tie_breaks_as_fide_counts_them() -> None:
    """Catches a bye left out of the score or of Buchholz (it counts as an opponent with
    the player's own score), a Buchholz that does not cut the lowest, or a
    Sonneborn-Berger that credits a loss."""
    # round 1: a beats b, c has the bye; round 2: c beats a, b has the bye;
    # round 3: b draws c, a has the bye
    games = [(1, "a", "b", "blue"), (2, "c", "a", "blue"), (3, "b", "c", None)]
    byes = [(1, "c"), (2, "b"), (3, "a")]
    score, met = scores_from(games, byes)
    assert score == {"a": 2.0, "b": 1.5, "c": 2.5}
    breaks = tiebreaks(score, met, Counter(name for _, name in byes))
    # a: opponents b 1.5, c 2.5, the bye a's own 2.0: cut the lowest, 4.5; SB b's 1.5
    assert breaks["a"] == (4.5, 1.5)
    # c: opponents a 2.0, b 1.5, the bye c's own 2.5: cut 1.5, 4.5; SB a's 2.0 + half
    # of b's 1.5
    assert breaks["c"] == (4.5, 2.75)


def test_the_servers_overlaps_come_from_the_games_ids_and_records() -> None:
    """Catches an overlap check that trusts the players' clients only: the server's own
    times (a game's deal in its id, its end in its record) say whether a player was put
    in a game before their previous one had ended."""
    from numbridge.store.tournaments import Pairing

    from bench.arena_bench import server_overlaps
    from bench.tournament_players import Stored

    def game(start_ms: int) -> str:
        return f"g-{start_ms:011x}0123456789"

    g1, g2, g3 = game(1_000), game(5_000), game(8_000)
    pairings = [Pairing("t", 0, "a", game=g1, blue="ann", red="bob"),
                Pairing("t", 0, "b", game=g2, blue="bob", red="cy"),
                Pairing("t", 0, "c", game=g3, blue="ann", red="cy")]
    records = {g1: {"moves": [{"at_ms": 2_000}, {"at_ms": 4_000}]},
               g2: {"moves": [{"at_ms": 9_000}]},
               g3: {"moves": [{"at_ms": 9_500}]}}
    found = server_overlaps(Stored(pairings, [], records))
    assert found == [("cy", g2, g3, 1_000)]  # cy's g3 dealt at 8 s, g2 ended at 9 s
