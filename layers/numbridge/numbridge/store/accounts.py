"""Players' records: one per name after folding, whichever way the player signs in.

A record (``NAME#folded`` / ``ACCOUNT``, :func:`numbridge.names.fold_name`: case and
look-alikes folded) holds
the name as first registered (the one shown), when it was made, the token
generation every token of the player must carry, whether the account is
disabled, and — depending on how the player signs in — the hash of a local
password (``numbridge serve``) or the Cognito pool's ``sub``. A player who has
only ever used operator tokens has a record with neither. A pool user's record is
made with its ``sub`` by that user's first sign-in, and only then: a record without
a ``sub`` is never given one, so a pool user who registers a name that an operator's
player holds cannot become that player (:meth:`Accounts.ensure_pool`).

One record per folded name makes names unique across every way of signing in:
``Ana`` and ``ana`` are one player, whoever came first, and ``\u0430na`` (a Cyrillic
``a``) is nobody's but hers. Records made before look-alikes folded alike are under the name
case-folded only (:func:`numbridge.names.case_fold`): that differs for ASCII names with
``m``, ``0`` or ``1`` (``sam`` folds to ``sarn``). They are looked for there first, and
:meth:`Accounts.rekey` moves them (``numbridge serve`` at its start, ``numbridge account
rekey`` for a DynamoDB table). The records are also in
the index under one partition (``ACCOUNTS``), so that ``numbridge account list``
reads them on every adapter (an account changes seldom: the partition is cold).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from numbridge.names import case_fold, fold_name
from numbridge.store import keys
from numbridge.store.port import (
    Absent,
    ConflictError,
    Delete,
    Item,
    KeyRange,
    ListingStore,
    Put,
    Store,
    unchanged,
)
from numbridge.values import frozen

# Read-modify-write attempts before giving up on a record others keep changing.
ATTEMPTS = 5


class NoSuchAccount(LookupError):
    """No record of a player by that name (after folding)."""


class PasswordAlreadySet(PermissionError):
    """A first password for a record that has one already (another claim won)."""


class NotThisPoolUser(PermissionError):
    """A pool token for a name that is not that pool user's: a player who signs in
    otherwise (an operator's or local player, with a record or games and no ``sub``)."""


@frozen
class Account:
    name: str  # as first registered: the player's name everywhere
    created_ms: int
    generation: int = 0
    disabled: bool = False
    password_hash: str | None = None
    sub: str | None = None

    @property
    def has_password(self) -> bool:
        return self.password_hash is not None

    def item(self) -> dict[str, str | int | bool | None]:
        folded = fold_name(self.name)
        return {"pk": keys.account(folded), "sk": keys.ACCOUNT, "name": self.name,
                "created_ms": self.created_ms, "generation": self.generation,
                "disabled": True if self.disabled else None,
                "password": self.password_hash, "sub": self.sub,
                "gsi1pk": keys.ACCOUNTS, "gsi1sk": folded}

    @classmethod
    def of(cls, item: Item) -> Account:
        password, sub = item.get("password"), item.get("sub")
        return cls(name=str(item["name"]), created_ms=int(item["created_ms"]),
                   generation=int(item.get("generation", 0)),
                   disabled=item.get("disabled") is True,
                   password_hash=None if password is None else str(password),
                   sub=None if sub is None else str(sub))


class Accounts:
    def __init__(self, store: Store) -> None:
        self.store = store

    @staticmethod
    def key(name: str) -> tuple[str, str]:
        return keys.account(fold_name(name)), keys.ACCOUNT

    @staticmethod
    def earlier_key(name: str) -> tuple[str, str] | None:
        """Where a record of ``name`` made before look-alikes folded alike may be, if
        that is not :meth:`key`: the ASCII name case-folded (``NAME#sam``)."""
        folded = case_fold(name)
        if folded.isascii() and folded != fold_name(name):
            return keys.account(folded), keys.ACCOUNT
        return None

    def _item(self, name: str) -> Item | None:
        # The earlier key first: a record left there by rekey (its new key was another
        # name's, both from before) is this name's, the other record is not.
        if (earlier := self.earlier_key(name)) is not None and (
                item := self.store.get(*earlier)) is not None:
            return item
        return self.store.get(*self.key(name))

    def get(self, name: str) -> Account | None:
        """The record of ``name`` in any case, or of its look-alike's, or None: the
        caller compares the record's name (:func:`numbridge.names.same_player`)."""
        item = self._item(name)
        return None if item is None else Account.of(item)

    def add(self, account: Account) -> bool:
        """Store a new record; False if the name (folded) already has one."""
        try:
            self.store.put(account.item(), Absent())
        except ConflictError:
            return False
        return True

    def ensure(self, name: str, now_ms: int) -> Account:
        """The record of ``name``, made (generation 0, no password) if it has none."""
        for _ in range(ATTEMPTS):
            if (found := self.get(name)) is not None:
                return found
            made = Account(name=name, created_ms=now_ms)
            if self.add(made):
                return made
        raise ConflictError(f"the record of {name!r} keeps changing")

    def ensure_pool(self, name: str, sub: str, now_ms: int) -> Account:
        """The record of ``name`` for a pool user of ``sub``: made with that ``sub`` if the
        name has no record and no history; :class:`NotThisPoolUser` if the name has games
        from before records (its player never signed in through the pool: the name is
        not the pool user's to claim). An existing record is returned as it is: the
        caller compares its ``sub``. A pool token never binds to a record it did not make
        itself, so an operator's or a local player's record (no ``sub``) stays theirs."""
        for _ in range(ATTEMPTS):
            if (found := self.get(name)) is not None:
                return found
            if self.has_history(name):
                raise NotThisPoolUser(f"{name!r} has games from before sign-in records: "
                                      "the name is not the pool user's to claim")
            made = Account(name=name, created_ms=now_ms, sub=sub)
            if self.add(made):
                return made
        raise ConflictError(f"the record of {name!r} keeps changing")

    def has_history(self, name: str) -> bool:
        """Whether the player spelt ``name`` has anything in the store (games, ratings):
        one query of a single item, for any adapter."""
        return bool(self.store.query(keys.player(name), KeyRange(), limit=1).items)

    def update(self, name: str, change: Callable[[Account], Account]) -> Account:
        """Apply ``change`` to the stored record (read, then written only if unchanged);
        :class:`NoSuchAccount` if there is none. The record as written."""
        for _ in range(ATTEMPTS):
            item = self._item(name)
            if item is None:
                raise NoSuchAccount(f"no player {name!r}")
            new = change(Account.of(item))
            try:  # where it was found: a record from before moves with rekey only
                self.store.put({**new.item(), "pk": item["pk"],
                                "gsi1sk": item.get("gsi1sk", fold_name(new.name))},
                               unchanged(item))
            except ConflictError:
                continue
            return new
        raise ConflictError(f"the record of {name!r} keeps changing")

    def set_password(self, name: str, password_hash: str) -> Account:
        """A new password (a claim, a change, a reset): the earlier tokens stop working."""
        return self.update(name, lambda a: _replace(a, password_hash=password_hash,
                                                    generation=a.generation + 1))

    def set_first_password(self, name: str, password_hash: str) -> Account:
        """The password of a record that has none (a claim): written only while the record
        still has none, so of two claims at once one wins and the other gets
        :class:`PasswordAlreadySet`. The earlier tokens stop working."""

        def first(account: Account) -> Account:
            if account.password_hash is not None:
                raise PasswordAlreadySet(f"{account.name!r} has a password already")
            return _replace(account, password_hash=password_hash,
                            generation=account.generation + 1)

        return self.update(name, first)

    def rehash(self, name: str, old_hash: str, new_hash: str) -> bool:
        """The same password's hash made again with today's parameters: tokens stay good.
        Written only over ``old_hash``; False if the password changed meanwhile."""

        def again(account: Account) -> Account:
            if account.password_hash != old_hash:
                raise PasswordAlreadySet(f"{account.name!r} has another password now")
            return _replace(account, password_hash=new_hash)

        try:
            self.update(name, again)
        except (PasswordAlreadySet, NoSuchAccount):
            return False
        return True

    def revoke(self, name: str) -> Account:
        """Every token of the player stops working."""
        return self.update(name, lambda a: _replace(a, generation=a.generation + 1))

    def set_disabled(self, name: str, disabled: bool) -> Account:
        """Disabling also ends the player's tokens; enabling gives none back."""
        return self.update(name, lambda a: _replace(
            a, disabled=disabled, generation=a.generation + (1 if disabled else 0)))

    def all(self) -> Iterator[Account]:
        """Every record, in folded-name order."""
        return (Account.of(item) for item in self._items())

    def _items(self) -> Iterator[Item]:
        after: str | None = None
        while True:
            page = self.store.query(keys.ACCOUNTS, index=True, after=after)
            yield from page.items
            if page.next is None:
                return
            after = page.next

    def rekey(self) -> tuple[list[str], list[str]]:
        """Move each record kept under its earlier key (:meth:`earlier_key`) to its key,
        in one transaction each (the record as read, else it is left for next time).
        A record whose key is already another's stays, and is still found first
        (:meth:`get`). The names moved, and the names left where they were."""
        moved: list[str] = []
        left: list[str] = []
        for listed in list(self._items()):
            name = str(listed["name"])
            pk, sk = self.key(name)
            if listed["pk"] == pk:
                continue
            # Read again: the index may lag behind the record, and the delete's condition
            # must hold the record as it is.
            item = self.store.get(str(listed["pk"]), sk)
            if item is None:
                continue
            try:
                self.store.transact([Put(Account.of(item).item(), Absent()),
                                     Delete(str(item["pk"]), sk, unchanged(item))])
            except ConflictError:
                left.append(name)
                continue
            moved.append(name)
        return moved, left

    def earlier_player(self, name: str) -> str | None:
        """The spelling of a player who has data in the store (games, ratings) and no
        record yet — a club from before records — if ``name`` is theirs; else None.
        Every spelling is found (``ANA`` finds ``Ana``) on a store that lists its
        partitions (both adapters; on DynamoDB that is a Scan, so only the local
        server's sign-in asks, for a name it has no record of). A look-alike's data
        is found too (``\u0430na`` finds ``ana``): the caller tells the two apart."""
        if self.has_history(name):
            return name
        if not isinstance(self.store, ListingStore):
            return None
        folded, prefix = fold_name(name), keys.player("")
        for pk in self.store.partitions(prefix):
            earlier = pk.removeprefix(prefix)
            if fold_name(earlier) == folded:
                return earlier
        return None


def _replace(account: Account, **changes: object) -> Account:
    return dataclasses.replace(account, **changes)  # type: ignore[arg-type]
