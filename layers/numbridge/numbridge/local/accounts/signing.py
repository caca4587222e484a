"""Local accounts: who may have a token for a name, decided against the store.

- A name no one has: the account is made with the password (at least
  :data:`~numbridge.local.accounts.passwords.MIN_PASSWORD_CHARS` characters). If the
  store already holds that player's games or ratings (a data directory from
  before accounts), the account keeps the player's spelling and the answer
  says ``claimed``.
- A player's record without a password (a player who so far used operator
  tokens, or name-only sign-in): the first password sign-in claims it; the
  earlier tokens stop working.
- An account: its password, else ``bad_password``. A disabled one: refused.
- With open sign-in (``--open-sign-in``, a one-person machine), a name alone
  gets a token, as before accounts; a password, if sent, is still checked.

Everything here is blocking (store reads, Argon2): :mod:`numbridge.local.accounts.sign_in`
runs it off the event loop.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from numbridge.auth import DEFAULT_TTL_S, issue_token
from numbridge.local.accounts.passwords import Passwords, WeakPassword, check_new_password
from numbridge.names import check_player_name, fold_name, is_reserved
from numbridge.store.accounts import Account, Accounts
from numbridge.values import frozen


class SignInRefused(Exception):
    """A sign-in or password change refused: the HTTP status, the wire code, a message."""

    def __init__(self, status: int, code: str, message: str,
                 retry_after_ms: int | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after_ms = retry_after_ms


@frozen
class Granted:
    token: str
    player: str
    created: bool  # a new account
    claimed: bool  # an earlier player's name, now an account


def checked_name(name: str) -> str:
    if is_reserved(name):
        raise SignInRefused(409, "name_taken", f"names like {name!r} are the club's own")
    try:
        return check_player_name(name)
    except ValueError as exc:
        raise SignInRefused(400, "bad_name", str(exc)) from None


def _new_password(password: str) -> str:
    try:
        return check_new_password(password)
    except WeakPassword as exc:
        raise SignInRefused(400, "weak_password", str(exc)) from None


class SignIns:
    def __init__(self, accounts: Accounts, secret: str, passwords: Passwords | None = None, *,
                 ttl_s: int = DEFAULT_TTL_S,
                 clock_ms: Callable[[], int] = lambda: time.time_ns() // 1_000_000) -> None:
        self.accounts = accounts
        self.passwords = passwords or Passwords()
        self._secret = secret
        self._ttl_s = ttl_s
        self._clock_ms = clock_ms

    def _token(self, account: Account) -> str:
        return issue_token(account.name, self._secret, ttl_s=self._ttl_s,
                           generation=account.generation)

    def sign_in(self, name: str, password: str | None) -> Granted:
        """A token for ``name`` (``password`` None: open sign-in), or :class:`SignInRefused`
        (a wrong password is ``bad_password``, to be counted by the caller)."""
        name = checked_name(name)
        account = self.accounts.get(name)
        if account is None:
            return self._first(name, password)
        if account.disabled:
            raise SignInRefused(403, "disabled", "this account is disabled; ask the host")
        if account.sub is not None:
            raise SignInRefused(409, "name_taken", "this name is a Cognito player's")
        if password is None:
            return Granted(self._token(account), account.name, False, False)
        if account.password_hash is None:  # claimed: tokens from before it stop working
            claimed = self.accounts.set_password(
                account.name, self.passwords.hash(_new_password(password)))
            return Granted(self._token(claimed), claimed.name, False, True)
        if not self.passwords.matches(account.password_hash, password):
            raise SignInRefused(401, "bad_password", "wrong password for this name")
        return Granted(self._token(account), account.name, False, False)

    def _first(self, name: str, password: str | None) -> Granted:
        earlier = self.accounts.earlier_player(name)
        player = earlier or name
        password_hash = None if password is None else self.passwords.hash(
            _new_password(password))
        made = Account(name=player, created_ms=self._clock_ms(), password_hash=password_hash)
        if not self.accounts.add(made):  # someone made it meanwhile: sign in to theirs
            return self.sign_in(name, password)
        return Granted(self._token(made), player, earlier is None, earlier is not None)

    def change_password(self, name: str, password: str, new_password: str) -> None:
        """Replace the password; every earlier token of the player stops working."""
        name = checked_name(name)
        account = self.accounts.get(name)
        if account is None or account.password_hash is None:
            raise SignInRefused(401, "bad_password", "no account with this name and password")
        if account.disabled:
            raise SignInRefused(403, "disabled", "this account is disabled; ask the host")
        if not self.passwords.matches(account.password_hash, password):
            raise SignInRefused(401, "bad_password", "wrong password for this name")
        self.accounts.set_password(account.name, self.passwords.hash(
            _new_password(new_password)))

    @staticmethod
    def bucket(name: str) -> str:
        """The failure bucket of a name: its folded form (``Ana`` and ``ana`` share one)."""
        return fold_name(name)
