"""Glicko-2: Glickman's worked example, translation invariance, sanity of one game."""

from __future__ import annotations

import dataclasses
import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from numbridge.club.ratings import (
    MAX_RD,
    PROVISIONAL_RD,
    SCALE,
    Rating,
    is_provisional,
    rate_game,
    update,
)

# -- Glickman, "Example of the Glicko-2 system" (2013) -------------------------------------
#
# The reference below is the paper's steps coded afresh, in its own notation, with
# bisection (not the Illinois iteration of the code under test) for step 5, so
# that full-precision values are checked against something other than the code.


def paper_glicko2(r: float, rd: float, sigma: float,
                  results: list[tuple[float, float, float]], tau: float = 0.5,
                  ) -> tuple[float, float, float, dict[str, float]]:
    """Steps 2-8 of the paper for one player; ``results``: (r_j, RD_j, s_j)."""
    mu, phi = (r - 1500.0) / 173.7178, rd / 173.7178
    terms = []
    for r_j, rd_j, s_j in results:
        mu_j, phi_j = (r_j - 1500.0) / 173.7178, rd_j / 173.7178
        g_j = 1.0 / math.sqrt(1.0 + 3.0 * phi_j**2 / math.pi**2)
        e_j = 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))
        terms.append((g_j, e_j, s_j))
    v = 1.0 / sum(g * g * e * (1.0 - e) for g, e, _ in terms)
    delta = v * sum(g * (s - e) for g, e, s in terms)
    a = math.log(sigma**2)

    def f(x: float) -> float:
        return (math.exp(x) * (delta**2 - phi**2 - v - math.exp(x))
                / (2.0 * (phi**2 + v + math.exp(x)) ** 2) - (x - a) / tau**2)

    # f falls from positive to negative through its root: bisect a wide bracket. (With
    # extreme inputs f can have three roots; the callers keep to inputs with one.)
    low, high = a - 20.0, a + 20.0
    grid = [low + i * 0.01 for i in range(4001)]
    assert sum((f(x) > 0.0) != (f(y) > 0.0) for x, y in itertools.pairwise(grid)) == 1
    for _ in range(200):
        middle = (low + high) / 2.0
        if f(middle) > 0.0:
            low = middle
        else:
            high = middle
    sigma_new = math.exp(low / 2.0)
    phi_star = math.sqrt(phi**2 + sigma_new**2)
    phi_new = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)
    mu_new = mu + phi_new**2 * sum(g * (s - e) for g, e, s in terms)
    steps = {"v": v, "delta": delta, "phi_star": phi_star, "mu_new": mu_new,
             "phi_new": phi_new}
    return 173.7178 * mu_new + 1500.0, 173.7178 * phi_new, sigma_new, steps


EXAMPLE = [(1400.0, 30.0, 1.0), (1550.0, 100.0, 0.0), (1700.0, 300.0, 0.0)]


def test_the_reference_reproduces_the_papers_printed_steps() -> None:
    rating, rd, volatility, steps = paper_glicko2(1500.0, 200.0, 0.06, EXAMPLE)
    # The values printed in the paper, which rounds g and E to 4 decimals on the way
    # (hence its v = 1.7785 and delta = -0.4834 differ in the 4th decimal).
    assert steps["v"] == pytest.approx(1.7785, abs=1e-3)
    assert steps["delta"] == pytest.approx(-0.4834, abs=1e-3)
    assert volatility == pytest.approx(0.05999, abs=1e-5)
    assert steps["phi_star"] == pytest.approx(1.152862, abs=1e-4)
    assert steps["phi_new"] == pytest.approx(0.8722, abs=5e-5)
    assert steps["mu_new"] == pytest.approx(-0.2069, abs=5e-5)
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert rd == pytest.approx(151.52, abs=0.005)


def test_glickman_worked_example() -> None:
    player = Rating(1500.0, 200.0, 0.06)
    results = [(Rating(r, rd), s) for r, rd, s in EXAMPLE]
    new = update(player, results, tau=0.5)
    # The paper's printed results...
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.005)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)
    # ...and, at full precision, the paper's steps carried without rounding.
    rating, rd, volatility, _ = paper_glicko2(1500.0, 200.0, 0.06, EXAMPLE)
    assert new.rating == pytest.approx(rating, abs=1e-4)
    assert new.rd == pytest.approx(rd, abs=1e-4)
    assert new.volatility == pytest.approx(volatility, abs=1e-7)


