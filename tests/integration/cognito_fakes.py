"""A stand-in Cognito user pool: RSA keys of our own, their JWKS, and tokens shaped like
Cognito's (ID and access), signed by whichever key a test wants."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm
from numbridge.cognito import CognitoPool

POOL = CognitoPool(user_pool_id="eu-west-1_TestPool1", client_id="client0123456789abcdef")
OTHER_POOL = CognitoPool(user_pool_id="eu-west-1_OtherPool", client_id=POOL.client_id)

_keys: dict[str, rsa.RSAPrivateKey] = {}


def private_key(kid: str) -> rsa.RSAPrivateKey:
    """One RSA key per kid for the whole test run (generating one takes ~50 ms)."""
    if kid not in _keys:
        _keys[kid] = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return _keys[kid]


def jwk(kid: str) -> dict[str, Any]:
    public = RSAAlgorithm.to_jwk(private_key(kid).public_key(), as_dict=True)
    return {**public, "kid": kid, "alg": "RS256", "use": "sig"}


@dataclass
class FakeJwksEndpoint:
    """What the pool's /.well-known/jwks.json serves (change ``kids`` to rotate)."""

    kids: list[str] = field(default_factory=lambda: ["key-1", "key-2"])
    fetched: list[str] = field(default_factory=list)
    down: bool = False

    def body(self) -> bytes:
        return json.dumps({"keys": [jwk(kid) for kid in self.kids]}).encode()

    def __call__(self, url: str) -> bytes:
        self.fetched.append(url)
        if self.down:
            raise OSError("connection refused")
        return self.body()


def cognito_token(
    username: str = "ana",
    *,
    sub: str | None = None,
    use: str = "id",
    kid: str = "key-1",
    sign_with: str | None = None,
    pool: CognitoPool = POOL,
    client_id: str | None = None,
    lifetime_s: int = 3600,
    now: float | None = None,
    **extra: Any,
) -> str:
    """A token as Cognito issues it; ``sign_with`` another kid's key to forge one. The
    pool user's ``sub``: a new one each call unless given (one user's tokens share it)."""
    issued = int(time.time() if now is None else now)
    claims: dict[str, Any] = {
        "sub": sub or str(uuid.uuid4()),
        "iss": pool.issuer,
        "token_use": use,
        "auth_time": issued,
        "iat": issued,
        "exp": issued + lifetime_s,
        "jti": str(uuid.uuid4()),
        "origin_jti": str(uuid.uuid4()),
        "event_id": str(uuid.uuid4()),
    }
    client = pool.client_id if client_id is None else client_id
    if use == "access":
        claims.update(client_id=client, username=username, scope="openid email")
    else:
        claims.update({"aud": client, "cognito:username": username, "email": f"{username}@x.test",
                       "email_verified": True})
    claims.update(extra)
    claims = {k: v for k, v in claims.items() if v is not None}
    key = private_key(sign_with or kid)
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": kid})


def sign_up_event(username: str) -> dict[str, Any]:
    """The event of Cognito's pre sign-up trigger for ``username``."""
    return {
        "version": "1", "region": "eu-west-1", "userPoolId": POOL.user_pool_id,
        "userName": username, "triggerSource": "PreSignUp_SignUp",
        "callerContext": {"awsSdkVersion": "aws-sdk-unknown", "clientId": POOL.client_id},
        "request": {"userAttributes": {"email": f"{username}@x.test"}},
        "response": {"autoConfirmUser": False, "autoVerifyEmail": False,
                     "autoVerifyPhone": False},
    }
