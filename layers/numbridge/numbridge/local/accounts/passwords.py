"""Local accounts' passwords: Argon2id hashes (argon2-cffi), and what a password must be.

Hashing and checking are slow on purpose (RFC 9106's second recommended profile,
argon2-cffi's default: 64 MiB, 3 passes): a stolen database then costs that
much per guess. The server runs them off its event loop
(:mod:`numbridge.local.accounts.sign_in`).
"""

from __future__ import annotations

import secrets
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_PASSWORD_CHARS: Final = 8
MAX_PASSWORD_CHARS: Final = 256
# A password `numbridge account reset` prints: 16 characters of a 32-letter alphabet.
_ALPHABET: Final = "abcdefghjkmnpqrstuvwxyz23456789"


class WeakPassword(ValueError):
    """A new password the server refuses (too short, too long)."""


class Passwords:
    def __init__(self, hasher: PasswordHasher | None = None) -> None:
        self._hasher = hasher or PasswordHasher()

    def hash(self, password: str) -> str:
        return self._hasher.hash(check_new_password(password))

    def matches(self, password_hash: str, password: str) -> bool:
        try:
            return self._hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


def check_new_password(password: str) -> str:
    if len(password) < MIN_PASSWORD_CHARS:
        raise WeakPassword(f"a password needs at least {MIN_PASSWORD_CHARS} characters")
    if len(password) > MAX_PASSWORD_CHARS:
        raise WeakPassword(f"a password has at most {MAX_PASSWORD_CHARS} characters")
    return password


def new_password() -> str:
    """A random password for a reset (80 bits)."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(16))