@given(player=st.builds(Rating, st.floats(1100.0, 1900.0), st.floats(30.0, 350.0),
                        st.floats(0.02, 0.1)),
       opponents=st.lists(st.tuples(st.floats(1100.0, 1900.0), st.floats(30.0, 350.0),
                                    st.sampled_from([0.0, 0.5, 1.0])),
                          min_size=1, max_size=6))
def test_update_agrees_with_the_paper_coded_afresh(
    player: Rating, opponents: list[tuple[float, float, float]]
) -> None:
    new = update(player, [(Rating(r, rd), s) for r, rd, s in opponents])
    rating, rd, volatility, _ = paper_glicko2(player.rating, player.rd, player.volatility,
                                              opponents)
    assert new.rating == pytest.approx(rating, abs=1e-3)
    assert new.rd == pytest.approx(min(rd, MAX_RD), abs=1e-3)
    assert new.volatility == pytest.approx(volatility, rel=1e-5)


def test_no_games_only_rd_grows() -> None:
    player = Rating(1623.5, 80.0, 0.07)
    new = update(player, [])
    assert new.rating == player.rating
    assert new.volatility == player.volatility
    expected_phi = math.sqrt((80.0 / SCALE) ** 2 + 0.07**2)
    assert new.rd == pytest.approx(SCALE * expected_phi)
    assert new.rd > player.rd


def test_rd_is_capped_at_350() -> None:
    # Step 6 alone: phi* = sqrt(phi^2 + sigma^2), back on the Glicko scale.
    grown = 173.7178 * math.sqrt((349.0 / 173.7178) ** 2 + 0.06**2)
    assert grown < MAX_RD
    assert update(Rating(1500.0, 349.0, 0.06), []).rd == pytest.approx(grown, abs=1e-9)
    assert update(Rating(1500.0, 349.9, 0.06), []).rd == MAX_RD
    assert update(Rating(), []).rd == MAX_RD
    assert Rating().rd == 350.0


# -- one game ------------------------------------------------------------------------------


def test_new_players_winner_gains_loser_loses_mirror_image() -> None:
    blue, red = rate_game(Rating(), Rating(), 1.0)
    assert blue.rating > 1500.0 > red.rating
    assert blue.rating - 1500.0 == pytest.approx(1500.0 - red.rating)
    assert blue.rd == pytest.approx(red.rd)
    assert blue.rd < 350.0


def test_draw_between_equals_changes_no_rating() -> None:
    equal = Rating(1712.0, 90.0, 0.06)
    blue, red = rate_game(equal, equal, 0.5)
    assert blue.rating == equal.rating
    assert red.rating == equal.rating
    assert blue.rd < equal.rd and red.rd < equal.rd


def test_draw_moves_ratings_toward_each_other() -> None:
    strong, weak = Rating(1900.0, 60.0), Rating(1600.0, 60.0)
    new_strong, new_weak = rate_game(strong, weak, 0.5)
    assert new_strong.rating < strong.rating
    assert new_weak.rating > weak.rating


def test_both_updated_from_pre_game_values() -> None:
    blue, red = Rating(1550.0, 120.0, 0.06), Rating(1480.0, 200.0, 0.05)
    assert rate_game(blue, red, 0.0) == (update(blue, [(red, 0.0)]), update(red, [(blue, 1.0)]))


def test_upset_moves_more_than_expected_win() -> None:
    strong, weak = Rating(1800.0, 80.0), Rating(1500.0, 80.0)
    expected_strong, _ = rate_game(strong, weak, 1.0)
    upset_weak, _ = rate_game(weak, strong, 1.0)
    assert upset_weak.rating - weak.rating > expected_strong.rating - strong.rating > 0


@pytest.mark.parametrize(
    ("blue", "red"),
    [
        (Rating(), Rating()),
        (Rating(1500.0, 150.0), Rating(1500.0, 200.0)),
        (Rating(1800.0, 120.0), Rating(1400.0, 100.0)),
    ],
)
@pytest.mark.parametrize("score", [0.0, 0.5, 1.0])
def test_rd_shrinks_after_a_game(blue: Rating, red: Rating, score: float) -> None:
    new_blue, new_red = rate_game(blue, red, score)
    assert new_blue.rd < blue.rd
    assert new_red.rd < red.rd


