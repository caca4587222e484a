"""Signed player tokens: a JWT (HS256) naming the player.

The secret comes from configuration (``TOKEN_SECRET``, or ``TOKEN_SECRET_ARN``
read through Powertools' cached secrets provider in AWS), never from code.
"""

from __future__ import annotations

import os
import re
import time
from functools import lru_cache

import jwt

ISSUER = "numbridge"
ALGORITHM = "HS256"
DEFAULT_TTL_S = 30 * 24 * 3600
PLAYER_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")


class InvalidToken(ValueError):
    """A token that is missing, forged, expired or names no valid player."""


def check_player_name(name: str) -> str:
    if not PLAYER_NAME.match(name):
        raise ValueError(
            f"player name {name!r} must be 1-32 characters: letters, digits, '_', '.', '-'"
        )
    return name


def issue_token(
    name: str, secret: str, ttl_s: int = DEFAULT_TTL_S, now: float | None = None
) -> str:
    issued = int(time.time() if now is None else now)
    claims = {"sub": check_player_name(name), "iss": ISSUER, "iat": issued, "exp": issued + ttl_s}
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def verify_token(token: str | None, secret: str) -> str:
    """The player a token names; :class:`InvalidToken` if it cannot be trusted."""
    if not token:
        raise InvalidToken("no token")
    try:
        claims = jwt.decode(
            token,
            secret,
            algorithms=[ALGORITHM],
            issuer=ISSUER,
            options={"require": ["sub", "exp", "iss"]},
        )
    except jwt.PyJWTError as exc:
        raise InvalidToken(str(exc)) from exc
    try:
        return check_player_name(str(claims["sub"]))
    except ValueError as exc:
        raise InvalidToken(str(exc)) from exc


@lru_cache(maxsize=1)
def _secret_from_arn(arn: str) -> str:
    from aws_lambda_powertools.utilities.parameters import get_secret

    value = get_secret(arn, max_age=300)
    return value if isinstance(value, str) else value.decode()


def token_secret() -> str:
    """The signing secret from the environment (local) or Secrets Manager (AWS)."""
    secret = os.environ.get("TOKEN_SECRET")
    if secret:
        return secret
    arn = os.environ.get("TOKEN_SECRET_ARN")
    if arn:
        return _secret_from_arn(arn)
    raise RuntimeError("no token secret configured: set TOKEN_SECRET or TOKEN_SECRET_ARN")
