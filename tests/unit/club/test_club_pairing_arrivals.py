"""Quick pairing's rule for seekers who come together (club.pairing.arrival_pairs,
partner): as if they had come one at a time, so that a crowd pairs among itself, and
each of it decides the same pairs from the room as it reads it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from numbridge.club.pairing import (
    ANYONE_AFTER_MS,
    Seeker,
    arrival_pairs,
    best_match,
    fits,
    partner,
)

NOW = 1_000_000_000
seekers = st.builds(
    Seeker, seek=st.uuids().map(str), player=st.sampled_from([f"p{n}" for n in range(8)]),
    rating=st.sampled_from([1400.0, 1450.0, 1500.0, 1500.0, 1520.0, 1700.0, 2100.0]),
    since_ms=st.integers(min_value=0, max_value=2 * ANYONE_AFTER_MS).map(lambda w: NOW - w))
rooms = st.lists(seekers, max_size=14, unique_by=lambda s: s.seek)


def _one_at_a_time(room: list[Seeker]) -> list[tuple[Seeker, Seeker]]:
    """The rule as it reads: each, in the order they sought, paired at once with its
    ``best_match`` among those before it still waiting."""
    waiting: list[Seeker] = []
    pairs = []
    for came in sorted(room, key=lambda s: (s.since_ms, s.seek)):
        match = best_match(came, waiting, NOW)
        if match is None:
            waiting.append(came)
        else:
            waiting.remove(match)
            pairs.append((match, came))
    return pairs


def _crowd(n: int, rating: float = 1500.0) -> list[Seeker]:
    return [Seeker(f"s{k:02d}", f"p{k:02d}", rating, NOW - 50 + k) for k in range(n)]


def test_a_crowd_of_equal_ratings_pairs_first_with_second_third_with_fourth() -> None:
    """Catches: a crowd that came together all reaching for the same longest waiter
    (one pairing commits, the rest lose their race and try again), instead of each
    newcomer taking the one who came just before it."""
    crowd = _crowd(9)
    assert [(a.seek, b.seek) for a, b in arrival_pairs(crowd, NOW)] == [
        ("s00", "s01"), ("s02", "s03"), ("s04", "s05"), ("s06", "s07")]
    assert [partner(me, crowd, NOW) for me in crowd] == [
        crowd[1], crowd[0], crowd[3], crowd[2], crowd[5], crowd[4], crowd[7], crowd[6], None]


def test_a_crowd_member_that_read_the_room_early_decides_the_same_pairs() -> None:
    """Catches: a pairing that depends on how much of the crowd one saw (the third,
    reading before the later ones stored their seeks, would pair elsewhere than the
    fourth decides, and their two pairings would race)."""
    crowd = _crowd(8)
    for seen in range(2, 9):
        early = crowd[:seen]
        for me in early:
            mine = partner(me, early, NOW)
            if mine is not None:
                assert mine == partner(me, crowd, NOW), (seen, me)


@given(rooms)
def test_arrival_pairs_are_the_rule_applied_one_seeker_at_a_time(room: list[Seeker]) -> None:
    """Catches: the crowd's pairs departing from "closest rating, then longest wait"
    (a pair that does not fit, a seeker in two pairs, a newcomer not given its best
    fit among those still waiting when it came)."""
    pairs = arrival_pairs(room, NOW)
    assert pairs == _one_at_a_time(room)
    seen = [s.seek for pair in pairs for s in pair]
    assert len(seen) == len(set(seen))
    assert all(fits(a, b, NOW) for a, b in pairs)


@given(rooms)
def test_partners_agree(room: list[Seeker]) -> None:
    """Catches: two seekers reading the same room and deciding different partners for
    each other (both pairings would be tried, and one lose its race)."""
    for me in room:
        mine = partner(me, room, NOW)
        if mine is not None:
            assert partner(mine, room, NOW) == me


@given(seekers, rooms)
def test_a_newcomer_among_waiters_who_fit_no_one_gets_its_best_match(
        me: Seeker, room: list[Seeker]) -> None:
    """Catches: the crowd rule changing the pairing of the usual case — a newcomer to a
    room whose waiting seekers fit none of each other is paired with its best match
    (closest rating, then longest wait), as ``best_match`` says."""
    now = NOW + 1  # the newcomer came last
    waiting: list[Seeker] = []
    for s in sorted(room, key=lambda s: (s.since_ms, s.seek)):
        if s.seek != me.seek and not any(fits(s, w, now) for w in waiting):
            waiting.append(s)
    newcomer = Seeker(me.seek, me.player, me.rating, now)
    assert partner(newcomer, waiting, now) == best_match(newcomer, waiting, now)