def test_rd_settles_where_one_game_balances_one_period_of_volatility() -> None:
    # Each game is a rating period: the RD first grows by the volatility, then
    # shrinks by what the game tells. Between equals (sigma 0.06) the two balance
    # near RD 60, so an established player's RD stays about there.
    a, b = Rating(), Rating()
    for _ in range(200):
        a, b = rate_game(a, b, 0.5)
    assert 55.0 < a.rd < 65.0
    again, _ = rate_game(a, b, 0.5)
    assert again.rd == pytest.approx(a.rd, abs=0.01)


ratings = st.floats(min_value=0.0, max_value=3500.0)
rds = st.floats(min_value=30.0, max_value=350.0)
volatilities = st.floats(min_value=0.01, max_value=0.2)
players = st.builds(Rating, ratings, rds, volatilities)


@given(blue=players, red=players, score=st.sampled_from([0.0, 0.5, 1.0]))
def test_winner_gains_loser_loses(blue: Rating, red: Rating, score: float) -> None:
    new_blue, new_red = rate_game(blue, red, score)
    if score == 1.0:
        assert new_blue.rating > blue.rating and new_red.rating < red.rating
    elif score == 0.0:
        assert new_blue.rating < blue.rating and new_red.rating > red.rating
    for new in (new_blue, new_red):
        assert 0.0 < new.rd <= MAX_RD
        assert new.volatility > 0.0


# -- translation invariance (the PyPI glicko2 package fails this) ---------------------------


def shifted(rating: Rating, by: float) -> Rating:
    return dataclasses.replace(rating, rating=rating.rating + by)


@given(
    player=players,
    opponents=st.lists(
        st.tuples(players, st.sampled_from([0.0, 0.5, 1.0])), min_size=0, max_size=8
    ),
    by=st.floats(min_value=-1500.0, max_value=1500.0),
)
def test_update_is_translation_invariant(
    player: Rating, opponents: list[tuple[Rating, float]], by: float
) -> None:
    plain = update(player, opponents)
    moved = update(shifted(player, by), [(shifted(o, by), s) for o, s in opponents])
    assert moved.rating == pytest.approx(plain.rating + by, abs=1e-6)
    assert moved.rd == pytest.approx(plain.rd, rel=1e-9)
    assert moved.volatility == pytest.approx(plain.volatility, rel=1e-9)


@given(blue=players, red=players, score=st.floats(0.0, 1.0), by=st.floats(-1500.0, 1500.0))
def test_rate_game_is_translation_invariant(
    blue: Rating, red: Rating, score: float, by: float
) -> None:
    plain = rate_game(blue, red, score)
    moved = rate_game(shifted(blue, by), shifted(red, by), score)
    for p, m in zip(plain, moved, strict=True):
        assert m.rating == pytest.approx(p.rating + by, abs=1e-6)
        assert m.rd == pytest.approx(p.rd, rel=1e-9)
        assert m.volatility == pytest.approx(p.volatility, rel=1e-9)


# -- provisional, validation ----------------------------------------------------------------


def test_provisional_threshold() -> None:
    assert PROVISIONAL_RD == 110.0
    assert is_provisional(Rating())
    assert is_provisional(Rating(1500.0, 110.01))
    assert not is_provisional(Rating(1500.0, 110.0))
    assert not is_provisional(Rating(1500.0, 45.0))


def test_a_new_player_stops_being_provisional_after_some_games() -> None:
    player, established = Rating(), Rating(1500.0, 50.0)
    games = 0
    while is_provisional(player):
        player, _ = rate_game(player, established, 0.5)
        games += 1
    assert 5 <= games <= 20


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rd": 0.0},
        {"rd": 350.5},
        {"rd": math.nan},
        {"volatility": 0.0},
        {"rating": math.inf},
    ],
)
def test_invalid_ratings(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Rating(**kwargs)


def test_invalid_scores_and_tau() -> None:
    with pytest.raises(ValueError, match="score"):
        rate_game(Rating(), Rating(), 1.5)
    with pytest.raises(ValueError, match="score"):
        update(Rating(), [(Rating(), -0.1)])
    with pytest.raises(ValueError, match="tau"):
        update(Rating(), [], tau=0.0)


def test_rating_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Rating().rating = 2000.0  # type: ignore[misc]
