"""Local accounts' passwords: Argon2id hashes (argon2-cffi), and what a password must be.

Hashing and checking are slow on purpose (RFC 9106's second recommended profile,
argon2-cffi's default: 64 MiB, 3 passes): a stolen database then costs that
much per guess. The server runs them off its event loop
(:mod:`numbridge.local.accounts.sign_in`).

A new password (ASVS 5.0, V6.2): 8 to 128 characters (15 or more advised), and not a
common or guessable one — zxcvbn's estimate (its own lists of common passwords, words
and names, keyboard patterns, dates; the player's name counts as known) must reach a
million guesses. No network, no composition rules.

A stored hash is checked only if its cost is within :data:`HASH_BOUNDS` (one crafted
hash of 4 GiB and four billion passes would take the machine for one sign-in); a
hash made with other parameters than today's is made again at the next sign-in
that proves the password (:meth:`Passwords.needs_rehash`).
"""

from __future__ import annotations

import functools
import secrets
import threading
from typing import Final, Literal

from argon2 import PasswordHasher, Type, extract_parameters
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from numbridge.values import frozen

MIN_PASSWORD_CHARS: Final = 8
ADVISED_PASSWORD_CHARS: Final = 15
MAX_PASSWORD_CHARS: Final = 128
# zxcvbn's score 2: "somewhat guessable", at least 10^6 guesses; below that its
# common-password lists, repeats and sequences (score 0-1).
MIN_SCORE: Final = 2
# zxcvbn's time grows with the length (0.4 s for 128 characters): it rates a prefix. A
# password whose first 64 characters are guessable is refused whatever follows.
RATED_CHARS: Final = 64
# A password `numbridge account reset` prints: 16 characters of a 32-letter alphabet.
_ALPHABET: Final = "abcdefghjkmnpqrstuvwxyz23456789"

Reason = Literal["short", "long", "common"]


@frozen
class HashBounds:
    """The Argon2 costs this server checks a stored hash with: its own parameters fit
    (and the cheap ones of tests), nothing costlier than a few sign-ins' worth."""

    max_memory_kib: int = 256 * 1024
    max_time_cost: int = 10
    max_parallelism: int = 16
    max_hash_len: int = 64
    max_salt_len: int = 64


HASH_BOUNDS: Final = HashBounds()


class WeakPassword(ValueError):
    """A new password the server refuses: ``reason`` says which rule (short, long,
    common), the message says it to the player."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason: Reason = reason


class HashOutOfBounds(ValueError):
    """A stored hash this server will not check: no Argon2id hash, or one whose cost is
    outside :data:`HASH_BOUNDS`."""


def check_hash(password_hash: str, bounds: HashBounds = HASH_BOUNDS) -> str:
    """``password_hash`` if it is an Argon2id hash within ``bounds``; else
    :class:`HashOutOfBounds` saying why."""
    try:
        p = extract_parameters(password_hash)
    except InvalidHashError:
        raise HashOutOfBounds("no Argon2 hash (damaged?)") from None
    if p.type is not Type.ID:
        raise HashOutOfBounds(f"an Argon2{p.type.name.lower()} hash: this club keeps Argon2id")
    limits = (("memory_cost", p.memory_cost, bounds.max_memory_kib),
              ("time_cost", p.time_cost, bounds.max_time_cost),
              ("parallelism", p.parallelism, bounds.max_parallelism),
              ("hash_len", p.hash_len, bounds.max_hash_len),
              ("salt_len", p.salt_len, bounds.max_salt_len))
    for what, value, limit in limits:
        if value > limit:
            raise HashOutOfBounds(f"an Argon2 {what} of {value}: this club checks at most "
                                  f"{limit}")
    return password_hash


class Passwords:
    def __init__(self, hasher: PasswordHasher | None = None,
                 bounds: HashBounds = HASH_BOUNDS) -> None:
        self._hasher = hasher or PasswordHasher()
        self._bounds = bounds

    @functools.cached_property
    def _dummy(self) -> str:
        """Checked when there is no hash to check: an unknown name costs what a known one
        does."""
        return self._hasher.hash(secrets.token_hex(16))

    def hash(self, password: str, name: str = "") -> str:
        return self._hasher.hash(check_new_password(password, name))

    def hash_again(self, password: str) -> str:
        """The hash of a password already proven (a rehash): no rule of new passwords."""
        return self._hasher.hash(password)

    def matches(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` is the one of ``password_hash``. None (no password), or a
        hash out of bounds: a hash's worth of work all the same, and False."""
        try:
            checked = None if password_hash is None else check_hash(password_hash,
                                                                    self._bounds)
        except HashOutOfBounds:
            checked = None
        try:
            return self._hasher.verify(checked or self._dummy, password) and bool(checked)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, password_hash: str) -> bool:
        """Whether a hash was made with other parameters than today's."""
        try:
            return self._hasher.check_needs_rehash(password_hash)
        except InvalidHashError:
            return True


def check_new_password(password: str, name: str = "") -> str:
    """``password`` if it may be a new password (of the player ``name``), else
    :class:`WeakPassword`."""
    problem = password_problem(password, name)
    if problem is not None:
        raise problem
    return password


_RATING = threading.Lock()  # zxcvbn keeps each call's user inputs in a module global


def password_problem(password: str, name: str = "") -> WeakPassword | None:
    """Why ``password`` may not be a new password, or None."""
    if len(password) < MIN_PASSWORD_CHARS:
        return WeakPassword("short", f"a password needs at least {MIN_PASSWORD_CHARS} "
                            f"characters ({ADVISED_PASSWORD_CHARS} or more is better)")
    if len(password) > MAX_PASSWORD_CHARS:
        return WeakPassword("long", f"a password has at most {MAX_PASSWORD_CHARS} characters")
    from zxcvbn import zxcvbn  # its lists load on first use, not with every command

    with _RATING:
        rated = zxcvbn(password[:RATED_CHARS], user_inputs=[name, "numbridge"],
                       max_length=RATED_CHARS)
    if int(rated["score"]) >= MIN_SCORE:
        return None
    warning = str(rated["feedback"]["warning"] or "").rstrip(".")
    return WeakPassword("common", "this password is easy to guess"
                        + (f" ({warning})" if warning else "") + ": choose another")


def new_password() -> str:
    """A random password for a reset (80 bits)."""
    return "".join(secrets.choice(_ALPHABET) for _ in range(16))
