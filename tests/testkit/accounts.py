"""Local accounts in tests: a cheap Argon2id (the same code path, a few KiB and one
pass instead of 64 MiB and three) and the sign-in routes over a store."""

from __future__ import annotations

from argon2 import PasswordHasher
from numbridge.local.accounts.attempts import Attempts
from numbridge.local.accounts.passwords import Passwords
from numbridge.local.accounts.sign_in import LocalSignIn
from numbridge.local.accounts.signing import SignIns
from numbridge.local.apigateway.origins import NO_PROXIES, TrustedProxies
from numbridge.store.accounts import Accounts
from numbridge.store.port import Store

PASSWORD = "correct horse battery"


def cheap_passwords() -> Passwords:
    return Passwords(PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))


def local_sign_in(store: Store, secret: str, *, open_sign_in: bool = False,
                  attempts: Attempts | None = None,
                  proxies: TrustedProxies = NO_PROXIES,
                  passwords: Passwords | None = None) -> LocalSignIn:
    return LocalSignIn(SignIns(Accounts(store), secret, passwords or cheap_passwords()),
                       open_sign_in=open_sign_in, attempts=attempts, proxies=proxies)
