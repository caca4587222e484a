"""Arena: lichess's scoring with the streak, the performance tie-break, and pairing the
players waiting now (nobody twice, no rematch of the last game while avoidable,
closest ranks, colours evened)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numbridge.tournaments.arena import (
    ArenaPlayer,
    BadWaiting,
    UnknownRating,
    arena_pairs,
    arena_points,
    performance,
)
from numbridge.tournaments.results import Outcome, Played

W, D, L = "win", "draw", "loss"


def games(*outcomes: Outcome) -> tuple[Played, ...]:
    return tuple(Played(f"o{i}", "blue", o) for i, o in enumerate(outcomes))


@pytest.mark.parametrize(("outcomes", "score", "fire"), [
    ((W, W, W, D, W, W, W), 2 + 2 + 4 + 1 + 2 + 2 + 4, True),  # the golden: 17
    ((), 0, False),
    ((W,), 2, False),
    ((W, W), 4, True),
    ((W, W, W, W), 2 + 2 + 4 + 4, True),
    ((W, W, L, W, W, W), 2 + 2 + 0 + 2 + 2 + 4, True),
    ((W, W, W, D), 2 + 2 + 4 + 1, False),
    ((D, D, D), 3, False),
    ((L, W, W, L), 4, False),
])
def test_points_with_the_streak(outcomes: tuple[Outcome, ...], score: int, fire: bool) -> None:
    """Catches a streak doubled too early (at the second win), kept past a draw or a loss,
    or a draw on fire counted double."""
    assert arena_points(games(*outcomes)) == (score, fire)


def test_performance() -> None:
    """Catches a performance that is not the mean of opponent rating +500 a win, -500 a
    loss, or that silently rates an unknown opponent."""
    history = (Played("a", "blue", "win"), Played("b", "red", "loss"),
               Played("c", "blue", "draw"))
    assert performance(history, {"a": 1500, "b": 1600, "c": 1700}) == round(
        (2000 + 1100 + 1700) / 3)
    assert performance((), {}) == 0
    with pytest.raises(UnknownRating):
        performance(history, {"a": 1500})


def player(name: str, score_wins: int = 0, rating: int = 1500, last: str | None = None,
           since: int = 0, blues: int = 0, reds: int = 0) -> ArenaPlayer:
    history = [Played(f"x{k}", "blue", "win") for k in range(score_wins)]
    history += [Played(f"y{k}", "blue", "loss") for k in range(blues)]
    history += [Played(f"z{k}", "red", "loss") for k in range(reds)]
    if last is not None:
        history.append(Played(last, "blue", "draw"))
    return ArenaPlayer(name, rating, tuple(history), since)


def test_closest_ranks_meet_and_the_latest_arrival_waits() -> None:
    """Catches pairing far apart in rank when neighbours are free, or leaving out someone
    other than the latest to arrive."""
    waiting = [player("a", 3, since=5), player("b", 3, rating=1400, since=1),
               player("c", 0, since=2), player("d", 0, rating=1400, since=3),
               player("e", 1, since=9)]
    pairs = arena_pairs(waiting)
    assert {frozenset(p) for p in pairs} == {frozenset("ab"), frozenset("cd")}
    assert pairs[0] in (("a", "b"), ("b", "a"))  # the longest waiter's pair first


def test_no_rematch_of_the_last_game_while_anyone_else_waits() -> None:
    """Catches two players paired again straight after their game while a third and a
    fourth wait (rank neighbours though they are)."""
    waiting = [player("a", 3, last="b"), player("b", 3, last="a"),
               player("c", 0), player("d", 0)]
    pairs = {frozenset(p) for p in arena_pairs(waiting)}
    assert frozenset("ab") not in pairs and len(pairs) == 2


def test_the_same_two_alone_play_again() -> None:
    """Catches two players left waiting for ever when nobody else is free."""
    assert {frozenset(p) for p in arena_pairs([player("a", last="b"),
                                               player("b", last="a")])} == {frozenset("ab")}


def test_colours_even_out() -> None:
    """Catches the player with more blues given blue again, or a tie not settled for the
    longer waiter."""
    assert arena_pairs([player("a", blues=2, since=0), player("b", reds=1, since=5)]) == [
        ("b", "a")]
    assert arena_pairs([player("a", since=7), player("b", since=3)]) == [("b", "a")]


@st.composite
def waiting_fields(draw: st.DrawFn, most: int = 11) -> list[ArenaPlayer]:
    n = draw(st.integers(min_value=0, max_value=most))
    names = [f"p{i}" for i in range(n)]
    out = []
    for name in names:
        last = draw(st.sampled_from([None, *[o for o in names if o != name]]))
        history: list[Played] = [
            Played(f"q{k}", draw(st.sampled_from(["blue", "red"])),
                   draw(st.sampled_from(["win", "draw", "loss"])))
            for k in range(draw(st.integers(min_value=0, max_value=4)))]
        if last is not None:
            history.append(Played(last, "blue", "loss"))
        out.append(ArenaPlayer(name, draw(st.integers(1000, 1010)), tuple(history),
                               draw(st.integers(0, 5))))
    return out


def _repeats(pairs: Sequence[tuple[str, str]], last: dict[str, str | None]) -> int:
    return sum(last[a] == b or last[b] == a for a, b in pairs)


@settings(max_examples=150)
@given(waiting_fields())
def test_nobody_twice_and_rematches_only_when_unavoidable(waiting: list[ArenaPlayer]) -> None:
    """Catches a player in two games, a free player left out beyond the odd one, or a
    rematch of someone's last game when some pairing of the same players avoids it
    (brute force over every pairing)."""
    pairs = arena_pairs(waiting)
    seen = [p for pair in pairs for p in pair]
    assert len(seen) == len(set(seen))
    assert len(pairs) == len(waiting) // 2
    last = {p.name: (p.history[-1].opponent if p.history else None) for p in waiting}
    names = [p.name for p in waiting]

    def best_repeats() -> int:
        best = len(names)
        for out in (names if len(names) % 2 else [None]):
            rest = [x for x in names if x != out]
            for order in _all_pairings(rest):
                best = min(best, _repeats(order, last))
        return best

    assert _repeats(pairs, last) == best_repeats()


def _all_pairings(players: list[str]) -> list[list[tuple[str, str]]]:
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    return [[(first, mate), *tail] for k, mate in enumerate(rest)
            for tail in _all_pairings(rest[:k] + rest[k + 1:])]


@settings(max_examples=300)
@given(waiting_fields(most=9))
def test_rank_distance_is_the_smallest_without_a_rematch(waiting: list[ArenaPlayer]) -> None:
    """Catches a pairing whose rank distances add up to more than another pairing of
    the same players that has no more rematches and leaves out the same player."""
    pairs = arena_pairs(waiting)
    ranked = sorted(waiting, key=lambda p: (-arena_points(p.history)[0], -p.rating, p.name))
    place = {p.name: i for i, p in enumerate(ranked)}
    last = {p.name: (p.history[-1].opponent if p.history else None) for p in waiting}
    paired = sorted(x for pair in pairs for x in pair)
    mine = sum(abs(place[a] - place[b]) for a, b in pairs)
    for other in _all_pairings(paired):
        if _repeats(other, last) <= _repeats(pairs, last):
            assert mine <= sum(abs(place[a] - place[b]) for a, b in other)


def test_a_field_without_games_pairs_rank_neighbours() -> None:
    """Catches a field without games not paired 1-2, 3-4... in rank (rating) order."""
    waiting = [ArenaPlayer(f"p{i}", 2000 - i) for i in range(6)]
    assert {frozenset(p) for p in arena_pairs(waiting)} == {
        frozenset((f"p{i}", f"p{i + 1}")) for i in range(0, 6, 2)}


def test_a_large_field_swaps_its_way_round_rematches() -> None:
    """Catches the large-field path (beyond the exact matching) pairing rank neighbours
    who have just played each other: here every player's last opponent is the player
    next in rank, the worst case for pairing neighbours."""
    n = 101
    waiting = []
    for i in range(n):
        mate = i + 1 if i % 2 == 0 else i - 1
        last = (Played(f"p{mate:03d}", "blue", "draw"),) if mate < n else ()
        waiting.append(ArenaPlayer(f"p{i:03d}", 2000 - i, last, i % 7))
    pairs = arena_pairs(waiting)
    assert len(pairs) == n // 2
    seen = [p for pair in pairs for p in pair]
    assert len(set(seen)) == len(seen)
    last_of = {p.name: p.history[-1].opponent for p in waiting if p.history}
    assert not [pair for pair in pairs
                if last_of.get(pair[0]) == pair[1] or last_of.get(pair[1]) == pair[0]]


def test_a_player_waiting_twice_is_refused() -> None:
    """Catches a duplicated waiting entry paired against itself."""
    with pytest.raises(BadWaiting):
        arena_pairs([ArenaPlayer("a", 1500), ArenaPlayer("a", 1500)])
