"""Quick pairing's rule (club.pairing): pure, so its properties are checked over many
seekers and waits."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from numbridge.club.pairing import (
    ANYONE_AFTER_MS,
    BASE_WINDOW,
    MAX_WINDOW,
    STEP_MS,
    Seeker,
    best_match,
    fits,
    pair_all,
    retry_times,
    window,
)

NOW = 1_000_000_000
waits = st.integers(min_value=0, max_value=2 * ANYONE_AFTER_MS)
seekers = st.builds(
    Seeker, seek=st.uuids().map(str), player=st.sampled_from([f"p{n}" for n in range(8)]),
    rating=st.floats(min_value=500, max_value=2500), since_ms=waits.map(lambda w: NOW - w))


@given(waits, waits)
def test_the_window_only_widens(a: int, b: int) -> None:
    """Catches: a window that narrows as a seeker waits (they would wait forever)."""
    low, high = sorted((a, b))
    assert window(low) <= window(high)
    assert window(low) >= BASE_WINDOW


def test_the_steps() -> None:
    """Catches: a window that widens on a slope or a step early or late (5 s a step of 50,
    from 100 to 600), or that never opens to anyone after a minute."""
    assert window(0) == window(STEP_MS - 1) == BASE_WINDOW
    assert window(STEP_MS) == BASE_WINDOW + 50
    assert window(ANYONE_AFTER_MS - 1) == MAX_WINDOW
    assert window(ANYONE_AFTER_MS) == float("inf")


@given(seekers, seekers)
def test_fit_is_symmetric_and_never_with_oneself(a: Seeker, b: Seeker) -> None:
    """Catches: a fit that depends on who asks (one seeker paired, the other refusing the
    same pair), or a player paired with their own other device."""
    assert fits(a, b, NOW) == fits(b, a, NOW)
    if a.player == b.player:
        assert not fits(a, b, NOW)


@given(seekers, st.lists(seekers, max_size=12))
def test_the_best_match_fits_and_none_fits_closer(me: Seeker, waiting: list[Seeker]) -> None:
    """Catches: a match outside the window, with oneself, or not the closest."""
    found = best_match(me, waiting, NOW)
    fitting = [w for w in waiting if w.seek != me.seek and fits(me, w, NOW)]
    if found is None:
        assert fitting == []
        return
    assert found.player != me.player and fits(me, found, NOW)
    assert all(abs(w.rating - me.rating) >= abs(found.rating - me.rating) for w in fitting)


@given(st.lists(seekers, max_size=16, unique_by=lambda s: s.seek))
def test_pair_all_pairs_each_seeker_at_most_once_and_leaves_no_fit(
        waiting: list[Seeker]) -> None:
    """Catches: a seeker in two pairs, or two who fit left waiting side by side."""
    pairs = pair_all(waiting, NOW)
    seen = [s.seek for pair in pairs for s in pair]
    assert len(seen) == len(set(seen))
    assert all(fits(a, b, NOW) for a, b in pairs)
    left = [w for w in waiting if w.seek not in set(seen)]
    assert not any(fits(a, b, NOW) for i, a in enumerate(left) for b in left[i + 1:])


def test_a_waiting_seek_is_tried_again_at_each_widening() -> None:
    """Catches: a retry missing at an instant the window widens (a seek left waiting until
    the next), or one where it does not (a message for nothing)."""
    times = retry_times(NOW)
    assert times[0] == NOW + STEP_MS and times[-1] == NOW + ANYONE_AFTER_MS
    # Each retry falls where the window has just widened, and none where it has not.
    assert all(window(t - NOW - 1) < window(t - NOW) for t in times)
    widenings = [w for w in range(1, 2 * ANYONE_AFTER_MS) if window(w - 1) < window(w)]
    assert [NOW + w for w in widenings] == times
