import pytest
from numbridge.service.ratelimit import BURST, PER_SECOND, RateLimiter


def test_the_limit_comes_from_the_environment() -> None:
    env = {"NUMBRIDGE_RATE_BURST": "3", "NUMBRIDGE_RATE_PER_SECOND": "0.5"}
    limiter = RateLimiter.from_env(env)
    assert (limiter.burst, limiter.per_second) == (3, 0.5)
    assert [limiter.take("ana", 0) for _ in range(3)] == [None, None, None]
    assert limiter.take("ana", 0) == 2001  # one token at 0.5 a second


def test_without_settings_the_defaults_hold() -> None:
    limiter = RateLimiter.from_env({})
    assert (limiter.burst, limiter.per_second) == (BURST, PER_SECOND)


@pytest.mark.parametrize("env", [{"NUMBRIDGE_RATE_BURST": "0"},
                                 {"NUMBRIDGE_RATE_PER_SECOND": "-1"},
                                 {"NUMBRIDGE_RATE_BURST": "many"}])
def test_a_limit_that_is_not_positive_is_refused(env: dict[str, str]) -> None:
    with pytest.raises(ValueError):
        RateLimiter.from_env(env)
