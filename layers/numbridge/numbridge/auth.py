"""Who a player token names: the one place tokens are verified.

Two kinds of token, told apart by their signing algorithm and each checked
only with its own keys:

- **operator tokens** (HS256), signed with the stack's token secret and naming
  the player in ``sub``: ``numbridge token NAME`` makes them, for bots, tests,
  the local runtime and players the operator signs up by hand;
- **Amazon Cognito tokens** (RS256), when the stack enables Cognito:
  :mod:`numbridge.cognito`.

The secret comes from configuration, never from code: ``TOKEN_SECRET``, or in
AWS ``TOKEN_SECRET_ARN``, read from Secrets Manager and read again once it is
five minutes old, so a rotated secret is picked up. Tokens signed with the
previous secret (stage ``AWSPREVIOUS``) stay valid until the next rotation,
so a rotation refuses nobody while the new tokens are handed out.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Final

from numbridge import cognito
from numbridge.names import check_player_name
from numbridge.refreshing import Refreshing
from numbridge.values import frozen

# PyJWT (and cryptography, which it loads) is imported where a token is made or
# checked: only the connect function pays for it, at init (its handler loads it).

__all__ = [
    "ALGORITHM", "DEFAULT_TTL_S", "ISSUER", "MAX_TTL_S", "MIN_TTL_S",
    "AuthUnavailable", "BadTtl", "Identity", "InvalidToken", "TokenKeys", "check_player_name",
    "check_ttl", "issue_token", "secret_source", "token_secret", "verify_identity",
    "verify_player", "verify_token",
]

ISSUER: Final = "numbridge"
ALGORITHM: Final = "HS256"
DEFAULT_TTL_S: Final = 7 * 24 * 3600
# Shorter than a minute cannot even connect; longer than 90 days outlives any sense of
# "this device is still mine".
MIN_TTL_S: Final = 60
MAX_TTL_S: Final = 90 * 24 * 3600
# The claim that carries the player's token generation (store.accounts): a token of an
# older generation is refused at $connect. Tokens without it are of generation 0.
GENERATION_CLAIM: Final = "gen"
SECRET_MAX_AGE_S: Final = 300.0

# The signing key, or every key to accept (the current one first).
TokenKeys = str | tuple[str, ...]


class InvalidToken(ValueError):
    """A token that is missing, forged, expired or names no valid player."""


class AuthUnavailable(RuntimeError):
    """The keys to check a token could not be had: try again later (not the client's fault)."""


class BadTtl(ValueError):
    """A token lifetime outside :data:`MIN_TTL_S` .. :data:`MAX_TTL_S`."""


@frozen
class Identity:
    """Who a verified token names, and what $connect checks besides: the token
    generation it carries, when it expires (epoch seconds), and for a Cognito token the
    pool's ``sub`` (None for an operator token)."""

    player: str
    generation: int = 0
    expires_at: int = 0
    sub: str | None = None


def check_ttl(ttl_s: float) -> int:
    if not MIN_TTL_S <= ttl_s <= MAX_TTL_S:
        raise BadTtl(f"a token lasts from {MIN_TTL_S} s to {MAX_TTL_S // 86400} days, "
                     f"not {ttl_s:g} s")
    return int(ttl_s)


def issue_token(
    name: str, secret: str, ttl_s: int = DEFAULT_TTL_S, now: float | None = None,
    generation: int = 0,
) -> str:
    import jwt

    issued = int(time.time() if now is None else now)
    claims = {"sub": check_player_name(name), "iss": ISSUER, "iat": issued,
              "exp": issued + check_ttl(ttl_s), GENERATION_CLAIM: generation}
    return jwt.encode(claims, secret, algorithm=ALGORITHM)


def verify_token(token: str | None, secret: str | Sequence[str]) -> str:
    """The player an operator token names; :class:`InvalidToken` if it cannot be trusted."""
    return verify_operator(token, secret).player


def verify_operator(token: str | None, secret: str | Sequence[str]) -> Identity:
    """What an operator token says; :class:`InvalidToken` if it cannot be trusted."""
    import jwt

    if not token:
        raise InvalidToken("no token")
    keys = [secret] if isinstance(secret, str) else list(secret)
    failure = "no token secret"
    for key in keys:
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=[ALGORITHM],
                issuer=ISSUER,
                options={"require": ["sub", "exp", "iss"]},
            )
            break
        except jwt.InvalidSignatureError as exc:
            failure = str(exc)  # perhaps signed with the next key
        except jwt.PyJWTError as exc:
            raise InvalidToken(str(exc)) from exc
    else:
        raise InvalidToken(failure)
    generation = claims.get(GENERATION_CLAIM, 0)
    if not isinstance(generation, int) or isinstance(generation, bool) or generation < 0:
        raise InvalidToken("the token's generation is not a count")
    try:
        return Identity(check_player_name(str(claims["sub"])), generation, int(claims["exp"]))
    except ValueError as exc:
        raise InvalidToken(str(exc)) from exc


