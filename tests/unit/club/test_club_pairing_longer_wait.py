"""Quick pairing's rule (club.pairing) at the points the property tests do not pin: whose
wait decides the window, and whether its edge fits."""

from __future__ import annotations

from numbridge.club.pairing import BASE_WINDOW, STEP_MS, STEP_WINDOW, Seeker, best_match, fits

NOW = 1_000_000_000


def test_a_newcomer_fits_a_long_waiter_by_the_long_waiters_window() -> None:
    """Catches: the shorter wait deciding the window (a newcomer's narrow window would
    keep a player who has waited long enough for a wider field waiting on)."""
    waited = 6 * STEP_MS  # window 100 + 6 x 50 = 400
    old = Seeker("s-old", "ana", 1500.0, NOW - waited)
    new = Seeker("s-new", "bob", 1850.0, NOW)  # 350 apart: beyond a newcomer's 100
    assert fits(new, old, NOW) and fits(old, new, NOW)
    assert best_match(new, [old], NOW) == old


def test_a_rating_difference_at_the_window_edge_fits() -> None:
    """Catches: the window's comparison made strict (two seekers exactly the window apart
    left waiting until the next widening)."""
    a = Seeker("s-a", "ana", 1500.0, NOW - STEP_MS)
    edge = BASE_WINDOW + STEP_WINDOW
    assert fits(a, Seeker("s-b", "bob", 1500.0 + edge, NOW), NOW)
    assert not fits(a, Seeker("s-c", "cy", 1500.0 + edge + 1, NOW), NOW)
