"""Amazon Cognito user-pool tokens (RS256): the signing keys from the pool's JWKS.

A token is trusted when its signature verifies with the pool's key of that
``kid``, it is not expired, its issuer is the pool, ``token_use`` is ``id`` or
``access`` and it was issued to our app client (``aud`` of an ID token,
``client_id`` of an access token). The player is the Cognito username:
``cognito:username`` in an ID token, ``username`` in an access token. Not
``preferred_username``: a user may change it and two users may share it.

Only :mod:`numbridge.auth` calls this; it decides which kind a token is.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from numbridge.names import check_player_name
from numbridge.refreshing import Refreshing
from numbridge.values import frozen

if TYPE_CHECKING:
    import jwt

# PyJWT (with cryptography) is imported where a token is checked: the functions
# that only build the services never pay for it.

ALGORITHM: Final = "RS256"
TOKEN_USES: Final = frozenset({"id", "access"})
JWKS_MAX_AGE_S: Final = 3600.0
# A token naming a key we do not have refetches the JWKS at most this often.
JWKS_MIN_REFETCH_S: Final = 60.0
JWKS_MAX_BYTES: Final = 1 << 20


class InvalidCognitoToken(ValueError):
    """Forged, expired, for another pool or client, or naming no valid player."""


class KeysUnavailable(RuntimeError):
    """The pool's JWKS could not be fetched, and no earlier copy is fresh enough."""


@frozen
class CognitoPool:
    """A user pool and the app client whose tokens we accept."""

    user_pool_id: str
    client_id: str

    @property
    def region(self) -> str:
        # A pool id is "<region>_<suffix>", e.g. "eu-west-1_AbCdEf123".
        return self.user_pool_id.split("_", 1)[0]

    @property
    def issuer(self) -> str:
        return f"https://cognito-idp.{self.region}.amazonaws.com/{self.user_pool_id}"

    @property
    def jwks_url(self) -> str:
        return f"{self.issuer}/.well-known/jwks.json"

    @classmethod
    def from_environment(cls, env: Mapping[str, str] = os.environ) -> CognitoPool | None:
        """``COGNITO_USER_POOL_ID`` and ``COGNITO_CLIENT_ID``; ``None`` if Cognito is off."""
        pool_id = env.get("COGNITO_USER_POOL_ID", "")
        client_id = env.get("COGNITO_CLIENT_ID", "")
        if not pool_id and not client_id:
            return None
        if "_" not in pool_id or not client_id:
            raise ValueError(
                "set both COGNITO_USER_POOL_ID (REGION_ID) and COGNITO_CLIENT_ID, or neither"
            )
        return cls(pool_id, client_id)


def fetch_url(url: str, timeout_s: float = 3.0) -> bytes:
    """GET ``url`` (the JWKS); an exception for anything but a 200 of at most 1 MB."""
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout_s) as response:
        body: bytes = response.read(JWKS_MAX_BYTES + 1)
    if len(body) > JWKS_MAX_BYTES:
        raise ValueError(f"{url}: a JWKS over {JWKS_MAX_BYTES} bytes")
    return body


class Jwks:
    """A pool's signing keys by ``kid``: fetched on first use, again after ``max_age_s``,
    and once more (at most every ``min_refetch_s``) when a token names a ``kid`` not seen."""

    def __init__(
        self,
        url: str,
        fetch: Callable[[str], bytes] = fetch_url,
        *,
        max_age_s: float = JWKS_MAX_AGE_S,
        min_refetch_s: float = JWKS_MIN_REFETCH_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url = url
        self.min_refetch_s = min_refetch_s
        self._keys: Refreshing[dict[str, jwt.PyJWK]] = Refreshing(
            lambda: _parse_jwks(fetch(url)), max_age_s=max_age_s, clock=clock, what=url,
        )

    @property
    def fetches(self) -> int:
        return self._keys.fetches

    def key(self, kid: str) -> jwt.PyJWK:
        try:
            keys = self._keys.get()
        except Exception as exc:
            raise KeysUnavailable(f"cannot fetch {self.url}: {exc}") from exc
        if kid not in keys and self._keys.refresh(unless_younger_than_s=self.min_refetch_s):
            keys = self._keys.get()
        try:
            return keys[kid]
        except KeyError:
            raise InvalidCognitoToken(f"no key {kid[:64]!r} in the pool's JWKS") from None


def _parse_jwks(body: bytes) -> dict[str, jwt.PyJWK]:
    import jwt

    data = json.loads(body)
    keys: dict[str, jwt.PyJWK] = {}
    for entry in data.get("keys", []) if isinstance(data, dict) else []:
        if not isinstance(entry, dict) or entry.get("use", "sig") != "sig":
            continue
        if entry.get("kty") != "RSA" or entry.get("alg", ALGORITHM) != ALGORITHM:
            continue
        kid = entry.get("kid")
        if isinstance(kid, str):
            keys[kid] = jwt.PyJWK(entry, algorithm=ALGORITHM)
    if not keys:
        raise ValueError("the JWKS holds no RS256 signing key")
    return keys


class CognitoVerifier:
    """Checks a pool's tokens and names their player."""

    def __init__(
        self,
        pool: CognitoPool,
        jwks: Jwks | None = None,
        *,
        token_uses: frozenset[str] = TOKEN_USES,
        leeway_s: float = 0.0,
    ) -> None:
        self.pool = pool
        self.jwks = jwks if jwks is not None else Jwks(pool.jwks_url)
        self.token_uses = token_uses
        self.leeway_s = leeway_s

    def claims(self, token: str) -> dict[str, Any]:
        """The verified claims; :class:`InvalidCognitoToken` (or :class:`KeysUnavailable`)."""
        import jwt

        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError as exc:
            raise InvalidCognitoToken(str(exc)) from exc
        kid = header.get("kid")
        if header.get("alg") != ALGORITHM or not isinstance(kid, str):
            raise InvalidCognitoToken("a Cognito token is RS256 and names its key (kid)")
        key = self.jwks.key(kid)
        try:
            claims: dict[str, Any] = jwt.decode(
                token,
                key.key,
                algorithms=[ALGORITHM],
                issuer=self.pool.issuer,
                leeway=self.leeway_s,
                # The audience claim differs by token_use: checked below.
                options={"require": ["exp", "iat", "iss", "sub", "token_use"],
                         "verify_aud": False},
            )
        except jwt.PyJWTError as exc:
            raise InvalidCognitoToken(str(exc)) from exc
        use = claims["token_use"]
        if use not in self.token_uses:
            raise InvalidCognitoToken(f"token_use {use!r} is not accepted")
        audience = claims.get("aud") if use == "id" else claims.get("client_id")
        if audience != self.pool.client_id:
            raise InvalidCognitoToken("the token was issued to another app client")
        return claims

    def player(self, token: str) -> str:
        """The player a token names (its Cognito username)."""
        return self.player_of(self.claims(token))

    @staticmethod
    def player_of(claims: dict[str, Any]) -> str:
        """The player verified claims name (the Cognito username)."""
        name = claims.get("cognito:username" if claims["token_use"] == "id" else "username")
        if not isinstance(name, str):
            raise InvalidCognitoToken("the token names no username")
        return check_cognito_name(name)


def check_cognito_name(name: str) -> str:
    """``name`` if a Cognito user may play under it; :class:`InvalidCognitoToken` if not."""
    try:
        return check_player_name(name)  # the bots' names included (numbridge.names)
    except ValueError as exc:
        raise InvalidCognitoToken(str(exc)) from exc
