"""Glicko-2 ratings, pure (Glickman, "Example of the Glicko-2 system", 2013).

Every rated game is its own rating period: :func:`rate_game` updates both
players from their pre-game values. :func:`update` is the general step for a
player's results over one rating period (no results: only the RD grows).

Implementation notes, all per the paper: the Glicko-2 scale is
``mu = (r - 1500) / 173.7178``, ``phi = RD / 173.7178``; the new volatility is
the root of ``f`` found by the Illinois algorithm with ``epsilon = 0.000001``.
Expected scores are computed from rating *differences* (``mu - mu_j`` equals
``(r - r_j) / 173.7178``), so the update is translation invariant up to
floating-point rounding. An RD is never above :data:`MAX_RD` (350).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

SCALE: Final = 173.7178
DEFAULT_RATING: Final = 1500.0
MAX_RD: Final = 350.0
DEFAULT_VOLATILITY: Final = 0.06
DEFAULT_TAU: Final = 0.5
EPSILON: Final = 0.000001
# A rating is provisional while its RD is above this (as on lichess): a new
# player (RD 350) leaves it after roughly a dozen games against established players.
PROVISIONAL_RD: Final = 110.0

# The Illinois iteration converges in a handful of steps; this only bounds it.
_MAX_ITERATIONS: Final = 200
# exp() overflows past ~709; a logistic argument beyond this is 0 or 1 anyway.
_MAX_EXPONENT: Final = 700.0


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's Glicko-2 rating on the familiar (Glicko) scale."""

    rating: float = DEFAULT_RATING
    rd: float = MAX_RD
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise ValueError(f"rating must be a finite number, not {self.rating}")
        if not (math.isfinite(self.rd) and 0.0 < self.rd <= MAX_RD):
            raise ValueError(f"rd must be in (0, {MAX_RD}], not {self.rd}")
        if not (math.isfinite(self.volatility) and self.volatility > 0.0):
            raise ValueError(f"volatility must be positive, not {self.volatility}")


def is_provisional(rating: Rating) -> bool:
    """Whether the rating is still provisional: its RD is above :data:`PROVISIONAL_RD`."""
    return rating.rd > PROVISIONAL_RD


def rate_game(blue: Rating, red: Rating, score_blue: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game (1 = blue won, 0 = red won, 0.5 = draw).

    Each is updated from the other's *pre-game* rating.
    """
    _check_score(score_blue)
    return update(blue, [(red, score_blue)]), update(red, [(blue, 1.0 - score_blue)])


def update(
    player: Rating, results: Sequence[tuple[Rating, float]], tau: float = DEFAULT_TAU
) -> Rating:
    """``player`` after one rating period with ``results``: (opponent, score) pairs.

    Scores are 1 for a win, 0.5 for a draw, 0 for a loss. ``tau`` is the system
    constant that limits how fast volatility changes.
    """
    if not (math.isfinite(tau) and tau > 0.0):
        raise ValueError(f"tau must be positive, not {tau}")
    phi = player.rd / SCALE
    sigma = player.volatility

    # Step 3 and 4: the estimated variance v and the improvement delta = v * total.
    information = 0.0  # 1 / v
    total = 0.0  # sum of g(phi_j) * (s_j - E_j)
    for opponent, score in results:
        _check_score(score)
        g = _g(opponent.rd / SCALE)
        e = _expected((player.rating - opponent.rating) / SCALE, g)
        information += g * g * e * (1.0 - e)
        total += g * (score - e)
    if information == 0.0:
        # No games (or none that carries information): only the RD grows (step 6).
        return Rating(float(player.rating), _to_rd(math.sqrt(phi * phi + sigma * sigma)), sigma)
    v = 1.0 / information
    delta = v * total

    # Step 5: the new volatility.
    sigma_new = _new_volatility(phi, sigma, delta, v, tau)

    # Step 6 and 7: the new RD and rating.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + information)
    mu_change = phi_new * phi_new * total
    return Rating(player.rating + SCALE * mu_change, _to_rd(phi_new), sigma_new)


def _check_score(score: float) -> None:
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score is between 0 and 1, not {score}")


def _to_rd(phi: float) -> float:
    return min(SCALE * phi, MAX_RD)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu_difference: float, g: float) -> float:
    """E(mu, mu_j, phi_j): the expected score against an opponent mu_difference below."""
    exponent = max(-_MAX_EXPONENT, min(_MAX_EXPONENT, -g * mu_difference))
    return 1.0 / (1.0 + math.exp(exponent))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5 of the paper: sigma' by the Illinois algorithm on f(x)."""
    a = math.log(sigma * sigma)
    delta2 = delta * delta
    phi2 = phi * phi
    tau2 = tau * tau

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex) ** 2) - (x - a) / tau2

    big_a = a
    if delta2 > phi2 + v:
        big_b = math.log(delta2 - phi2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0.0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(_MAX_ITERATIONS):
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0.0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
