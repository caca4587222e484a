"""Local accounts: who may have a token for a name, decided against the store.

- A name no one has, with a password the server takes for a new one
  (:func:`~numbridge.local.accounts.passwords.password_problem`): the account is made.
- An account: its password, else ``bad_password``; a disabled one, given its right
  password: ``disabled``.
- A name that is somebody's without a password of this server — a record made by an
  operator token's first connect (``numbridge token``, ``numbridge bot``), a Cognito
  player, a player with games from before records — is nobody's to claim by signing
  in: it answers as a wrong password does. The host gives it a password
  (``numbridge account reset``). Only on a one-person machine (``--open-sign-in``) does
  a password sent for a record without one set it, and then only while it has none
  (:meth:`~numbridge.store.accounts.Accounts.set_first_password`: of two claims at
  once one wins).
- With open sign-in, a name alone gets a token, as before accounts; a password, if
  sent, is still checked.

A name's existence is not told by what a refusal says or by the work before it: a
password the server would not take for a new account is ``weak_password`` for every
name, after the same Argon2 check (against a dummy hash when the name has none), and
a name that is somebody's without a password, or disabled, answers a wrong password
as ``bad_password``. What remains is by design: a name no one has, with a good
password, makes the account — so signing up tells whether a name was free.

Everything here is blocking (store reads, Argon2): :mod:`numbridge.local.accounts.sign_in`
runs it off the event loop.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

from numbridge.auth import DEFAULT_TTL_S, issue_token
from numbridge.local.accounts.passwords import Passwords, WeakPassword, password_problem
from numbridge.names import check_player_name, is_reserved, may_be_a_look_alike, same_player
from numbridge.store.accounts import Account, Accounts, PasswordAlreadySet
from numbridge.store.port import ConflictError
from numbridge.values import frozen

WRONG_PASSWORD = "wrong password for this name"


class SignInRefused(Exception):
    """A sign-in or password change refused: the HTTP status, the wire code, a message;
    ``retry_after_ms`` with ``rate_limited``, ``reason`` with ``weak_password``."""

    def __init__(self, status: int, code: str, message: str,
                 retry_after_ms: int | None = None, reason: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after_ms = retry_after_ms
        self.reason = reason


@frozen
class Granted:
    token: str
    player: str
    created: bool  # a new account
    claimed: bool  # a record without a password given one (open sign-in only)


def checked_name(name: str) -> str:
    if is_reserved(name):
        raise SignInRefused(409, "name_taken", f"names like {name!r} are the club's own")
    try:
        return check_player_name(name)
    except ValueError as exc:
        raise SignInRefused(400, "bad_name", str(exc)) from None


def look_alike(name: str) -> SignInRefused:
    # Before any password is checked: the name is nobody's to have, whatever is sent.
    return SignInRefused(409, "name_taken", f"the name {name!r} looks the same as a "
                         "player's (letters of another script, 0 for o, rn for m): choose "
                         "another")


def weak(problem: WeakPassword) -> SignInRefused:
    return SignInRefused(400, "weak_password", str(problem), reason=problem.reason)


def wrong_password() -> SignInRefused:
    return SignInRefused(401, "bad_password", WRONG_PASSWORD)


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

    def sign_in(self, name: str, password: str | None, *, may_claim: bool = False) -> Granted:
        """A token for ``name``, or :class:`SignInRefused`. ``password`` None: open sign-in;
        ``may_claim``: a password sent for a record without one sets it (open sign-in)."""
        name = self._name(name)
        if password is None:
            return self._by_name(name)
        problem = password_problem(password, name)
        account = self._record(name)
        if account is None and problem is None and self._free(name):
            made = Account(name=name, created_ms=self._clock_ms(),
                           password_hash=self.passwords.hash(password, name))
            if self.accounts.add(made):
                return Granted(self._token(made), name, True, False)
            account = self._record(name)  # made meanwhile: a sign-in to that one
        if (may_claim and problem is None and account is not None and account.sub is None
                and account.password_hash is None and not account.disabled):
            try:
                claimed = self.accounts.set_first_password(
                    account.name, self.passwords.hash(password, name))
            except PasswordAlreadySet:  # another claim won: its password decides
                account = self.accounts.get(name)
            else:
                return Granted(self._token(claimed), claimed.name, False, True)
        return self._checked(account, password, problem)

    def _checked(self, account: Account | None, password: str,
                 problem: WeakPassword | None) -> Granted:
        """The token of ``account`` if ``password`` is its own; refused otherwise, after
        one Argon2 check whether or not there is a hash to check."""
        stored = None if account is None or account.sub is not None else account.password_hash
        if not self.passwords.matches(stored, password):
            raise weak(problem) if problem is not None else wrong_password()
        assert account is not None and stored is not None
        if account.disabled:
            raise SignInRefused(403, "disabled", "this account is disabled; ask the host")
        self._rehash(account, stored, password)
        return Granted(self._token(account), account.name, False, False)

    def _rehash(self, account: Account, stored: str, password: str) -> None:
        """A hash made with other parameters than today's, made again now that the password
        is known (a best effort: the sign-in stands whatever happens here)."""
        if self.passwords.needs_rehash(stored):
            with contextlib.suppress(ConflictError):
                self.accounts.rehash(account.name, stored, self.passwords.hash_again(password))

    def _name(self, name: str) -> str:
        """``name`` held to the rule; one refused only for its scripts or forms that folds
        to a player's name is that name, taken (``name_taken``), not merely a bad one."""
        try:
            return checked_name(name)
        except SignInRefused:
            if may_be_a_look_alike(name) and self.accounts.get(name) is not None:
                raise look_alike(name) from None
            raise

    def _record(self, name: str) -> Account | None:
        """The record of ``name``; ``name_taken`` if it is a look-alike's (``\u0430na``,
        a Cyrillic ``a`` first, when ``ana`` has one)."""
        account = self.accounts.get(name)
        if account is not None and not same_player(account.name, name):
            raise look_alike(name)
        return account

    def _earlier(self, name: str) -> str | None:
        """The spelling of a player from before records who is ``name``; ``name_taken``
        if such a player is only a look-alike of it."""
        earlier = self.accounts.earlier_player(name)
        if earlier is not None and not same_player(earlier, name):
            raise look_alike(name)
        return earlier

    def _free(self, name: str) -> bool:
        """Whether nobody has ``name`` (no record, checked by the caller; no games from
        before records under any spelling)."""
        return self._earlier(name) is None

    def _by_name(self, name: str) -> Granted:
        """Open sign-in: the record of ``name`` (made without a password if it has none)."""
        account = self._record(name)
        if account is None:
            made = Account(name=self._earlier(name) or name,
                           created_ms=self._clock_ms())
            if self.accounts.add(made):
                return Granted(self._token(made), made.name, made.name == name, False)
            return self._by_name(name)
        if account.disabled:
            raise SignInRefused(403, "disabled", "this account is disabled; ask the host")
        if account.sub is not None:
            raise SignInRefused(409, "name_taken", "this name is a Cognito player's")
        return Granted(self._token(account), account.name, False, False)

    def change_password(self, name: str, password: str, new_password: str) -> None:
        """Replace the password; every earlier token of the player stops working. A new
        password the server would not take is refused before the name is looked up."""
        name = self._name(name)
        if (problem := password_problem(new_password, name)) is not None:
            raise weak(problem)
        account = self._record(name)
        stored = None if account is None or account.sub is not None else account.password_hash
        if not self.passwords.matches(stored, password):
            raise wrong_password()
        assert account is not None
        if account.disabled:
            raise SignInRefused(403, "disabled", "this account is disabled; ask the host")
        self.accounts.set_password(account.name, self.passwords.hash(new_password, name))
