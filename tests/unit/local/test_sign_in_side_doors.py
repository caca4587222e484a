"""The side doors of local sign-in, each shut: guesses that pass the limits by coming at
once, a record without a password claimed by whoever sends one first, names told apart
by what a refusal says or costs, a stored hash of any cost, weak hashes kept, and
common passwords taken."""

from __future__ import annotations

import asyncio
import http.client
import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast

import pytest
from aiohttp.test_utils import make_mocked_request
from argon2 import PasswordHasher, extract_parameters
from argon2.exceptions import VerifyMismatchError
from numbridge.auth import verify_operator
from numbridge.local.accounts.attempts import NAME_BURST, Attempts
from numbridge.local.accounts.passwords import (
    MAX_PASSWORD_CHARS,
    HashOutOfBounds,
    Passwords,
    WeakPassword,
    check_hash,
    check_new_password,
)
from numbridge.local.accounts.sign_in import PATH, LocalSignIn, client_address
from numbridge.local.accounts.signing import SignInRefused, SignIns
from numbridge.local.apigateway.origins import LOOPBACK_PROXIES
from numbridge.local.threaded import ThreadedGateway
from numbridge.store import keys
from numbridge.store.accounts import Account, Accounts
from numbridge.store.port import Store
from numbridge.store.sqlite import SqliteStore
from testkit.accounts import PASSWORD, cheap_passwords

SECRET = "side-doors-test-secret-0123456789abcdef"
GUESS = "a guess that is wrong"
WAIT_S = 30  # how long a test waits for what must happen at once (it fails, never sleeps)


class Counting(Passwords):
    """Cheap Argon2 that counts every hash and check, and can hold the checks of one
    password until released."""

    def __init__(self, hold: str | None = None) -> None:
        super().__init__(PasswordHasher(time_cost=1, memory_cost=64, parallelism=1))
        self.work = 0
        self.hold = hold
        self.held = threading.Event()
        self.release = threading.Event()
        self._lock = threading.Lock()
        self.at_once = 0
        self.most_at_once = 0

    def _counted(self) -> None:
        with self._lock:
            self.work += 1

    def hash(self, password: str, name: str = "") -> str:
        self._counted()
        return super().hash(password, name)

    def matches(self, password_hash: str | None, password: str) -> bool:
        self._counted()
        with self._lock:
            self.at_once += 1
            self.most_at_once = max(self.most_at_once, self.at_once)
        try:
            if password == self.hold:
                self.held.set()
                assert self.release.wait(WAIT_S)
            return super().matches(password_hash, password)
        finally:
            with self._lock:
                self.at_once -= 1


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteStore]:
    opened = SqliteStore(tmp_path / "accounts.db", synchronous="NORMAL")
    yield opened
    opened.close()


def serving(store: Store, passwords: Passwords, open_sign_in: bool = False) -> ThreadedGateway:
    return ThreadedGateway({}, sign_in=LocalSignIn(
        SignIns(Accounts(store), SECRET, passwords), open_sign_in=open_sign_in,
        attempts=Attempts(lambda: 1000.0)))