def verify_player(
    token: str | None,
    secret: Callable[[], TokenKeys],
    cognito_tokens: cognito.CognitoVerifier | None = None,
) -> str:
    """The player any accepted token names (:func:`verify_identity`)."""
    return verify_identity(token, secret, cognito_tokens).player


def verify_identity(
    token: str | None,
    secret: Callable[[], TokenKeys],
    cognito_tokens: cognito.CognitoVerifier | None = None,
) -> Identity:
    """Who any accepted token names.

    ``secret`` is called only for an operator token; ``cognito_tokens`` is
    ``None`` where Cognito is off (its tokens are then refused).
    :class:`InvalidToken` for a token that cannot be trusted,
    :class:`AuthUnavailable` when the keys to decide could not be fetched.
    """
    import jwt

    if not token:
        raise InvalidToken("no token")
    try:
        algorithm = jwt.get_unverified_header(token).get("alg")
    except jwt.PyJWTError as exc:
        raise InvalidToken(str(exc)) from exc
    if algorithm == ALGORITHM:
        try:
            keys = secret()
        except Exception as exc:  # Secrets Manager unreachable, or no secret configured
            raise AuthUnavailable(f"the token secret cannot be read: {exc}") from exc
        return verify_operator(token, keys)
    if algorithm == cognito.ALGORITHM and cognito_tokens is not None:
        try:
            claims = cognito_tokens.claims(token)
            return Identity(cognito_tokens.player_of(claims), 0, int(claims["exp"]),
                            str(claims["sub"]))
        except cognito.InvalidCognitoToken as exc:
            raise InvalidToken(str(exc)) from exc
        except cognito.KeysUnavailable as exc:
            raise AuthUnavailable(str(exc)) from exc
    if algorithm == cognito.ALGORITHM:
        raise InvalidToken("Cognito sign-in is not enabled on this server")
    raise InvalidToken(f"tokens signed with {str(algorithm)[:16]!r} are not accepted")


def expiry_of(token: str | None) -> int | None:
    """When a token expires (epoch seconds), read without checking its signature: only
    for a token already verified (the local gateway, after its ``$connect`` accepted
    it, to close the connection at that time). None if it says no time."""
    import jwt

    if not token:
        return None
    try:
        exp = jwt.decode(token, options={"verify_signature": False}).get("exp")
    except jwt.PyJWTError:
        return None
    return exp if isinstance(exp, int) and not isinstance(exp, bool) else None


# ---------------------------------------------------------------- the secret


def secrets_manager_keys(arn: str, client: Any = None) -> Callable[[], tuple[str, ...]]:
    """A fetch of the secret's current value and, if there is one, its previous value."""

    def fetch() -> tuple[str, ...]:
        nonlocal client
        if client is None:
            import boto3

            client = boto3.client("secretsmanager")
        from botocore.exceptions import ClientError

        keys = [_text(client.get_secret_value(SecretId=arn, VersionStage="AWSCURRENT"))]
        try:
            previous = client.get_secret_value(SecretId=arn, VersionStage="AWSPREVIOUS")
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") != "ResourceNotFoundException":
                raise
        else:
            keys.append(_text(previous))
        return tuple(keys)

    return fetch


def _text(answer: dict[str, Any]) -> str:
    value = answer.get("SecretString")
    if value is None:
        value = bytes(answer["SecretBinary"]).decode()
    return str(value)


def secret_source(
    arn: str, client: Any = None, clock: Callable[[], float] = time.monotonic
) -> Refreshing[tuple[str, ...]]:
    """The token keys of a Secrets Manager secret, read again once five minutes old."""
    return Refreshing(
        secrets_manager_keys(arn, client), max_age_s=SECRET_MAX_AGE_S, clock=clock,
        what=f"token secret {arn}",
    )


# One source per ARN for the process; the source itself ages its value.
_source_of = lru_cache(maxsize=4)(secret_source)


def token_secret() -> TokenKeys:
    """The signing secret from the environment (local) or Secrets Manager (AWS)."""
    secret = os.environ.get("TOKEN_SECRET")
    if secret:
        return secret
    arn = os.environ.get("TOKEN_SECRET_ARN")
    if arn:
        return _source_of(arn).get()
    raise RuntimeError("no token secret configured: set TOKEN_SECRET or TOKEN_SECRET_ARN")
