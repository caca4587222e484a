"""Players' records on every adapter: one per name after folding, the first spelling kept,
the generation moved on by a new password, a revoke and a disable."""

from __future__ import annotations

import threading
from typing import Any, cast

import pytest
from numbridge.names import fold_name
from numbridge.store import keys
from numbridge.store.accounts import (
    Account,
    Accounts,
    NoSuchAccount,
    NotThisPoolUser,
    PasswordAlreadySet,
)
from numbridge.store.port import ListingStore, Store


def test_a_record_reads_back_under_any_case_of_its_name(store: Store) -> None:
    accounts = Accounts(store)
    made = Account(name="Ana", created_ms=1_700_000_000_000, password_hash="$argon2id$x")
    assert accounts.add(made)
    for spelling in ("Ana", "ana", "ANA", "aNa"):
        assert accounts.get(spelling) == made
    assert accounts.get("bob") is None


def test_names_are_unique_after_folding_and_the_first_spelling_is_kept(store: Store) -> None:
    accounts = Accounts(store)
    assert accounts.add(Account(name="Ana", created_ms=1))
    assert not accounts.add(Account(name="ana", created_ms=2, password_hash="h"))
    assert not accounts.add(Account(name="ANA", created_ms=3))
    assert accounts.get("ana") == Account(name="Ana", created_ms=1)
    assert accounts.ensure("aNA", 9).name == "Ana"


def test_concurrent_registrations_of_one_name_leave_one_winner(store: Store) -> None:
    accounts = Accounts(store)
    spellings = ["zed", "Zed", "ZED", "zEd", "zeD", "ZEd"]
    won: list[str] = []
    barrier = threading.Barrier(len(spellings))

    def register(name: str) -> None:
        barrier.wait()
        if accounts.add(Account(name=name, created_ms=1, password_hash=f"hash of {name}")):
            won.append(name)

    threads = [threading.Thread(target=register, args=(n,)) for n in spellings]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1
    assert accounts.get("zed") == Account(name=won[0], created_ms=1,
                                          password_hash=f"hash of {won[0]}")


def test_a_new_password_revoke_and_disable_move_the_generation_on(store: Store) -> None:
    accounts = Accounts(store)
    accounts.add(Account(name="ana", created_ms=1, password_hash="old"))
    assert accounts.set_password("ANA", "new").generation == 1
    assert accounts.get("ana") == Account(name="ana", created_ms=1, generation=1,
                                          password_hash="new")
    assert accounts.revoke("ana").generation == 2
    disabled = accounts.set_disabled("ana", True)
    assert disabled.disabled and disabled.generation == 3
    enabled = accounts.set_disabled("ana", False)
    assert not enabled.disabled and enabled.generation == 3
    assert accounts.get("ana") == enabled


def test_changing_a_missing_record_is_no_such_account(store: Store) -> None:
    with pytest.raises(NoSuchAccount):
        Accounts(store).revoke("nobody")
    assert Accounts(store).get("nobody") is None


def test_a_pool_record_is_made_with_its_sub_and_never_given_another(store: Store) -> None:
    accounts = Accounts(store)
    assert accounts.ensure_pool("ana", "sub-1", 5).sub == "sub-1"
    assert accounts.ensure_pool("ANA", "sub-2", 6).sub == "sub-1"  # returned as it is
    assert accounts.get("ana") == Account(name="ana", created_ms=5, sub="sub-1")


def test_a_pool_user_never_gets_a_record_made_otherwise(store: Store) -> None:
    accounts = Accounts(store)
    accounts.ensure("bob", 5)  # an operator's player
    assert accounts.ensure_pool("bob", "sub-1", 6).sub is None  # the caller refuses it
    store.put({"pk": keys.player("cy"), "sk": keys.rating("blitz"), "rating": 1500})
    with pytest.raises(NotThisPoolUser):  # games from before records
        accounts.ensure_pool("cy", "sub-1", 7)
    assert accounts.get("cy") is None


def test_every_record_is_listed_in_folded_order_across_pages(store: Store) -> None:
    accounts = Accounts(store)
    names = [f"P{n:03d}" for n in range(130)] + ["alice", "Bob"]
    for n, name in enumerate(names):
        accounts.add(Account(name=name, created_ms=n))
    listed = [a.name for a in accounts.all()]
    assert listed == sorted(names, key=fold_name)


def test_a_player_from_before_records_is_found_by_their_data(store: Store) -> None:
    accounts = Accounts(store)
    store.put({"pk": keys.player("Ana"), "sk": keys.rating("classic"), "rating": 1500})
    assert accounts.earlier_player("Ana") == "Ana"
    assert accounts.earlier_player("bob") is None
    assert isinstance(store, ListingStore)  # both adapters list: any spelling is found
    assert accounts.earlier_player("ANA") == "Ana"


class BothReadFirst:
    """A store whose first write from each of two threads waits until both threads got
    there: each has read the record before either writes."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._barrier = threading.Barrier(2)
        self._waited: set[int] = set()

    def put(self, item: Any, condition: Any = None) -> None:
        if threading.get_ident() not in self._waited:
            self._waited.add(threading.get_ident())
            self._barrier.wait(timeout=30)
        self._store.put(item, condition)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_of_two_first_passwords_at_once_one_wins_and_the_other_is_refused(
        store: Store) -> None:
    """Before: a claim was a read-modify-write retried on conflict, so the second claim
    read the first one's password and wrote its own over it (both told they won)."""
    Accounts(store).ensure("ana", 1)  # an operator-token player: no password
    racing = Accounts(cast(Store, BothReadFirst(store)))
    won: list[str] = []
    refused: list[str] = []

    def claim(password_hash: str) -> None:
        try:
            racing.set_first_password("ana", password_hash)
            won.append(password_hash)
        except PasswordAlreadySet:
            refused.append(password_hash)

    threads = [threading.Thread(target=claim, args=(h,)) for h in ("hash one", "hash two")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1 and len(refused) == 1
    assert Accounts(store).get("ana") == Account(name="ana", created_ms=1, generation=1,
                                                 password_hash=won[0])
    with pytest.raises(PasswordAlreadySet):  # and later: the host's reset only
        Accounts(store).set_first_password("ANA", "hash three")


def test_a_rehash_keeps_the_generation_and_yields_to_a_new_password(store: Store) -> None:
    """Caught: a rehash moved the generation on (every token of the player ended at a
    sign-in), or wrote over a password changed since the sign-in read the old one."""
    accounts = Accounts(store)
    accounts.add(Account(name="ana", created_ms=1, generation=4, password_hash="weak"))
    assert accounts.rehash("ana", "weak", "strong")
    assert accounts.get("ana") == Account(name="ana", created_ms=1, generation=4,
                                          password_hash="strong")
    assert not accounts.rehash("ana", "weak", "stale")  # changed meanwhile: left alone
    assert not accounts.rehash("nobody", "weak", "strong")
    assert accounts.get("ana") == Account(name="ana", created_ms=1, generation=4,
                                          password_hash="strong")