def call(gw: ThreadedGateway, name: str, password: str) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=WAIT_S)
    try:
        conn.request("POST", PATH, body=json.dumps({"name": name, "password": password}),
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def made(store: Store, name: str, password: str = PASSWORD, **fields: Any) -> None:
    Accounts(store).add(Account(name=name, created_ms=1,
                                password_hash=cheap_passwords().hash(password), **fields))


# ---------------------------------------------------------------- guesses at once


def test_guesses_sent_at_once_are_answered_429_not_queued_and_one_hash_runs_per_name(
        store: SqliteStore) -> None:
    """Before: the buckets were checked before the Argon2 work was queued and charged
    after it ended, so a burst of guesses all passed the check (all 401, none 429)."""
    made(store, "ana")
    passwords = Counting(hold=GUESS)
    with serving(store, passwords) as gw, ThreadPoolExecutor(20) as pool:
        first = pool.submit(call, gw, "ana", GUESS)
        assert passwords.held.wait(WAIT_S)
        # the first guess's check is held: every other is answered meanwhile, none queued
        others = [pool.submit(call, gw, "ANA", f"{GUESS} {n}") for n in range(19)]
        answers = [f.result(timeout=WAIT_S) for f in others]
        passwords.release.set()
        assert first.result(timeout=WAIT_S)[0] == 401
    assert {(status, a["code"]) for status, a in answers} == {(429, "rate_limited")}
    assert all(a["retry_after_ms"] > 0 for _, a in answers)
    assert passwords.work == 1 and passwords.most_at_once == 1


def test_guesses_at_one_name_never_hold_another_players_sign_in(store: SqliteStore) -> None:
    """Before: the burst's hashes filled the pool's two threads and its queue, and a player
    of another name from the same address waited behind all of them."""
    made(store, "ana")
    made(store, "bob")
    passwords = Counting(hold=GUESS)
    with serving(store, passwords) as gw, ThreadPoolExecutor(61) as pool:
        burst = [pool.submit(call, gw, "ana", GUESS) for _ in range(60)]
        assert passwords.held.wait(WAIT_S)
        # while a guess's hash is held, bob signs in from the same address
        status, answer = pool.submit(call, gw, "bob", PASSWORD).result(timeout=WAIT_S)
        passwords.release.set()
        statuses = sorted(f.result(timeout=WAIT_S)[0] for f in burst)
    assert status == 200 and answer["player"] == "bob", answer
    assert statuses.count(401) <= NAME_BURST and set(statuses) <= {401, 429}


def call_from(gw: ThreadedGateway, name: str, password: str,
              address: str) -> tuple[int, dict[str, Any]]:
    """``call`` by a player at ``address``, through a proxy on this machine."""
    conn = http.client.HTTPConnection("127.0.0.1", gw.port, timeout=WAIT_S)
    try:
        conn.request("POST", PATH, body=json.dumps({"name": name, "password": password}),
                     headers={"Content-Type": "application/json", "X-Forwarded-For": address})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def until(done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT_S
    while not done():
        assert time.monotonic() < deadline, "never happened"
        time.sleep(0.01)


def test_an_address_has_two_attempts_in_hand_and_the_server_four(store: SqliteStore) -> None:
    """Caught: the gate counted no address's attempts, or none in all, so one address (or
    a few) queued guesses at many names behind the two hashing threads, and every other
    player's sign-in waited behind them instead of a 429 said at once."""
    for n in range(5):
        made(store, f"p{n}")
    passwords = Counting(hold=GUESS)
    sign_in = LocalSignIn(SignIns(Accounts(store), SECRET, passwords),
                          attempts=Attempts(lambda: 1000.0), proxies=LOOPBACK_PROXIES)
    with ThreadedGateway({}, sign_in=sign_in) as gw, ThreadPoolExecutor(4) as pool:
        try:
            held = [pool.submit(call_from, gw, f"p{n}", GUESS, "192.0.2.1") for n in (0, 1)]
            until(lambda: passwords.at_once == 2)  # both threads hold a check
            status, said = call_from(gw, "p2", GUESS, "192.0.2.1")
            assert (status, said["code"]) == (429, "rate_limited"), said
            assert "address" in said["error"]
            waiting = [pool.submit(call_from, gw, f"p{n}", GUESS, f"192.0.2.{n}") for n in (2, 3)]
            # (the gate's count: admitted, waiting for a thread, nothing else to see)
            until(lambda: sign_in.gate._addresses.total() == 4)
            status, said = call_from(gw, "p4", GUESS, "192.0.2.4")
            assert (status, said["code"]) == (429, "rate_limited"), said
            assert "busy" in said["error"]
        finally:
            passwords.release.set()
        assert [f.result(timeout=WAIT_S)[0] for f in held + waiting] == [401] * 4


def test_a_client_that_hangs_up_keeps_its_place_until_its_hash_ends(
        store: SqliteStore) -> None:
    """Caught: the work was awaited unshielded, so a sign-in whose handler was cancelled
    (its client hung up) gave back the name's and the address's place while its hash
    still ran: a guesser who hangs up at once has a hash running per connection."""
    sign_in = LocalSignIn(SignIns(Accounts(store), SECRET, cheap_passwords()),
                          attempts=Attempts(lambda: 1000.0))
    release = threading.Event()

    async def scenario() -> None:
        request = make_mocked_request("POST", PATH)
        address = client_address(request)
        attempt = asyncio.ensure_future(
            sign_in._limited(request, "ana", lambda: release.wait(WAIT_S)))
        while sign_in.gate.refusal("ana", address) is None:
            await asyncio.sleep(0.01)
        attempt.cancel()  # as aiohttp cancels the handler of a client gone
        with pytest.raises(asyncio.CancelledError):
            await attempt
        await asyncio.sleep(0.1)
        assert sign_in.gate.refusal("ana", address) is not None  # its hash still runs
        release.set()
        while sign_in._running:
            await asyncio.sleep(0.01)
        assert sign_in.gate.refusal("ana", address) is None

    try:
        asyncio.run(asyncio.wait_for(scenario(), WAIT_S))
    finally:
        release.set()


def test_a_success_is_not_counted_a_failure(store: SqliteStore) -> None:
    """Caught: an attempt charged before its work and not given back when it succeeded,
    so a player who signs in often locked her own name out."""
    made(store, "ana")
    with serving(store, cheap_passwords()) as gw:
        for _ in range(3 * NAME_BURST):
            assert call(gw, "ana", PASSWORD)[0] == 200
        assert call(gw, "ana", GUESS)[0] == 401


# ---------------------------------------------------------------- the same answer


PROBES = {
    # name → how it is known to the store
    "nobody": None,
    "ana": "an account",
    "dora": "a disabled account",
    "otto": "an operator token's record (no password)",
    "cara": "a Cognito player",
    "ezra": "games from before records",
}


@pytest.fixture
def club(store: SqliteStore) -> SqliteStore:
    made(store, "ana")
    made(store, "dora", disabled=True)
    Accounts(store).ensure("otto", 1)
    Accounts(store).add(Account(name="cara", created_ms=1, sub="pool-sub"))
    store.put({"pk": keys.player("ezra"), "sk": keys.rating("classic"), "rating": 1500})
    return store


@pytest.mark.parametrize(("password", "answer"), [
    ("seven77", (400, {"code": "weak_password", "reason": "short"})),
    ("password1", (400, {"code": "weak_password", "reason": "common"})),
    ("x" * (MAX_PASSWORD_CHARS + 1), (400, {"code": "weak_password", "reason": "long"})),
])
def test_a_password_no_account_could_have_is_one_answer_for_every_name_after_one_hash(
        club: SqliteStore, password: str, answer: tuple[int, dict[str, str]]) -> None:
    """Before: a known name with a short password cost a hash and got 401 (counted); an
    unknown one 400 ``weak_password`` at once (never counted); a disabled one 403
    before any check."""
    passwords = Counting()
    with serving(club, passwords) as gw:
        for name in PROBES:
            before = passwords.work
            status, said = call(gw, name, password)
            assert (status, {k: said[k] for k in answer[1]}) == answer, name
            assert passwords.work - before == 1, f"{name}: one Argon2 check, like any other"
            assert call(gw, name, password)[1] == said  # word for word, whoever asks
    assert Accounts(club).get("nobody") is None


def test_a_wrong_password_is_one_answer_for_every_name_that_is_somebodys(
        club: SqliteStore) -> None:
    """A good password that is not the name's: ``bad_password`` whether the name has an
    account, a disabled one, a record without a password, a Cognito player or only
    games — before, a disabled name was 403 and a Cognito player's 409, with no hash."""
    passwords = Counting()
    with serving(club, passwords) as gw:
        answers = {}
        for name in [n for n in PROBES if n != "nobody"]:
            before = passwords.work
            answers[name] = call(gw, name, GUESS)
            assert passwords.work - before == 1, name
    assert set(json.dumps(a, sort_keys=True) for a in answers.values()) == {json.dumps(
        (401, {"code": "bad_password", "error": "wrong password for this name"}),
        sort_keys=True)}
    # the disabled player, with her own password, is told
    with serving(club, cheap_passwords()) as gw:
        assert call(gw, "dora", PASSWORD) == (403, {
            "code": "disabled", "error": "this account is disabled; ask the host"})


def test_every_probe_is_counted_unknown_names_and_short_passwords_too(
        store: SqliteStore) -> None:
    """Before: a short password for an unknown name was never counted: a free probe."""
    with serving(store, cheap_passwords()) as gw:
        statuses = [call(gw, "nobody", "short1")[0] for _ in range(NAME_BURST + 1)]
    assert statuses == [400] * NAME_BURST + [429]


# ---------------------------------------------------------------- claims


def test_an_operator_tokens_record_is_claimed_only_on_a_one_person_machine(
        store: SqliteStore) -> None:
    """Caught: the first password sent for a record without one (an operator token's
    player) set it on a club's server too, so whoever sent it first had the name."""
    Accounts(store).ensure("otto", 1)
    with serving(store, cheap_passwords()) as gw:
        assert call(gw, "otto", PASSWORD)[0] == 401
    assert Accounts(store).get("otto") == Account(name="otto", created_ms=1)
    with serving(store, cheap_passwords(), open_sign_in=True) as gw:
        status, answer = call(gw, "otto", PASSWORD)
    assert status == 200 and answer["claimed"] is True


def test_a_cognito_players_record_is_never_claimed_even_on_a_one_person_machine(
        store: SqliteStore) -> None:
    """Caught: a claim looked only for a record without a password, so with open sign-in
    the first password sent for a Cognito player's name set one, and the name signed in
    here without the pool."""
    Accounts(store).add(Account(name="cara", created_ms=1, sub="pool-sub"))
    signing = SignIns(Accounts(store), SECRET, cheap_passwords())
    with pytest.raises(SignInRefused) as refused:
        signing.sign_in("cara", PASSWORD, may_claim=True)
    assert refused.value.code == "bad_password"
    assert Accounts(store).get("cara") == Account(name="cara", created_ms=1, sub="pool-sub")


class BothReadFirst:
    """A store whose first write from each of two threads waits for the other thread's."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._barrier = threading.Barrier(2)
        self._waited: set[int] = set()

    def put(self, item: Any, condition: Any = None) -> None:
        if threading.get_ident() not in self._waited:
            self._waited.add(threading.get_ident())
            self._barrier.wait(timeout=WAIT_S)
        self._store.put(item, condition)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def test_two_claims_at_once_one_wins_and_the_other_is_refused(store: SqliteStore) -> None:
    """Before: both claims were told ``claimed: true`` and the last one's password won."""
    Accounts(store).ensure("otto", 1)
    signing = SignIns(Accounts(cast(Store, BothReadFirst(store))), SECRET, cheap_passwords())
    passwords = ["otto's first password", "otto's other password"]

    def claim(password: str) -> object:
        try:
            return signing.sign_in("otto", password, may_claim=True)
        except SignInRefused as refusal:
            return refusal.code

    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(claim, passwords))
    assert sorted(map(str, outcomes)).count("bad_password") == 1
    winner = passwords[outcomes.index(next(o for o in outcomes if o != "bad_password"))]
    stored = Accounts(store).get("otto")
    assert stored is not None and stored.generation == 1
    assert cheap_passwords().matches(stored.password_hash, winner)


# ---------------------------------------------------------------- hashes


class Refusing(PasswordHasher):
    """A hasher that records what it is asked to check and checks nothing costly."""

    def __init__(self) -> None:
        super().__init__(time_cost=1, memory_cost=64, parallelism=1)
        self.checked: list[str] = []

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        self.checked.append(str(hash))
        if "m=4194304" in str(hash):
            raise VerifyMismatchError
        return super().verify(hash, password)


COSTLY = ("$argon2id$v=19$m=4194304,t=4294967295,p=1$c29tZXNhbHRzb21lc2FsdA"
          "$c29tZWhhc2hzb21laGFzaHNvbWVoYXNoc29tZWhhc2g")


def test_a_stored_hash_beyond_the_clubs_costs_is_never_checked(store: SqliteStore) -> None:
    """Before: whatever cost a stored (imported) hash named, sign-in ran it (4 GiB and four
    billion passes: one sign-in took the machine)."""
    Accounts(store).add(Account(name="ana", created_ms=1, password_hash=COSTLY))
    hasher = Refusing()
    with serving(store, Passwords(hasher)) as gw:
        assert call(gw, "ana", PASSWORD)[0] == 401
    assert COSTLY not in hasher.checked and len(hasher.checked) == 1  # a dummy's instead
    with pytest.raises(HashOutOfBounds, match="memory_cost"):
        check_hash(COSTLY)


def test_a_hash_made_with_other_parameters_is_made_again_at_the_next_sign_in(
        store: SqliteStore) -> None:
    """Before: a hash stayed as cheap as it was made (an import, older parameters)."""
    weak = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(PASSWORD)
    Accounts(store).add(Account(name="ana", created_ms=1, generation=3, password_hash=weak))
    with serving(store, cheap_passwords()) as gw:
        status, answer = call(gw, "ana", PASSWORD)
    stored = Accounts(store).get("ana")
    assert status == 200 and stored is not None and stored.password_hash != weak
    assert stored.password_hash is not None
    assert extract_parameters(stored.password_hash).memory_cost == 64
    assert stored.generation == 3  # the same password: the player's tokens stay good
    assert verify_operator(answer["token"], SECRET).generation == 3


# ---------------------------------------------------------------- new passwords


@pytest.mark.parametrize(("password", "reason"), [
    ("seven77", "short"), ("password1", "common"), ("12345678", "common"),
    ("qwertyuiop", "common"), ("iloveyou2", "common"), ("aaaaaaaaaaaaaaaa", "common"),
    ("ana12345", "common"), ("x" * (MAX_PASSWORD_CHARS + 1), "long"),
])
def test_a_new_password_that_is_short_long_or_common_is_refused(password: str,
                                                                 reason: str) -> None:
    """Before: any 8 characters would do, ``password1`` and ``12345678`` included."""
    with pytest.raises(WeakPassword) as refused:
        check_new_password(password, "ana")
    assert refused.value.reason == reason


@pytest.mark.parametrize(("name", "password"), [
    ("Kallisto7", "Kallisto7!"), ("qorvath", "qorvath123"), ("Pelagia", "pelagia2024"),
    ("ana", "numbridge26"),
])
def test_a_password_made_of_the_players_name_or_the_clubs_is_refused(
        store: SqliteStore, name: str, password: str) -> None:
    """Caught: the rating did not count the player's name (nor "numbridge") as known, so
    "qorvath123" was a good password for qorvath; for another player it still is."""
    signing = SignIns(Accounts(store), SECRET, cheap_passwords())
    with pytest.raises(SignInRefused) as refused:
        signing.sign_in(name, password)
    assert (refused.value.code, refused.value.reason) == ("weak_password", "common")
    other = "bob" if name == "ana" else "ana"
    assert signing.sign_in(other, password.replace("numbridge", "lanterns")).created


@pytest.mark.parametrize("password", [PASSWORD, "ana's long password", "sjdh47dhw",
                                      "Γέφυρα και μπλιτς", "k" * 3 + "9 lanterns on a river"
                                      + "!" * (MAX_PASSWORD_CHARS - 24)])
def test_a_new_password_that_is_hard_to_guess_is_taken(password: str) -> None:
    """Caught: a rule stricter than ASVS's that refused good passwords: one with no
    capital or symbol, a Greek passphrase, a long one ending in repeats (its first 64
    characters are what is rated)."""
    assert check_new_password(password, "ana") == password
